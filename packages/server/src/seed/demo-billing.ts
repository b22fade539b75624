import { PRODUCT_TYPE, topupPosting } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { buckets, groups, products } from '../db/schema.js';
import type { Db } from '../platform/db.js';
import { getDomainConfig, updateDomainConfig } from '../modules/domain/domain.store.js';
import { postTxn } from '../modules/ledger/index.js';
import { addExpertBucket, insertProduct } from '../modules/orders/products.store.js';
import { upsertInvoiceConfig } from '../modules/payments/invoices.store.js';

/** The demo marketplace's products at the teleradiology centre (XH-TELE); prices in fen. */
export const DEMO_PRODUCTS = [
  {
    type: PRODUCT_TYPE.expert,
    name: 'CT 专家阅片',
    description: '三甲医院影像专家出具诊断报告',
    modality: 'CT',
    priceFen: 20000,
    turnaroundMinutes: 120,
    breachCreditBp: 2000,
  },
  {
    type: PRODUCT_TYPE.expert,
    name: 'MR 专家阅片',
    description: '神经、骨关节 MR 专家阅片',
    modality: 'MR',
    priceFen: 30000,
    turnaroundMinutes: 240,
    breachCreditBp: 2000,
  },
  {
    type: PRODUCT_TYPE.remote,
    name: '远程诊断',
    description: '远程诊断中心出具报告',
    modality: null,
    priceFen: 8000,
    turnaroundMinutes: 60,
    breachCreditBp: 1000,
  },
] as const;

/** The demo hospital's opening balance, recorded as an offline transfer (¥1,000.00). */
export const DEMO_OPENING_BALANCE_FEN = 100_000;

/**
 * The demo marketplace (issue 24), on a running demo (main.ts, `yyp seed-demo`), not in the test
 * harness, whose tests build their own: the payment service on, the teleradiology centre (XH-TELE)
 * the hospital group's paid expert organization selling CT, MR and remote reads and issuing
 * invoices, and the hospital group's balance opened with ¥1,000.00 (credit on). Idempotent: skipped
 * when the centre already sells something.
 */
export async function seedDemoBilling(db: Db, now: Date): Promise<void> {
  const [expert] = await db.select().from(buckets).where(eq(buckets.code, 'XH-TELE'));
  const [hospital] = await db.select().from(groups).where(eq(groups.id, 'demo-renhe'));
  if (!expert || !hospital) return;
  const [selling] = await db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.bucketId, expert.id))
    .limit(1);
  if (selling) return;
  const domain = await getDomainConfig(db);
  if (!domain.enablePaymentService) await updateDomainConfig(db, { enablePaymentService: true }, now);
  await db.transaction(async (tx) => {
    await addExpertBucket(tx, hospital.id, expert.id, true, now);
    for (const p of DEMO_PRODUCTS) {
      await insertProduct(tx, {
        id: `demo-product-${p.type}-${p.modality ?? 'any'}`,
        bucketId: expert.id,
        ...p,
        currency: 'CNY',
        created: now,
        updated: now,
      });
    }
    await upsertInvoiceConfig(
      tx,
      expert.id,
      { supportsInvoice: true, issuerName: '协和远程影像中心有限公司', taxNo: '91110000MA00DEMO01', note: '' },
      now,
    );
    await tx
      .update(groups)
      .set({ settings: { ...hospital.settings, enableCredit: true, defaultExpertBucketId: expert.id } })
      .where(eq(groups.id, hospital.id));
    await postTxn(tx, {
      kind: 'topup',
      ref: 'demo-opening-balance',
      groupId: hospital.id,
      memo: '演示开户余额',
      lines: topupPosting({
        source: 'manual',
        groupId: hospital.id,
        amountFen: DEMO_OPENING_BALANCE_FEN,
        currency: 'CNY',
      }),
    });
  });
}

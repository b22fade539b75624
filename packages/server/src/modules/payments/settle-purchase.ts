import {
  planAfterPurchase,
  planPackageById,
  planPosting,
  topupPosting,
  type Currency,
  type PaymentChannel,
  type PlanFields,
} from '@yyp/contracts';
import type { PaymentRow } from '../../db/schema.js';
import { writeAudit } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { postTxn } from '../ledger/index.js';
import { lockBucket, setBucketPlan } from '../organizations/index.js';
import { markPaid } from './payments.store.js';
import type { SettleMeta, SettleOutcome, Settlement } from './settle.js';

/** Payments that buy something other than an order: a top-up of the group's balance, a plan package. */
export const PURCHASE_PURPOSES = new Set(['topup', 'plan']);

/**
 * Settles a top-up or a plan purchase whose row settlePayment has locked (same transaction, same
 * checks as an order's: channel, already paid, currency, amount). A top-up posts cash → the group's
 * balance (kind topup, ref the payment no); a plan posts cash (or the group's balance) → the
 * platform's plan earnings (kind plan) and applies the package to the organization (its row locked;
 * planAfterPurchase). The row is marked paid in the same transaction, so each happens once.
 */
export async function settlePurchase(tx: Db, row: PaymentRow, s: Settlement, meta: SettleMeta): Promise<SettleOutcome> {
  if (row.channel !== meta.channel) return { result: 'refused', reason: 'channel', payment: row };
  if (row.status === 'paid') return { result: 'already', payment: row };
  if (s.currency !== row.currency) return { result: 'refused', reason: 'currency', payment: row };
  if (s.amountFen !== row.amountFen) return { result: 'refused', reason: 'amount', payment: row };
  const pkg = row.purpose === 'plan' ? planPackageById(row.packageId ?? '') : undefined;
  if (row.purpose === 'plan' && (!pkg || !row.bucketId)) return { result: 'refused', reason: 'unknown', payment: row };
  const bucket = row.purpose === 'plan' ? await lockBucket(tx, row.bucketId!) : undefined;
  if (row.purpose === 'plan' && !bucket) return { result: 'refused', reason: 'unknown', payment: row };
  await markPaid(tx, row.id, { transactionId: s.transactionId, paidAt: s.paidAt, now: meta.now, duplicate: false });
  const currency = row.currency as Currency;
  const details: Record<string, unknown> = {
    channel: row.channel,
    amountFen: row.amountFen,
    currency,
    source: meta.source,
    transactionId: s.transactionId,
  };
  if (row.purpose === 'topup') {
    await postTxn(tx, {
      kind: 'topup',
      ref: row.paymentNo,
      groupId: row.groupId,
      memo: '微信充值',
      ...(meta.actor ? { actorId: meta.actor.id } : {}),
      at: s.paidAt,
      lines: topupPosting({ source: 'weixin', groupId: row.groupId, amountFen: row.amountFen, currency }),
    });
  } else {
    const before: PlanFields = {
      kind: bucket!.planKind as PlanFields['kind'],
      quota: bucket!.planQuota,
      used: bucket!.planUsed,
      expiresAt: bucket!.planExpiresAt,
    };
    const after = planAfterPurchase(before, pkg!, s.paidAt);
    await setBucketPlan(
      tx,
      bucket!.id,
      { planKind: after.kind, planQuota: after.quota, planExpiresAt: after.expiresAt },
      meta.now,
    );
    await postTxn(tx, {
      kind: 'plan',
      ref: row.paymentNo,
      groupId: row.groupId,
      memo: `套餐 ${pkg!.id}`,
      ...(meta.actor ? { actorId: meta.actor.id } : {}),
      at: s.paidAt,
      lines: planPosting({
        channel: row.channel as PaymentChannel,
        payerGroupId: row.groupId,
        amountFen: row.amountFen,
        currency,
      }),
    });
    Object.assign(details, {
      packageId: pkg!.id,
      previous: { ...before, expiresAt: before.expiresAt?.toISOString() ?? null },
      plan: { ...after, expiresAt: after.expiresAt?.toISOString() ?? null },
    });
  }
  await writeAudit(tx, meta.ctx, {
    action: row.purpose === 'topup' ? 'payment.topup_paid' : 'payment.plan_paid',
    outcome: 'success',
    actorId: meta.actor?.id ?? null,
    actorUsername: meta.actor?.username ?? null,
    targetType: 'payment',
    targetId: row.paymentNo,
    ...(row.bucketId ? { bucketId: row.bucketId } : {}),
    details: { groupId: row.groupId, ...details },
  });
  return { result: 'settled', payment: { ...row, status: 'paid', paidAt: s.paidAt }, duplicate: false };
}

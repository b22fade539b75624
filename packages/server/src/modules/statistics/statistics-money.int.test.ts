import ExcelJS from 'exceljs';
import { ledgerAccount, paymentPosting, slaCreditPosting, type StatBillings, type StatTable } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, ledgerTxns } from '../../db/schema.js';
import { makeGroupMember, makeMember, makeOrganization, unique, type BuiltAccount } from '../../test/factories.js';
import { postTxn } from '../ledger/index.js';
import { makeOrder, paidByCredit, paidByWeixin, startPayWorld, type PayWorld } from '../payments/payments.fixture.js';

/**
 * statistics/group-payment and statistics/billings (charge_details_stats, issue 26): an expert
 * organization's income from the billing ledger, paid by WeChat and from a balance, refunded in
 * part, credited for a missed turnaround, in two currencies never added together.
 */
let w: PayWorld;
let sellers: { bucketId: string; groupId: string };
let head: BuiltAccount;
let a: { orderId: string; paymentNo: string };
let b: { orderId: string };
let usd: { id: string };
const DAY = 86_400_000;
const chinaDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
let from: string;
let to: string;

const get = async <T>(path: string, query: Record<string, string>, token = head.token) => {
  const res = await w.t.as(token).get(`${path}?${new URLSearchParams({ from, to, ...query })}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

beforeAll(async () => {
  w = await startPayWorld();
  const now = w.t.clock.now().getTime();
  from = chinaDay(now - DAY);
  to = chinaDay(now + DAY);
  sellers = await makeOrganization(w.t, { name: '影像专家中心', group: { displayName: unique('专家') } });
  head = await makeGroupMember(w.t, sellers.groupId, 1);
  const refunder = await makeMember(w.t, sellers.bucketId, { actions: ['payment_refund'] });
  a = await paidByWeixin(w, { targetBucketId: sellers.bucketId });
  b = await paidByCredit(w, { targetBucketId: sellers.bucketId, priceFen: 3_050 });
  const refund = await w.t.call('POST', `payments/${a.paymentNo}/refund`, {
    token: refunder.token,
    headers: { 'idempotency-key': unique('stat-refund-') },
    body: { amountFen: 5_000, reason: '部分退款' },
  });
  expect(refund.statusCode, refund.body).toBe(201);
  // The turnaround sweep's credit for a breached order (orders/turnaround.service.ts posts the same).
  await postTxn(w.db, {
    kind: 'sla_credit',
    ref: b.orderId,
    groupId: w.clinic.groupId,
    orderId: b.orderId,
    lines: slaCreditPosting({
      buyerGroupId: w.clinic.groupId,
      expertBucketId: sellers.bucketId,
      amountFen: 610,
      currency: 'CNY',
    }),
  });
  // An order paid in US dollars (settle.ts's posting).
  usd = await makeOrder(w, { targetBucketId: sellers.bucketId, currency: 'USD', priceFen: 1_000 });
  await postTxn(w.db, {
    kind: 'payment',
    ref: unique('usd-pay-'),
    groupId: w.clinic.groupId,
    orderId: usd.id,
    lines: paymentPosting({
      channel: 'weixin',
      payerGroupId: w.clinic.groupId,
      expertBucketId: sellers.bucketId,
      amountFen: 1_000,
      currency: 'USD',
    }),
  });
});
afterAll(async () => {
  await w.close();
});

describe('statistics/group-payment', () => {
  const cny = { orders: 2, paidFen: 15_050, refundedFen: 5_000, creditedFen: 610, netFen: 9_440 };

  it('sums the revenue ledger per organization: paid − refunded − credited = net, in CNY', async () => {
    const tb = await get<StatTable>('statistics/group-payment', {});
    expect(tb.currency).toBe('CNY');
    expect(tb.columns).toEqual(['orders', 'paidFen', 'refundedFen', 'creditedFen', 'netFen']);
    expect(tb.rows).toEqual([{ key: sellers.bucketId, label: '影像专家中心', values: cny }]);
    expect(tb.totals).toEqual(cny);
    expect(tb.periods.map((p) => p.period)).toEqual([from, chinaDay(w.t.clock.now().getTime()), to]);
    expect(tb.periods[1]!.values).toEqual(cny);
    expect(tb.periods[0]!.values).toEqual({ orders: 0, paidFen: 0, refundedFen: 0, creditedFen: 0, netFen: 0 });
  });

  it('by product, and in US dollars when asked; zero where nothing was paid', async () => {
    const byProduct = await get<StatTable>('statistics/group-payment', { by: 'product' });
    // makeOrder makes a product per order: two products of the same name.
    expect(byProduct.rows.map((r) => r.label)).toEqual(['CT 专家读片', 'CT 专家读片']);
    expect(byProduct.rows.map((r) => r.values.netFen).sort()).toEqual([2_440, 7_000]);
    expect(byProduct.totals).toEqual(cny);
    // The orders' exams are CTs.
    expect((await get<StatTable>('statistics/group-payment', { modality: 'CT' })).totals).toEqual(cny);
    expect((await get<StatTable>('statistics/group-payment', { modality: 'MR' })).totals.orders).toBe(0);
    expect((await get<StatBillings>('statistics/billings', { modality: 'MR' })).total).toBe(0);
    const dollars = await get<StatTable>('statistics/group-payment', { currency: 'USD' });
    expect(dollars.currency).toBe('USD');
    expect(dollars.totals).toEqual({ orders: 1, paidFen: 1_000, refundedFen: 0, creditedFen: 0, netFen: 1_000 });
    const bare = await makeOrganization(w.t, { name: '新中心', group: { displayName: unique('新') } });
    const bareHead = await makeGroupMember(w.t, bare.groupId, 1);
    const none = await get<StatTable>('statistics/group-payment', {}, bareHead.token);
    expect([none.rows, none.totals]).toEqual([
      [],
      { orders: 0, paidFen: 0, refundedFen: 0, creditedFen: 0, netFen: 0 },
    ]);
    expect(
      (await w.t.as(head.token).get(`statistics/group-payment?from=${from}&to=${to}&currency=EUR`)).statusCode,
    ).toBe(400);
  });

  it("the buyer's side earns nothing; a caller without charge_details_stats is refused", async () => {
    const buyerHead = await makeGroupMember(w.t, w.clinic.groupId, 1);
    const theirs = await get<StatTable>('statistics/group-payment', {}, buyerHead.token);
    expect(theirs.totals.paidFen).toBe(0);
    const res = await w.t.as(w.orderer.token).get(`statistics/group-payment?from=${from}&to=${to}`);
    expect(res.statusCode).toBe(403);
    const other = await w.t
      .as(w.admin.token)
      .get(`statistics/group-payment?from=${from}&to=${to}&bucketIds=${sellers.bucketId}`);
    expect(other.statusCode).toBe(404);
  });
});

describe('statistics/billings', () => {
  it('lists the money lines newest first with sums per currency', async () => {
    const page = await get<StatBillings>('statistics/billings', {});
    expect(page.total).toBe(5);
    expect(page.sums).toEqual([
      { currency: 'CNY', paidFen: 15_050, refundedFen: 5_000, creditedFen: 610, netFen: 9_440 },
      { currency: 'USD', paidFen: 1_000, refundedFen: 0, creditedFen: 0, netFen: 1_000 },
    ]);
    const line = (kind: string, orderId: string) => page.items.find((i) => i.kind === kind && i.orderId === orderId);
    expect(line('payment', a.orderId)).toMatchObject({
      amountFen: 12_000,
      channel: 'weixin',
      currency: 'CNY',
      bucketId: sellers.bucketId,
      bucketName: '影像专家中心',
      counterpart: '县医院放射科',
      product: 'CT 专家读片',
    });
    expect(line('refund', a.orderId)).toMatchObject({ amountFen: 5_000, channel: 'weixin' });
    expect(line('payment', b.orderId)).toMatchObject({ amountFen: 3_050, channel: 'credit' });
    expect(line('credit', b.orderId)).toMatchObject({ amountFen: 610, channel: 'credit' });
    expect(line('payment', usd.id)).toMatchObject({ amountFen: 1_000, currency: 'USD' });
    const times = page.items.map((i) => i.at);
    expect([...times].sort().reverse()).toEqual(times);
    const two = await w.t.as(head.token).post('statistics/billings', { from, to, skip: 1, limit: 2 });
    expect(two.statusCode, two.body).toBe(200);
    const second = two.json() as StatBillings;
    expect([second.total, second.items]).toEqual([5, page.items.slice(1, 3)]);
  });

  it('exports the lines and the sums as .xlsx, at most 1,000 lines', async () => {
    const res = await w.t.as(head.token).get(`statistics/billings/export-excel?from=${from}&to=${to}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-export-count']).toBe('5');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    // header, five lines, one sum per currency
    expect(sheet.rowCount).toBe(8);
    expect(sheet.getRow(7).values).toContain(94.4);

    // 1,001 lines of another organization: refused, nothing written.
    const big = await makeOrganization(w.t, { name: '大中心', group: { displayName: unique('大') } });
    const bigHead = await makeGroupMember(w.t, big.groupId, 1);
    const at = w.t.clock.now();
    const txns = Array.from({ length: 1_001 }, (_, i) => ({
      id: unique('bulk-txn-'),
      kind: 'payment',
      ref: `bulk-${big.bucketId}-${i}`,
      created: at,
    }));
    await w.db.insert(ledgerTxns).values(txns);
    await w.db.insert(ledgerEntries).values(
      txns.map((tx) => ({
        id: unique('bulk-entry-'),
        txnId: tx.id,
        account: ledgerAccount.revenue(big.bucketId),
        amountFen: -100,
        created: at,
      })),
    );
    const refused = await w.t.as(bigHead.token).get(`statistics/billings/export-excel?from=${from}&to=${to}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'ExportLimitExceeded' });
  });
});

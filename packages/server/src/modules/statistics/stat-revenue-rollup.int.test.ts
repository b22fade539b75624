import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ledgerAccount, type Currency, type StatInterval } from '@yyp/contracts';
import { exams, ledgerEntries, ledgerTxns, orders, products } from '../../db/schema.js';
import { makeExam, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { prng } from './stat-rollup.fixture.js';
import { dayRequest, shape, writeWithRefreshes } from './stat-oracle.fixture.js';
import { billingSums, groupPaymentStats } from './stat-money.store.js';
import { billingSumsDirect, groupPaymentDirect } from './stat-money-direct.fixture.js';
import { refreshRollups } from './stat-rollup.store.js';

/**
 * The revenue rollup's oracle (issue 26): ledger lines written straight (the trigger of migration
 * 0051 copies them to stat_revenue_lines and, since 0056, marks their days): payments (a second one
 * of an order now and then, which makes its lines multi), refunds, turnaround credits and a kind
 * that is no income, in yuan and dollars, of orders and of none; the orders' product changed,
 * renamed, moved to another exam, deleted; the exams' modality changed; a transaction deleted with
 * its lines; a column the rollup does not read changed; with refreshes between. Then
 * statistics/group-payment and the billings' sums from the rollup must answer what the count over
 * the lines answers, by organization and product, every interval, both currencies, with and
 * without a modality, over months, parts of months and one day, for one, two and three organizations.
 */
let t: TestApp;
let buckets: string[];
let groupId: string;
let template: typeof exams.$inferSelect;
const db = () => t.db.database.db;

const DAY0 = Date.parse('2026-09-27T16:00:00Z');
const SPAN_MS = 70 * 86_400_000;
const MODALITIES = ['CT', 'MR', 'DX', 'CT\\SR', 'US'];
const PRODUCTS = ['rev-product-1', 'rev-product-2'];
const OPS = [0, 0, 0, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8];
let serial = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const one = await makeOrganization(t);
  groupId = one.groupId;
  const two = await makeOrganization(t, { groupId });
  const other = await makeOrganization(t);
  buckets = [one.bucketId, two.bucketId, other.bucketId];
  await db()
    .insert(products)
    .values([
      { id: PRODUCTS[0]!, bucketId: buckets[1]!, name: '专家阅片', priceFen: 10_000 },
      { id: PRODUCTS[1]!, bucketId: buckets[2]!, name: '远程诊断', priceFen: 5_000 },
    ]);
  const { examId } = await makeExam(t, buckets[0]!);
  [template] = (await db().select().from(exams).where(eq(exams.id, examId))) as [typeof exams.$inferSelect];
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** A new exam of a random modality (each order has its own: one live report order per exam). */
async function newExam(rnd: ReturnType<typeof prng>): Promise<string> {
  const id = `rev-exam-${++serial}`;
  await db()
    .insert(exams)
    .values({ ...template, id, storeUid: `1.2.826.0.7.${serial}`, modality: rnd.pick(MODALITIES) });
  return id;
}

function product(rnd: ReturnType<typeof prng>) {
  const kind = rnd.int(3);
  return {
    productId: kind === 0 ? rnd.pick(PRODUCTS) : null,
    productName: kind === 2 ? '' : rnd.pick(['远程诊断', 'CT 专家读片', '会诊']),
  };
}

async function anyOf<T extends { id: string }>(rows: T[], rnd: ReturnType<typeof prng>): Promise<string | null> {
  return rows.length ? rows[rnd.int(rows.length)]!.id : null;
}

/** One transaction: a line on the organization's revenue account and its twin on a cash account. */
async function post(rnd: ReturnType<typeof prng>, orderId: string | null, bucketId: string, kind: string) {
  const ms = DAY0 + rnd.int(SPAN_MS);
  // now and then on a hospital day's first or last millisecond
  const created = new Date(rnd.int(5) === 0 ? ms - ((ms + 8 * 3_600_000) % 86_400_000) - rnd.int(2) : ms);
  const amountFen = (1 + rnd.int(300)) * 10 * (kind === 'payment' ? -1 : 1);
  const currency: Currency = rnd.int(8) === 0 ? 'USD' : 'CNY';
  const id = `rev-txn-${++serial}`;
  await db().insert(ledgerTxns).values({ id, kind, ref: id, orderId, created });
  await db()
    .insert(ledgerEntries)
    .values([
      { id: `${id}-r`, txnId: id, account: ledgerAccount.revenue(bucketId), amountFen, currency, created },
      { id: `${id}-c`, txnId: id, account: ledgerAccount.cashWeixin, amountFen: -amountFen, currency, created },
    ]);
}

async function write(rnd: ReturnType<typeof prng>): Promise<void> {
  const op = OPS[rnd.int(OPS.length)]!;
  const all = await db().select({ id: orders.id, target: orders.targetBucketId }).from(orders);
  if (op === 0 || all.length === 0) {
    const id = `rev-order-${++serial}`;
    const target = rnd.pick(buckets);
    await db()
      .insert(orders)
      .values({
        id,
        orderNo: id,
        type: 'expert',
        groupId,
        requestBucketId: rnd.pick(buckets),
        targetBucketId: target,
        examId: await newExam(rnd),
        ...product(rnd),
      });
    await post(rnd, id, target, 'payment');
    return;
  }
  const picked = all[rnd.int(all.length)]!;
  if (op === 1) {
    // a line of the order on its target's account (a second payment makes the order multi), or of none
    const kind = rnd.pick(['payment', 'payment', 'refund', 'sla_credit', 'adjustment']);
    const none = rnd.int(8) === 0;
    await post(rnd, none ? null : picked.id, none ? rnd.pick(buckets) : picked.target, kind);
    return;
  }
  if (op === 2) await db().update(orders).set(product(rnd)).where(eq(orders.id, picked.id));
  if (op === 3) {
    const examId = await newExam(rnd);
    await db().update(orders).set({ examId }).where(eq(orders.id, picked.id));
  }
  if (op === 4) {
    const [row] = await db().select({ examId: orders.examId }).from(orders).where(eq(orders.id, picked.id));
    await db()
      .update(exams)
      .set({ modality: rnd.pick(MODALITIES) })
      .where(eq(exams.id, row!.examId));
  }
  if (op === 5 && rnd.int(3) === 0) await db().delete(orders).where(eq(orders.id, picked.id));
  if (op === 6) {
    const txns = await db().select({ id: ledgerTxns.id }).from(ledgerTxns);
    const id = await anyOf(txns, rnd);
    if (id) await db().delete(ledgerTxns).where(eq(ledgerTxns.id, id));
  }
  if (op === 7) {
    await db()
      .update(products)
      .set({ name: `产品 ${serial}` })
      .where(eq(products.id, rnd.pick(PRODUCTS)));
  }
  if (op === 8) {
    await db()
      .update(orders)
      .set({ reason: `reason ${serial}` })
      .where(eq(orders.id, picked.id));
  }
}

const RANGES = [
  { from: '2026-10-01', to: '2026-11-30' }, // whole months
  { from: '2026-09-28', to: '2026-12-05' }, // the whole span
  { from: '2026-10-20', to: '2026-11-17' }, // no whole month
  { from: '2026-11-03', to: '2026-11-03' }, // one day
];
const INTERVALS: StatInterval[] = ['day', 'week', 'month', 'year'];

async function compareAll(label: string): Promise<number> {
  let compared = 0;
  const scopes = [buckets, [buckets[1]!], [buckets[0]!, buckets[2]!]];
  for (const range of RANGES) {
    for (const bucketIds of scopes) {
      await refreshRollups(db(), bucketIds);
      for (const modality of [undefined, 'CT', 'MR']) {
        const f = dayRequest({ kind: 'group-payment', by: 'bucket', interval: 'month', bucketIds, ...range, modality });
        const what = `${label}: ${modality ?? ''} ${range.from}..${range.to}, ${bucketIds.length}`;
        const plain = (x: Awaited<ReturnType<typeof billingSums>>) =>
          JSON.stringify({ ...x, sums: x.sums.map((s) => Object.values(s).map(String)) });
        expect(plain(await billingSums(db(), f)), `billings ${what}`).toBe(plain(await billingSumsDirect(db(), f)));
        for (const by of ['bucket', 'product'] as const) {
          for (const interval of INTERVALS) {
            for (const currency of (interval === 'month' ? ['CNY', 'USD'] : ['CNY']) as Currency[]) {
              const req = dayRequest({ kind: 'group-payment', by, interval, bucketIds, ...range, modality });
              expect(
                shape(await groupPaymentStats(db(), req, currency)),
                `${what} ${by} ${interval} ${currency}`,
              ).toEqual(shape(await groupPaymentDirect(db(), req, currency)));
              compared++;
            }
          }
        }
      }
    }
  }
  return compared;
}

describe('revenue rollup oracle', () => {
  it('answers what the count over the revenue lines answers after random writes', async () => {
    const rnd = prng(2629);
    await writeWithRefreshes(db(), buckets, rnd, 260, write);
    const perCase = 3 * 2 * (INTERVALS.length + 1);
    expect(await compareAll('after 260 writes')).toBe(RANGES.length * 3 * perCase);
    const counted = await db().execute(sql`select count(*)::int as n, count(*) filter (where multi)::int as multi,
      count(distinct kind)::int as kinds, count(*) filter (where order_id is null)::int as "noOrder"
      from stat_revenue_lines`);
    const { n, multi, kinds, noOrder } = (
      counted as { rows: { n: number; multi: number; kinds: number; noOrder: number }[] }
    ).rows[0]!;
    expect(Number(n)).toBeGreaterThan(80);
    expect(Number(multi)).toBeGreaterThan(4);
    expect(Number(kinds)).toBe(3);
    expect(Number(noOrder)).toBeGreaterThan(0);
    // More writes on days already counted, then the same again.
    await writeWithRefreshes(db(), buckets, rnd, 120, write);
    await compareAll('after 380 writes');
  }, 300_000);

  it("migration 0056's marks count the lines already written, as the recount does", async () => {
    await refreshRollups(db(), buckets);
    const all = async () =>
      (
        (await db().execute(sql`select * from stat_revenue
          order by bucket_id, day, currency, product_key, modality`)) as { rows: unknown[] }
      ).rows;
    const before = await all();
    expect(before.length).toBeGreaterThan(20);
    // what the migration does for lines already written: mark their days, then recount
    await db().execute(sql`delete from stat_revenue`);
    await db().execute(sql`insert into stat_dirty (bucket_id, day)
      select distinct substr(account, 9), day from stat_revenue_lines on conflict (bucket_id, day) do nothing`);
    await refreshRollups(db(), buckets);
    expect(await all()).toEqual(before);
  });
});

import { eq, inArray } from 'drizzle-orm';
import { ledgerAccount, periodOf, type Currency, type StatInterval } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, ledgerEntries, ledgerTxns, orders, products, statRevenueLines } from '../../db/schema.js';
import { makeExam, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { dayRequest, shape } from './stat-oracle.fixture.js';
import { hospitalDay, prng } from './stat-rollup.fixture.js';
import { billingLines, billingSums, groupPaymentStats, type LinesFilter } from './stat-money.store.js';
import { billingSumsDirect, groupPaymentDirect } from './stat-money-direct.fixture.js';
import { refreshRollups } from './stat-rollup.store.js';
import type { StatRequest } from './stat-source.js';

/**
 * The money statistics (issue 26) against a count in JavaScript of random ledger lines, by the
 * rules of statistics/group-payment and statistics/billings: the revenue lines (payment, refund,
 * turnaround credit) of the organizations asked for, in the period, in one currency; an order paid
 * counted once per row, per period and in the total (paid twice, in two months, refunded,
 * credited), an order between two organizations of the scope on its target's account only;
 * another organization's lines, the other currency, other kinds and the lines outside the period
 * never counted. The lines are read from stat_revenue_lines, which a trigger on ledger_entries
 * keeps (migration 0051): checked here against the ledger too, with two payments of one order in
 * one statement, two transactions paying one order at once and a deleted transaction. Both the
 * statistics as served (from the rollup stat_revenue, recounted first) and the count straight from
 * the lines (the rollup's oracle, stat-money-direct.fixture.ts) must answer by the rules.
 */
let t: TestApp;
let a: string;
let b: string;
let other: string;
let groupId: string;
const db = () => t.db.database.db;
const rnd = prng(20261128);

const START = Date.parse('2026-01-31T16:00:00Z'); // 2026-02-01 00:00 hospital time
const DAY_MS = 86_400_000;
const KINDS = ['payment', 'refund', 'sla_credit'] as const;

interface Line {
  id: string;
  account: string;
  kind: string;
  orderId: string | null;
  amountFen: number;
  currency: Currency;
  created: Date;
}
interface Order {
  id: string;
  orderNo: string;
  modality: string;
  productKey: string;
  productLabel: string;
}
const lines: Line[] = [];
const orderById = new Map<string, Order>();

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const org = await makeOrganization(t);
  a = org.bucketId;
  groupId = org.groupId;
  b = (await makeOrganization(t, { groupId: org.groupId })).bucketId;
  other = (await makeOrganization(t)).bucketId;
  const named = { id: 'money-product', bucketId: b, name: '专家阅片', priceFen: 10_000 };
  await db().insert(products).values(named);
  const { examId } = await makeExam(t, a);
  const [template] = await db().select().from(exams).where(eq(exams.id, examId));
  const buckets = [a, b, other];
  for (let i = 0; i < 40; i++) {
    const id = `money-order-${String(i).padStart(2, '0')}`;
    const modality = rnd.pick(['CT', 'MR', 'CT\\SR', 'DX']);
    await db()
      .insert(exams)
      .values({ ...template!, id: `money-exam-${i}`, storeUid: `1.2.826.0.3.${i}`, modality });
    // a product of the table (its name wins), a product's name alone, none
    const kind = rnd.int(3);
    const productName = kind === 2 ? '' : rnd.pick(['远程诊断', 'CT 专家读片']);
    const target = rnd.pick(buckets);
    await db()
      .insert(orders)
      .values({
        id,
        orderNo: `MONEY${i}`,
        type: 'expert',
        groupId,
        requestBucketId: rnd.pick(buckets),
        targetBucketId: target,
        examId: `money-exam-${i}`,
        productId: kind === 0 ? named.id : null,
        productName,
        channel: 'weixin',
      });
    orderById.set(id, {
      id,
      orderNo: `MONEY${i}`,
      modality: modality.split('\\')[0]!,
      productKey: kind === 0 ? named.id : `name:${productName}`,
      productLabel: kind === 0 ? named.name : productName,
    });
    // paid once or twice (another day or month), refunded, credited; some lines in US dollars,
    // before the period or after it; a kind that is no income on the revenue account
    const events = 1 + rnd.int(4);
    for (let j = 0; j < events; j++) {
      const kind = j === 0 ? 'payment' : rnd.pick([...KINDS, 'adjustment']);
      await post(`${id}-${j}`, target, kind, id, rnd.int(10) === 0 ? 'USD' : 'CNY');
    }
  }
  // a payment of no order, on each organization
  for (const bucketId of buckets) await post(`money-free-${bucketId}`, bucketId, 'payment', null, 'CNY');
  // an order of a to b (both asked for together) paid in February and again in April, refunded and
  // credited; two payments of another order written in one statement
  await newOrder('money-order-twice', a, b, 'CT');
  const feb = Date.parse('2026-02-10T02:00:00Z');
  const apr = Date.parse('2026-04-03T02:00:00Z');
  await post('twice-1', b, 'payment', 'money-order-twice', 'CNY', new Date(feb));
  await post('twice-2', b, 'payment', 'money-order-twice', 'CNY', new Date(apr));
  await post('twice-r', b, 'refund', 'money-order-twice', 'CNY', new Date(apr + 3_600_000));
  await post('twice-c', b, 'sla_credit', 'money-order-twice', 'CNY', new Date(apr + 7_200_000));
  await newOrder('money-order-bulk', other, a, 'MR');
  await postMany(['bulk-1', 'bulk-2'], a, 'money-order-bulk', new Date(feb + DAY_MS));
}, 120_000);

let exam = 0;
/** An order of `from` to `to` on a new exam of this modality, with no product. */
async function newOrder(id: string, from: string, to: string, modality: string) {
  const [template] = await db().select().from(exams).limit(1);
  const examId = `money-exam-x${exam++}`;
  await db()
    .insert(exams)
    .values({ ...template!, id: examId, storeUid: `1.2.826.0.4.${exam}`, modality });
  await db()
    .insert(orders)
    .values({ id, orderNo: id, type: 'expert', groupId, requestBucketId: from, targetBucketId: to, examId });
  orderById.set(id, { id, orderNo: id, modality, productKey: 'name:', productLabel: '' });
}

/** Payments of one order in one statement (each its own transaction). */
async function postMany(refs: string[], bucketId: string, orderId: string, created: Date) {
  const account = ledgerAccount.revenue(bucketId);
  const txns = refs.map((ref) => ({ id: `money-txn-${ref}`, kind: 'payment', ref, orderId, created }));
  await db().insert(ledgerTxns).values(txns);
  const rows = txns.map((t) => ({
    id: `${t.id}-r`,
    txnId: t.id,
    account,
    amountFen: -1_000,
    currency: 'CNY',
    created,
  }));
  await db().insert(ledgerEntries).values(rows);
  for (const r of rows) lines.push({ ...r, kind: 'payment', orderId, currency: 'CNY' });
}

afterAll(async () => {
  await t?.close();
});

/** group-payment as served (the rollup, its marked days recounted first) and counted straight. */
async function groupPaymentBoth(req: StatRequest, currency: Currency) {
  await refreshRollups(db(), req.bucketIds);
  const [served, direct] = [
    await groupPaymentStats(db(), req, currency),
    await groupPaymentDirect(db(), req, currency),
  ];
  expect(shape(served)).toEqual(shape(direct));
  return shape(served);
}

/** The billings' sums as served and counted straight. */
async function billingSumsBoth(f: LinesFilter) {
  await refreshRollups(db(), f.bucketIds);
  const [served, direct] = [await billingSums(db(), f), await billingSumsDirect(db(), f)];
  const plain = (x: typeof served) => ({
    total: x.total,
    sums: x.sums.map((s) => ({
      ...s,
      paidFen: Number(s.paidFen),
      refundedFen: Number(s.refundedFen),
      creditedFen: Number(s.creditedFen),
    })),
  });
  expect(plain(served)).toEqual(plain(direct));
  return served;
}

/** One transaction: the revenue line of the organization and its counterpart on a cash account. */
async function post(
  ref: string,
  bucketId: string,
  kind: string,
  orderId: string | null,
  currency: Currency,
  at?: Date,
) {
  // 110 days from 2026-02-01 hospital time; every fifth line on a hospital day's edge
  const day = rnd.int(110);
  const edge = rnd.int(5) === 0 ? rnd.pick([0, DAY_MS - 1]) : rnd.int(DAY_MS);
  const created = at ?? new Date(START + day * DAY_MS + edge);
  const amountFen = (1 + rnd.int(200)) * 10 * (kind === 'payment' ? -1 : 1);
  const id = `money-txn-${ref}`;
  await db().insert(ledgerTxns).values({ id, kind, ref, orderId, created });
  const line = { id: `${id}-r`, account: ledgerAccount.revenue(bucketId), kind, orderId, amountFen, currency, created };
  lines.push(line);
  await db()
    .insert(ledgerEntries)
    .values([
      { id: line.id, txnId: id, account: line.account, amountFen, currency, created },
      { id: `${id}-c`, txnId: id, account: ledgerAccount.cashWeixin, amountFen: -amountFen, currency, created },
    ]);
}

interface Ask {
  bucketIds: string[];
  from: string;
  to: string;
  modality?: string;
}

/** The lines of a request, newest first. */
function linesOf(q: Ask, currency?: Currency): Line[] {
  const start = Date.parse(`${q.from}T00:00:00+08:00`);
  const end = Date.parse(`${q.to}T00:00:00+08:00`) + DAY_MS;
  const accounts = new Set(q.bucketIds.map((id) => ledgerAccount.revenue(id)));
  return lines
    .filter((l) => accounts.has(l.account) && (KINDS as readonly string[]).includes(l.kind))
    .filter((l) => l.created.getTime() >= start && l.created.getTime() < end)
    .filter((l) => !currency || l.currency === currency)
    .filter((l) => !q.modality || (l.orderId !== null && orderById.get(l.orderId)!.modality === q.modality))
    .sort((x, y) => y.created.getTime() - x.created.getTime() || (x.id < y.id ? 1 : -1));
}

type Values = { orders: number; paidFen: number; refundedFen: number; creditedFen: number; netFen: number };
function sums(ls: readonly Line[]): Values {
  const sum = (kind: string) => ls.filter((l) => l.kind === kind).reduce((s, l) => s + l.amountFen, 0);
  const paidFen = 0 - sum('payment');
  const [refundedFen, creditedFen] = [sum('refund'), sum('sla_credit')];
  const paid = new Set(ls.filter((l) => l.kind === 'payment' && l.orderId !== null).map((l) => l.orderId));
  return { orders: paid.size, paidFen, refundedFen, creditedFen, netFen: paidFen - refundedFen - creditedFen };
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) out.set(key(x), [...(out.get(key(x)) ?? []), x]);
  return out;
}

/** statistics/group-payment by the rules, in the comparable shape. */
function expected(q: Ask, by: 'bucket' | 'product', interval: StatInterval, currency: Currency) {
  const ls = linesOf(q, currency);
  const product = (l: Line) => (l.orderId ? orderById.get(l.orderId)! : null);
  const key = (l: Line) => (by === 'bucket' ? l.account.slice('revenue:'.length) : (product(l)?.productKey ?? 'name:'));
  const label = (l: Line) => (by === 'bucket' ? '' : (product(l)?.productLabel ?? ''));
  const rows = Object.fromEntries(
    [...groupBy(ls, key)].map(([k, g]) => [k, { label: g.map(label).sort().at(-1)!, values: sums(g) }]),
  );
  const periods = Object.fromEntries(
    [...groupBy(ls, (l) => periodOf(hospitalDay(l.created), interval))].map(([p, g]) => [p, sums(g)]),
  );
  return { columns: Object.keys(sums([])), rows, periods, totals: sums(ls) };
}

function randomAsk(): Ask {
  const first = rnd.int(100);
  const day = (n: number) => hospitalDay(new Date(START + n * DAY_MS));
  const scopes = [[a], [b], [a, b], [a, b, other], [other]];
  const modality = rnd.int(4) === 0 ? rnd.pick(['CT', 'MR']) : undefined;
  return {
    bucketIds: rnd.pick(scopes),
    from: day(first),
    to: day(first + rnd.int(40)),
    ...(modality ? { modality } : {}),
  };
}

describe('money statistics against the rules', () => {
  it('group-payment: rows, periods and totals of the revenue lines', async () => {
    const asks: Ask[] = [{ bucketIds: [a, b], from: '2026-01-20', to: '2026-06-30' }];
    for (let i = 0; i < 24; i++) asks.push(randomAsk());
    for (const [i, q] of asks.entries()) {
      const by = i % 2 === 0 ? 'bucket' : 'product';
      const interval = rnd.pick<StatInterval>(['day', 'week', 'month', 'year']);
      const currency: Currency = i % 5 === 4 ? 'USD' : 'CNY';
      const req = dayRequest({ kind: 'group-payment', by, interval, ...q });
      const got = await groupPaymentBoth(req, currency);
      expect(got, JSON.stringify({ q, by, interval, currency })).toEqual(expected(q, by, interval, currency));
    }
    // the whole period counts each kind of line
    const all = linesOf({ bucketIds: [a, b], from: '2026-01-20', to: '2026-06-30' });
    expect(new Set(all.map((l) => l.kind))).toEqual(new Set(KINDS));
  });

  it('billings: the page newest first, how many lines, their sums per currency', async () => {
    for (let i = 0; i < 16; i++) {
      const q = i === 0 ? { bucketIds: [a, b, other], from: '2026-01-20', to: '2026-06-30' } : randomAsk();
      const f = dayRequest({ kind: 'group-payment', by: 'bucket', interval: 'month', ...q });
      const all = linesOf(q);
      const page = { skip: rnd.pick([0, 0, 1, 7, 30]), limit: rnd.pick([1, 5, 20]) };
      const [got, totals] = [await billingLines(db(), f, page), await billingSumsBoth(f)];
      expect(
        got.map((l) => [new Date(l.at).getTime(), l.kind, l.orderId, l.bucketId, Number(l.amountFen), l.currency]),
      ).toEqual(
        all
          .slice(page.skip, page.skip + page.limit)
          .map((l) => [
            l.created.getTime(),
            l.kind,
            l.orderId,
            l.account.slice('revenue:'.length),
            Math.abs(l.amountFen),
            l.currency,
          ]),
      );
      expect(totals.total).toBe(all.length);
      const byCurrency = [...groupBy(all, (l) => l.currency)].sort(([x], [y]) => (x < y ? -1 : 1));
      expect(
        totals.sums.map((s) => ({
          currency: s.currency,
          paidFen: Number(s.paidFen),
          refundedFen: Number(s.refundedFen),
          creditedFen: Number(s.creditedFen),
        })),
      ).toEqual(
        byCurrency.map(([currency, g]) => {
          const { paidFen, refundedFen, creditedFen } = sums(g);
          return { currency, paidFen, refundedFen, creditedFen };
        }),
      );
    }
  });
});

describe('stat_revenue_lines (the trigger on ledger_entries)', () => {
  /** What the table must hold: each revenue line of the three kinds; multi on the payment lines of orders with more than one. */
  async function drift() {
    const payments = new Map<string, number>();
    for (const l of lines) {
      if (l.kind === 'payment' && l.orderId) payments.set(l.orderId, (payments.get(l.orderId) ?? 0) + 1);
    }
    const want = lines
      .filter((l) => (KINDS as readonly string[]).includes(l.kind))
      .map((l) => ({
        id: l.id,
        account: l.account,
        created: l.created.getTime(),
        day: hospitalDay(l.created),
        currency: l.currency,
        kind: l.kind,
        amountFen: l.amountFen,
        orderId: l.orderId,
        multi: l.kind === 'payment' && (payments.get(l.orderId ?? '') ?? 0) > 1,
      }))
      .sort((x, y) => (x.id < y.id ? -1 : 1));
    const got = (await db().select().from(statRevenueLines))
      .map((r) => ({ ...r, created: r.created.getTime() }))
      .sort((x, y) => (x.id < y.id ? -1 : 1));
    return { got, want };
  }

  it('holds every revenue line of a payment, refund or credit, with multi on the orders paid twice', async () => {
    const { got, want } = await drift();
    expect(got).toEqual(want);
    expect(got.filter((r) => r.multi).map((r) => r.orderId)).toEqual(
      expect.arrayContaining(['money-order-twice', 'money-order-twice', 'money-order-bulk', 'money-order-bulk']),
    );
  });

  it('two transactions paying one order at once both mark it; a deleted transaction takes its line', async () => {
    await newOrder('money-order-race', a, b, 'CT');
    const at = new Date(START + 5 * DAY_MS);
    const pay = (ref: string, wait: number) =>
      db().transaction(async (tx) => {
        await tx
          .insert(ledgerTxns)
          .values({ id: `money-txn-${ref}`, kind: 'payment', ref, orderId: 'money-order-race', created: at });
        const line = {
          id: `money-txn-${ref}-r`,
          txnId: `money-txn-${ref}`,
          account: ledgerAccount.revenue(b),
          amountFen: -500,
          currency: 'CNY',
          created: at,
        };
        await tx.insert(ledgerEntries).values(line);
        await new Promise((r) => setTimeout(r, wait));
        lines.push({ ...line, kind: 'payment', orderId: 'money-order-race', currency: 'CNY' });
      });
    // the first holds its transaction open while the second writes (on PostgreSQL: it waits)
    const first = pay('race-1', 300);
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all([first, pay('race-2', 0)]);
    // the February payment of the order paid twice is cancelled: April's stays multi, counted once
    await db()
      .delete(ledgerTxns)
      .where(inArray(ledgerTxns.id, ['money-txn-twice-1']));
    lines.splice(
      lines.findIndex((l) => l.id === 'money-txn-twice-1-r'),
      1,
    );
    const { got, want } = await drift();
    expect(got.filter((r) => r.orderId === 'money-order-race').map((r) => r.multi)).toEqual([true, true]);
    expect(got.find((r) => r.id === 'money-txn-twice-2-r')?.multi).toBe(true);
    expect(got).toEqual(want.map((w) => (w.id === 'money-txn-twice-2-r' ? { ...w, multi: true } : w)));
    const q = { bucketIds: [a, b], from: '2026-01-20', to: '2026-06-30' };
    const req = dayRequest({ kind: 'group-payment', by: 'bucket', interval: 'month', ...q });
    expect(await groupPaymentBoth(req, 'CNY')).toEqual(expected(q, 'bucket', 'month', 'CNY'));
  });
});

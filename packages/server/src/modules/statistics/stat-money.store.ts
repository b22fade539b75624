import { ledgerAccount, type Currency, type StatColumn } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { anyOf, firstModality, instant, shapeSets, type SetsLine } from './stat-desk-sets.store.js';
import { periodSql, withinMarkedDay, type MarkedDays } from './stat-periods.store.js';

/**
 * Income (charge_details_stats) from the billing ledger: the lines of the organizations' revenue
 * accounts (revenue:<bucketId>, the ledger face's postings: a payment credits it, a refund and a
 * turnaround credit debit it), by the time each was posted. An organization's income is what it
 * earned as the expert organization (orders of every type, a consultation's fee included); nothing
 * posted is zero. Top-ups and plan packages never touch a revenue account. The lines are
 * stat_revenue_lines (alias l), the ledger's revenue entries of those three kinds with their
 * transaction's kind and order and their hospital day (migration 0051 keeps it); their sums per
 * organization, day, currency, product and modality are the rollup stat_revenue (migration 0056),
 * rebuilt for the marked days (recountRevenue) before a statistic reads it.
 */
const REVENUE = 'revenue:'.length + 1;
export const MONEY_COLUMNS: StatColumn[] = ['orders', 'paidFen', 'refundedFen', 'creditedFen', 'netFen'];
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

export interface LinesFilter {
  bucketIds: readonly string[];
  /** hospital days (UTC+8), both included */
  from: string;
  to: string;
  /** the same period as instants: start ≤ t < end */
  start: Date;
  end: Date;
  /** the lines of orders on an exam of this modality (its first item) */
  modality?: string | undefined;
}

/** The revenue lines of the request's organizations in its period. */
export function linesWhere(f: LinesFilter, currency?: Currency): SQL {
  const accounts = f.bucketIds.map((id) => ledgerAccount.revenue(id));
  const modality = f.modality
    ? sql`and exists (select 1 from orders mo join exams me on me.id = mo.exam_id
        where mo.id = l.order_id and ${firstModality(sql`me.modality`)} = ${f.modality})`
    : sql``;
  return sql`${anyOf(sql`l.account`, accounts)} and l.created >= ${instant(f.start)} and l.created < ${instant(f.end)}
    ${currency ? sql`and l.currency = ${currency}` : sql``} ${modality}`;
}

/** A line's product key: its order's product, or the order's product name ('name:' without an order). */
const productKey = sql`coalesce(o.product_id, 'name:' || coalesce(o.product_name, ''))`;

/**
 * The statements that rebuild stat_revenue for the marked days (a relation g(bucket_id, day), in
 * the refresh's transaction), from the lines of each organization's revenue account on that day.
 */
export function recountRevenue(days: MarkedDays): SQL[] {
  const g = days.g;
  return [
    sql`delete from stat_revenue t using ${g} where t.bucket_id = g.bucket_id and t.day = g.day`,
    sql`insert into stat_revenue (bucket_id, day, currency, product_key, modality, product_name, lines, single,
        paid, refunded, credited, net)
      select g.bucket_id, g.day, l.currency, ${productKey}, coalesce(${firstModality(sql`e.modality`)}, ''),
        max(coalesce(o.product_name, '')), count(*),
        count(*) filter (where l.kind = 'payment' and l.order_id is not null and not l.multi),
        coalesce(-sum(l.amount_fen) filter (where l.kind = 'payment'), 0),
        coalesce(sum(l.amount_fen) filter (where l.kind = 'refund'), 0),
        coalesce(sum(l.amount_fen) filter (where l.kind = 'sla_credit'), 0),
        -sum(l.amount_fen)
      from ${g}
      join buckets b on b.id = g.bucket_id
      join stat_revenue_lines l on l.account = 'revenue:' || g.bucket_id and l.day = g.day
        and ${withinMarkedDay(sql`l.created`, days)}
      left join orders o on o.id = l.order_id
      left join exams e on e.id = o.exam_id
      group by g.bucket_id, g.day, l.currency, 4, 5`,
  ];
}

/** The rollup's rows of a filter's organizations and days (alias r). */
function rollupWhere(f: LinesFilter): SQL {
  return sql`${anyOf(sql`r.bucket_id`, f.bucketIds)} and r.day >= ${f.from}::date and r.day <= ${f.to}::date
    ${f.modality ? sql`and r.modality = ${f.modality}` : sql``}`;
}

/**
 * statistics/group-payment: by organization or product, orders paid (a paid order counted once, a
 * duplicate payment of it too), paid, refunded, credited and net (paid − refunded − credited) in
 * fen of one currency (CNY unless the query names USD: sums of two currencies are never added);
 * with a modality, the lines of orders on an exam of that modality. A line is on one account and of
 * one order, so it counts for one key: rows, periods and the total are sums of the rollup's days.
 * An order counts once in each of them where it has a payment line: one whose only payment line it
 * is (not multi) is in the rollup's single; the few orders paid more than once are counted distinct
 * from their own lines (multi, read from stat_revenue_lines) and added. The caller has recounted
 * the organizations' marked days (refreshRollups). The count straight from the lines
 * (stat-money-direct.fixture.ts) answers the same: stat-revenue-rollup.int.test.ts.
 */
export async function groupPaymentStats(db: Db, req: StatRequest, currency: Currency): Promise<StatResult> {
  const byBucket = req.by === 'bucket';
  const g = sql`case when grouping(k) = 0 then 'k' when grouping(p) = 0 then 'p' else 't' end`;
  const rolled = byBucket
    ? sql`select r.bucket_id as k, '' as label, r.day, r.single, r.paid, r.refunded, r.credited, r.net
        from stat_revenue r where ${rollupWhere(req)} and r.currency = ${currency}`
    : sql`select r.product_key as k, coalesce(pr.name, r.product_name) as label, r.day, r.single, r.paid,
          r.refunded, r.credited, r.net
        from stat_revenue r left join products pr on pr.id = r.product_key
        where ${rollupWhere(req)} and r.currency = ${currency}`;
  const multiKey = byBucket ? sql.raw(`substr(l.account, ${REVENUE})`) : productKey;
  const multiProduct = byBucket ? sql`` : sql`left join orders o on o.id = l.order_id`;
  const result = await db.execute(sql`
    select g, k, max(label) as label, p, coalesce(sum(orders), 0) as "orders",
      coalesce(sum(paid), 0) as "paidFen", coalesce(sum(refunded), 0) as "refundedFen",
      coalesce(sum(credited), 0) as "creditedFen", coalesce(sum(net), 0) as "netFen"
    from (
      select ${g} as g, k, max(label) as label, p, sum(single) as orders, sum(paid) as paid,
        sum(refunded) as refunded, sum(credited) as credited, sum(net) as net
      from (select k, label, ${periodSql(sql`day`, req.interval)} as p, single, paid, refunded, credited, net
        from (${rolled}) d) x
      group by grouping sets ((k), (p), ())
      union all
      select ${g}, k, '', p, count(distinct order_id), null, null, null, null
      from (
        select ${multiKey} as k, ${periodSql(sql`l.day`, req.interval)} as p, l.order_id as order_id
        from stat_revenue_lines l ${multiProduct}
        where l.multi and l.kind = 'payment' and ${linesWhere(req, currency)}
      ) m
      group by grouping sets ((k), (p), ())
    ) u
    group by g, k, p`);
  return { ...shapeSets(rowsOf<SetsLine>(result), MONEY_COLUMNS), currency };
}

export interface BillingLine {
  at: Date | string;
  kind: 'payment' | 'refund' | 'sla_credit';
  orderId: string | null;
  orderNo: string;
  bucketId: string;
  bucketName: string;
  counterpart: string;
  product: string;
  channel: string;
  amountFen: string | number;
  currency: string;
}

/**
 * statistics/billings: the revenue lines of the organizations in the period, newest first, with
 * the order, the paying organization (counterpart), the product and the channel the money moved
 * by (a payment's, a refund's payment's; a turnaround credit goes to the buyer's balance: credit).
 */
export async function billingLines(
  db: Db,
  f: LinesFilter,
  page: { skip: number; limit: number },
): Promise<BillingLine[]> {
  const accounts = textArrayLiteral(f.bucketIds.map((id) => ledgerAccount.revenue(id)));
  // Each account's newest lines from its index (account, created, id), as far as the page needs,
  // then merged (one sort of a year of a group's lines spilled to disk at the bench); the page's
  // lines then find their transaction for its reference.
  const result = await db.execute(sql`
      select x.created as "at", t.kind as "kind", t.order_id as "orderId", coalesce(o.order_no, '') as "orderNo",
        substr(x.account, ${sql.raw(String(REVENUE))}) as "bucketId", coalesce(b.name, '') as "bucketName",
        coalesce(rb.name, '') as "counterpart", coalesce(o.product_name, '') as "product",
        coalesce(p.channel, rp.channel, case when t.kind = 'sla_credit' then 'credit' end, o.channel, '') as "channel",
        abs(x.amount_fen) as "amountFen", x.currency as "currency"
      from (select distinct unnest(${accounts}::text[]) as account) sa
      cross join lateral (
        select l.id, l.account, l.created, l.amount_fen, l.currency
        from stat_revenue_lines l
        where l.account = sa.account and ${linesWhere(f)}
        order by l.created desc, l.id desc
        limit ${page.skip + page.limit}
      ) x
      join ledger_entries e on e.id = x.id
      join ledger_txns t on t.id = e.txn_id
      left join orders o on o.id = t.order_id
      left join buckets b on b.id = substr(x.account, ${sql.raw(String(REVENUE))})
      left join buckets rb on rb.id = o.request_bucket_id
      left join payments p on t.kind = 'payment' and p.payment_no = t.ref
      left join refunds r on t.kind = 'refund' and r.refund_no = t.ref
      left join payments rp on rp.id = r.payment_id
      order by x.created desc, x.id desc
      limit ${page.limit} offset ${page.skip}`);
  return rowsOf<BillingLine>(result);
}

export interface BillingSum {
  currency: string;
  paidFen: string | number;
  refundedFen: string | number;
  creditedFen: string | number;
}

/**
 * How many lines there are and their sums per currency (a currency with no line is left out), from
 * the rollup (the caller has recounted the organizations' marked days).
 */
export async function billingSums(db: Db, f: LinesFilter): Promise<{ total: number; sums: BillingSum[] }> {
  const result = await db.execute(sql`
    select r.currency as "currency", sum(r.lines)::int as "lines", sum(r.paid) as "paidFen",
      sum(r.refunded) as "refundedFen", sum(r.credited) as "creditedFen"
    from stat_revenue r
    where ${rollupWhere(f)}
    group by r.currency having sum(r.lines) > 0 order by r.currency`);
  return billingSumsOf(result);
}

/** The billings' count and sums from rows (currency, lines, paidFen, refundedFen, creditedFen) per currency. */
export function billingSumsOf(result: unknown): { total: number; sums: BillingSum[] } {
  const rows = rowsOf<BillingSum & { lines: number }>(result);
  return {
    total: rows.reduce((n, r) => n + Number(r.lines), 0),
    sums: rows.map(({ currency, paidFen, refundedFen, creditedFen }) => ({
      currency,
      paidFen,
      refundedFen,
      creditedFen,
    })),
  };
}

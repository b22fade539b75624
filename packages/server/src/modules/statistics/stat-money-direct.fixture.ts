import { type Currency } from '@yyp/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { shapeSets, type SetsLine } from './stat-desk-sets.store.js';
import { periodSql } from './stat-periods.store.js';
import { billingSumsOf, linesWhere, MONEY_COLUMNS, type BillingSum, type LinesFilter } from './stat-money.store.js';

/*
 * statistics/group-payment and the billings' sums counted straight from the revenue lines (test
 * support: the rollup's oracle, stat-revenue-rollup.int.test.ts; the statistics themselves read
 * stat_revenue, stat-money.store.ts).
 */
const REVENUE = 'revenue:'.length + 1;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * statistics/group-payment: by organization or product, orders paid (a paid order counted once, a
 * duplicate payment of it too), paid, refunded, credited and net (paid − refunded − credited) in
 * fen of one currency (CNY unless the query names USD: sums of two currencies are never added);
 * with a modality, the lines of orders on an exam of that modality. A line is on one account and of
 * one order, so it counts for one key: rows, periods and the total are sums of the lines per key
 * and day. An order counts once in each of them where it has a payment line: one whose only
 * payment line it is (not multi) is a sum too; the few orders paid more than once are counted
 * distinct from their own lines (multi) and added.
 */
export async function groupPaymentDirect(db: Db, req: StatRequest, currency: Currency): Promise<StatResult> {
  const byBucket = req.by === 'bucket';
  const key = byBucket
    ? sql.raw(`substr(l.account, ${REVENUE})`)
    : sql`coalesce(o.product_id, 'name:' || coalesce(o.product_name, ''))`;
  const label = byBucket ? sql`''` : sql`coalesce(pr.name, o.product_name, '')`;
  const product = byBucket
    ? sql``
    : sql`left join orders o on o.id = l.order_id left join products pr on pr.id = o.product_id`;
  const where = linesWhere(req, currency);
  const g = sql`case when grouping(k) = 0 then 'k' when grouping(p) = 0 then 'p' else 't' end`;
  const result = await db.execute(sql`
    select g, k, max(label) as label, p, coalesce(sum(orders), 0) as "orders",
      coalesce(sum(paid), 0) as "paidFen", coalesce(sum(refunded), 0) as "refundedFen",
      coalesce(sum(credited), 0) as "creditedFen", coalesce(sum(net), 0) as "netFen"
    from (
      select ${g} as g, k, max(label) as label, p, sum(single) as orders, sum(paid) as paid,
        sum(refunded) as refunded, sum(credited) as credited, sum(net) as net
      from (
        select k, label, ${periodSql(sql`day`, req.interval)} as p, single, paid, refunded, credited, net
        from (
          select ${key} as k, max(${label}) as label, l.day as day,
            count(*) filter (where l.kind = 'payment' and l.order_id is not null and not l.multi) as single,
            -sum(l.amount_fen) filter (where l.kind = 'payment') as paid,
            sum(l.amount_fen) filter (where l.kind = 'refund') as refunded,
            sum(l.amount_fen) filter (where l.kind = 'sla_credit') as credited,
            -sum(l.amount_fen) as net
          from stat_revenue_lines l ${product}
          where ${where}
          group by 1, l.day
        ) d
      ) x
      group by grouping sets ((k), (p), ())
      union all
      select ${g}, k, '', p, count(distinct order_id), null, null, null, null
      from (
        select ${key} as k, ${periodSql(sql`l.day`, req.interval)} as p, l.order_id as order_id
        from stat_revenue_lines l ${product}
        where l.multi and l.kind = 'payment' and ${where}
      ) m
      group by grouping sets ((k), (p), ())
    ) u
    group by g, k, p`);
  return { ...shapeSets(rowsOf<SetsLine>(result), MONEY_COLUMNS), currency };
}

/**
 * How many lines there are and their sums per currency (a currency with no line is left out), in
 * one pass over the lines.
 */
export async function billingSumsDirect(db: Db, f: LinesFilter): Promise<{ total: number; sums: BillingSum[] }> {
  const result = await db.execute(sql`
    select l.currency as "currency", count(*)::int as "lines",
      coalesce(-sum(l.amount_fen) filter (where l.kind = 'payment'), 0) as "paidFen",
      coalesce(sum(l.amount_fen) filter (where l.kind = 'refund'), 0) as "refundedFen",
      coalesce(sum(l.amount_fen) filter (where l.kind = 'sla_credit'), 0) as "creditedFen"
    from stat_revenue_lines l
    where ${linesWhere(f)}
    group by l.currency order by l.currency`);
  return billingSumsOf(result);
}

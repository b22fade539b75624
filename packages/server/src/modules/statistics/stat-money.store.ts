import { ledgerAccount, type Currency } from '@yyp/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { textArrayLiteral } from '../../platform/sql.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { anyOf, firstModality, instant, statSets } from './stat-desk-sets.store.js';

/**
 * Income (charge_details_stats) from the billing ledger: the lines of the organizations' revenue
 * accounts (revenue:<bucketId>, the ledger face's postings: a payment credits it, a refund and a
 * turnaround credit debit it), by the time each was posted. An organization's income is what it
 * earned as the expert organization (orders of every type, a consultation's fee included); nothing
 * posted is zero. Top-ups and plan packages never touch a revenue account.
 */
const KINDS = sql`('payment', 'refund', 'sla_credit')`;
const REVENUE = 'revenue:'.length + 1;

export interface LinesFilter {
  bucketIds: readonly string[];
  start: Date;
  end: Date;
  /** the lines of orders on an exam of this modality (its first item) */
  modality?: string | undefined;
}

/** The revenue lines of the request's organizations in its period (alias e: entries, t: txns). */
function linesWhere(f: LinesFilter, currency?: Currency): SQL {
  const accounts = f.bucketIds.map((id) => ledgerAccount.revenue(id));
  const modality = f.modality
    ? sql`and exists (select 1 from orders mo join exams me on me.id = mo.exam_id
        where mo.id = t.order_id and ${firstModality(sql`me.modality`)} = ${f.modality})`
    : sql``;
  return sql`${anyOf(sql`e.account`, accounts)} and e.created >= ${instant(f.start)} and e.created < ${instant(f.end)}
    and t.kind in ${KINDS} ${currency ? sql`and e.currency = ${currency}` : sql``} ${modality}`;
}

/**
 * statistics/group-payment: by organization or product, orders paid (a paid order counted once, a
 * duplicate payment of it too), paid, refunded, credited and net (paid − refunded − credited) in
 * fen of one currency (CNY unless the query names USD: sums of two currencies are never added);
 * with a modality, the lines of orders on an exam of that modality.
 */
export async function groupPaymentStats(db: Db, req: StatRequest, currency: Currency): Promise<StatResult> {
  const key =
    req.by === 'bucket'
      ? sql.raw(`substr(e.account, ${REVENUE})`)
      : sql`coalesce(o.product_id, 'name:' || coalesce(o.product_name, ''))`;
  const label =
    req.by === 'bucket'
      ? sql`''`
      : sql`coalesce((select p.name from products p where p.id = o.product_id), o.product_name, '')`;
  const result = await statSets(db, {
    pairs: sql`
      select ${key} as k, ${label} as label, e.id as id, e.created as at, 'a' as side,
        t.kind as kind, e.amount_fen as amount, t.order_id as order_id
      from ledger_entries e
      join ledger_txns t on t.id = e.txn_id
      left join orders o on o.id = t.order_id
      where ${linesWhere(req, currency)}`,
    fields: ['kind', 'amount', 'order_id'],
    interval: req.interval,
    columns: ['orders', 'paidFen', 'refundedFen', 'creditedFen', 'netFen'],
    aggs: {
      orders: "count(distinct order_id) filter (where kind = 'payment')",
      paidFen: "coalesce(-sum(amount) filter (where kind = 'payment'), 0)",
      refundedFen: "coalesce(sum(amount) filter (where kind = 'refund'), 0)",
      creditedFen: "coalesce(sum(amount) filter (where kind = 'sla_credit'), 0)",
      netFen: 'coalesce(-sum(amount), 0)',
    },
  });
  return { ...result, currency };
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

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * statistics/billings: the revenue lines of the organizations in the period, newest first, with
 * the order, the paying organization (counterpart), the product and the channel the money moved
 * by (a payment's, a refund's payment's; a turnaround credit goes to the buyer's balance: credit).
 */
export async function billingLines(
  db: Db,
  f: LinesFilter,
  page: { skip: number; limit: number },
): Promise<{ lines: BillingLine[]; total: number }> {
  const where = linesWhere(f);
  const accounts = textArrayLiteral(f.bucketIds.map((id) => ledgerAccount.revenue(id)));
  // Each account's newest lines from its index (account, created, id), as far as the page needs,
  // then merged: one sort of a year of a group's lines spilled to disk at the bench.
  const [list, count] = await Promise.all([
    db.execute(sql`
      select x.created as "at", t.kind as "kind", t.order_id as "orderId", coalesce(o.order_no, '') as "orderNo",
        substr(x.account, ${sql.raw(String(REVENUE))}) as "bucketId", coalesce(b.name, '') as "bucketName",
        coalesce(rb.name, '') as "counterpart", coalesce(o.product_name, '') as "product",
        coalesce(p.channel, rp.channel, case when t.kind = 'sla_credit' then 'credit' end, o.channel, '') as "channel",
        abs(x.amount_fen) as "amountFen", x.currency as "currency"
      from (select distinct unnest(${accounts}::text[]) as account) sa
      cross join lateral (
        select e.id, e.txn_id, e.account, e.created, e.amount_fen, e.currency
        from ledger_entries e
        join ledger_txns t on t.id = e.txn_id
        where e.account = sa.account and ${where}
        order by e.created desc, e.id desc
        limit ${page.skip + page.limit}
      ) x
      join ledger_txns t on t.id = x.txn_id
      left join orders o on o.id = t.order_id
      left join buckets b on b.id = substr(x.account, ${sql.raw(String(REVENUE))})
      left join buckets rb on rb.id = o.request_bucket_id
      left join payments p on t.kind = 'payment' and p.payment_no = t.ref
      left join refunds r on t.kind = 'refund' and r.refund_no = t.ref
      left join payments rp on rp.id = r.payment_id
      order by x.created desc, x.id desc
      limit ${page.limit} offset ${page.skip}`),
    db.execute(sql`
      select count(*)::int as n from ledger_entries e join ledger_txns t on t.id = e.txn_id where ${where}`),
  ]);
  return { lines: rowsOf<BillingLine>(list), total: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0) };
}

export interface BillingSum {
  currency: string;
  paidFen: string | number;
  refundedFen: string | number;
  creditedFen: string | number;
}

/** The sums of the same lines per currency (a currency with no line is left out). */
export async function billingSums(db: Db, f: LinesFilter): Promise<BillingSum[]> {
  const result = await db.execute(sql`
    select e.currency as "currency",
      coalesce(-sum(e.amount_fen) filter (where t.kind = 'payment'), 0) as "paidFen",
      coalesce(sum(e.amount_fen) filter (where t.kind = 'refund'), 0) as "refundedFen",
      coalesce(sum(e.amount_fen) filter (where t.kind = 'sla_credit'), 0) as "creditedFen"
    from ledger_entries e join ledger_txns t on t.id = e.txn_id
    where ${linesWhere(f)}
    group by e.currency order by e.currency`);
  return rowsOf<BillingSum>(result);
}

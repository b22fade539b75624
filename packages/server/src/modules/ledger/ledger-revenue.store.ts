import { EARNINGS_UTC_OFFSET_MINUTES, type Currency, type LedgerKind } from '@yyp/contracts';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { ledgerEntries, ledgerTxns } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** One account's signed sums per China-time month, order, kind and currency (earnings statements). */
export interface AccountMonthSum {
  month: string;
  orderId: string | null;
  kind: LedgerKind;
  currency: Currency;
  sumFen: number;
  /** the first line's time */
  first: Date;
}

// created is timestamptz: read as UTC wall time, then shifted to China time (no daylight saving),
// so the month does not depend on the session's time zone.
const month = sql<string>`to_char((${ledgerEntries.created} at time zone 'UTC') + interval '${sql.raw(
  String(EARNINGS_UTC_OFFSET_MINUTES),
)} minutes', 'YYYY-MM')`;

/** The account's lines with from ≤ created < to, summed per month, order, kind and currency. */
export async function accountMonthSums(
  db: Db,
  f: { account: string; from: Date; to: Date },
): Promise<AccountMonthSum[]> {
  const rows = await db
    .select({
      month,
      orderId: ledgerTxns.orderId,
      kind: ledgerTxns.kind,
      currency: ledgerEntries.currency,
      sum: sql<string>`sum(${ledgerEntries.amountFen})`,
      first: sql<Date>`min(${ledgerEntries.created})`.mapWith(ledgerEntries.created),
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTxns, eq(ledgerTxns.id, ledgerEntries.txnId))
    .where(
      and(eq(ledgerEntries.account, f.account), gte(ledgerEntries.created, f.from), lt(ledgerEntries.created, f.to)),
    )
    .groupBy(month, ledgerTxns.orderId, ledgerTxns.kind, ledgerEntries.currency);
  return rows.map((r) => ({
    month: r.month,
    orderId: r.orderId,
    kind: r.kind as LedgerKind,
    currency: r.currency as Currency,
    sumFen: Number(r.sum),
    first: r.first,
  }));
}

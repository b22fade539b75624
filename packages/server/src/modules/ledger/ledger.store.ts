import type { Currency, LedgerEntry, LedgerKind, LedgerLine } from '@yyp/contracts';
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { ledgerEntries, ledgerTxns } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The advisory-lock namespace of group credit spends (the second key is the group id's hash). */
const GROUP_CREDIT_LOCK = 727_024;

export interface TxnRowInput {
  id: string;
  kind: LedgerKind;
  ref: string;
  groupId: string | null;
  orderId: string | null;
  memo: string;
  actorId: string | null;
  created: Date;
}

/** Inserts the txn unless (kind, ref) is posted; a concurrent duplicate waits on the unique index. */
export async function insertTxnOnce(db: Db, row: TxnRowInput): Promise<boolean> {
  const inserted = await db
    .insert(ledgerTxns)
    .values(row)
    .onConflictDoNothing({ target: [ledgerTxns.kind, ledgerTxns.ref] })
    .returning({ id: ledgerTxns.id });
  return inserted.length > 0;
}

export async function txnIdOf(db: Db, kind: LedgerKind, ref: string): Promise<string | undefined> {
  const rows = await db
    .select({ id: ledgerTxns.id })
    .from(ledgerTxns)
    .where(and(eq(ledgerTxns.kind, kind), eq(ledgerTxns.ref, ref)));
  return rows[0]?.id;
}

export async function insertEntries(db: Db, txnId: string, lines: readonly LedgerLine[], created: Date): Promise<void> {
  await db.insert(ledgerEntries).values(
    lines.map((l) => ({
      id: crypto.randomUUID(),
      txnId,
      account: l.account,
      amountFen: l.amountFen,
      currency: l.currency,
      created,
    })),
  );
}

/** The raw signed sum of an account in a currency (bigint sums come back as text). */
export async function sumOf(db: Db, account: string, currency: Currency): Promise<number> {
  const rows = await db
    .select({ sum: sql<string | null>`sum(${ledgerEntries.amountFen})` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.account, account), eq(ledgerEntries.currency, currency)));
  return Number(rows[0]?.sum ?? 0);
}

const entryColumns = {
  txnId: ledgerEntries.txnId,
  account: ledgerEntries.account,
  amountFen: ledgerEntries.amountFen,
  currency: ledgerEntries.currency,
  kind: ledgerTxns.kind,
  ref: ledgerTxns.ref,
  orderId: ledgerTxns.orderId,
  memo: ledgerTxns.memo,
  created: ledgerEntries.created,
  id: ledgerEntries.id,
};
type EntrySelect = { [K in keyof typeof entryColumns]: unknown } & { created: Date };

function toEntry(r: EntrySelect): LedgerEntry {
  return {
    txnId: r.txnId as string,
    account: r.account as string,
    amountFen: Number(r.amountFen),
    currency: r.currency as Currency,
    kind: r.kind as LedgerKind,
    ref: r.ref as string,
    orderId: (r.orderId as string | null) ?? null,
    memo: r.memo as string,
    created: r.created.toISOString(),
  };
}

export async function entriesOfOrder(db: Db, orderId: string): Promise<LedgerEntry[]> {
  const rows = await db
    .select(entryColumns)
    .from(ledgerEntries)
    .innerJoin(ledgerTxns, eq(ledgerTxns.id, ledgerEntries.txnId))
    .where(eq(ledgerTxns.orderId, orderId))
    .orderBy(asc(ledgerEntries.created), asc(ledgerTxns.kind), asc(ledgerEntries.amountFen));
  return rows.map(toEntry);
}

export interface StatementFilter {
  account: string;
  currency?: Currency | undefined;
  kinds?: readonly LedgerKind[] | undefined;
  /** created ≥ from */
  from?: Date | undefined;
  /** created < to */
  to?: Date | undefined;
}

function statementWhere(f: StatementFilter): SQL | undefined {
  return and(
    eq(ledgerEntries.account, f.account),
    f.currency ? eq(ledgerEntries.currency, f.currency) : undefined,
    f.kinds?.length ? inArray(ledgerTxns.kind, [...f.kinds]) : undefined,
    f.from ? gte(ledgerEntries.created, f.from) : undefined,
    f.to ? lt(ledgerEntries.created, f.to) : undefined,
  );
}

/** An account's lines, newest first. */
export async function statementPage(
  db: Db,
  f: StatementFilter,
  page: { limit: number; offset: number },
): Promise<LedgerEntry[]> {
  const rows = await db
    .select(entryColumns)
    .from(ledgerEntries)
    .innerJoin(ledgerTxns, eq(ledgerTxns.id, ledgerEntries.txnId))
    .where(statementWhere(f))
    .orderBy(desc(ledgerEntries.created), desc(ledgerEntries.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(toEntry);
}

export async function statementCount(db: Db, f: StatementFilter): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ledgerEntries)
    .innerJoin(ledgerTxns, eq(ledgerTxns.id, ledgerEntries.txnId))
    .where(statementWhere(f));
  return Number(rows[0]?.n ?? 0);
}

/** The raw signed sums of an account's lines per kind and currency. */
export async function statementSums(
  db: Db,
  f: StatementFilter,
): Promise<{ kind: LedgerKind; currency: Currency; sumFen: number; count: number }[]> {
  const rows = await db
    .select({
      kind: ledgerTxns.kind,
      currency: ledgerEntries.currency,
      sum: sql<string>`sum(${ledgerEntries.amountFen})`,
      n: sql<number>`count(*)::int`,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTxns, eq(ledgerTxns.id, ledgerEntries.txnId))
    .where(statementWhere(f))
    .groupBy(ledgerTxns.kind, ledgerEntries.currency)
    .orderBy(asc(ledgerTxns.kind), asc(ledgerEntries.currency));
  return rows.map((r) => ({
    kind: r.kind as LedgerKind,
    currency: r.currency as Currency,
    sumFen: Number(r.sum),
    count: Number(r.n),
  }));
}

/** Holds the group's credit lock until the transaction ends (a no-op wait on single-connection PGlite). */
export async function advisoryLockGroupCredit(db: Db, groupId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${GROUP_CREDIT_LOCK}, hashtext(${groupId}))`);
}

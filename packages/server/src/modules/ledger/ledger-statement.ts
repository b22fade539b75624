import type { LedgerEntry } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { statementCount, statementPage, statementSums, type StatementFilter } from './ledger.store.js';

export type { StatementFilter };
export { statementSums };

/** One page of an account's lines (newest first) and how many match. */
export async function statement(
  db: Db,
  filter: StatementFilter,
  page: { limit: number; offset: number },
): Promise<{ entries: LedgerEntry[]; count: number }> {
  const entries = await statementPage(db, filter, page);
  return { entries, count: await statementCount(db, filter) };
}

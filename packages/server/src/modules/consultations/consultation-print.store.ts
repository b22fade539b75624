import { and, asc, eq, inArray } from 'drizzle-orm';
import { accounts, buckets, consultationCases, consultationFiles, consultationMembers } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** What the printed conclusion names besides the consultation's own row. */

export async function bucketNamesOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: buckets.id, name: buckets.name })
    .from(buckets)
    .where(inArray(buckets.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function accountNamesOf(db: Db, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((i): i is string => !!i))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: accounts.id, name: accounts.name, username: accounts.username })
    .from(accounts)
    .where(inArray(accounts.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name || r.username]));
}

/** The experts and joiners with their names, experts first, in the order they were named. */
export function membersWithNames(db: Db, consultationId: string) {
  return db
    .select({
      accountId: consultationMembers.accountId,
      role: consultationMembers.role,
      name: accounts.name,
      username: accounts.username,
    })
    .from(consultationMembers)
    .innerJoin(accounts, eq(accounts.id, consultationMembers.accountId))
    .where(eq(consultationMembers.consultationId, consultationId))
    .orderBy(asc(consultationMembers.role), asc(consultationMembers.created), asc(consultationMembers.accountId));
}

/** The case documents with how many completed files each holds. */
export async function casesWithFileCounts(db: Db, consultationId: string) {
  const cases = await db
    .select({ id: consultationCases.id, name: consultationCases.name, type: consultationCases.type })
    .from(consultationCases)
    .where(eq(consultationCases.consultationId, consultationId))
    .orderBy(asc(consultationCases.created), asc(consultationCases.id));
  const files = await db
    .select({ caseId: consultationFiles.caseId })
    .from(consultationFiles)
    .where(and(eq(consultationFiles.consultationId, consultationId), eq(consultationFiles.uploadStatus, 'completed')));
  const counts = new Map<string, number>();
  for (const f of files) if (f.caseId) counts.set(f.caseId, (counts.get(f.caseId) ?? 0) + 1);
  return cases.map((c) => ({ ...c, files: counts.get(c.id) ?? 0 }));
}

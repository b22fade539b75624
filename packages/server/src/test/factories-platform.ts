/**
 * Factories of the platform tests (issue 21 step 5), over test/factories.ts and factories-archive.ts:
 * an app without the demo seed with an organization and its staff (each member holding the actions
 * of the demo role it had, so a test's technician or doctor may do what the seeded one did); and the
 * organization and group rows the tenant-isolation matrix points its routes at (a dictionary item,
 * an assign rule), written through the modules' stores as the seed writes them.
 */
import { and, desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLogs } from '../db/schema.js';
import { insertDictionaryItem } from '../modules/organizations/organizations.store.js';
import { insertAssignRule } from '../modules/rules/rules.store.js';
import { makeStaffed, type StaffName, type Staffed } from './factories-archive.js';
import type { OrganizationOptions } from './factories.js';
import { startTestApp, type TestApp } from './harness.js';

export type StartOptions = Omit<NonNullable<Parameters<typeof startTestApp>[0]>, 'seed'>;

/**
 * startTestApp without the demo seed, one organization (in a new group) and a signed-in member
 * for each name of `who`, holding the actions of the demo role it had (factories-archive DEMO_STAFF).
 */
export async function startWithStaff<K extends StaffName>(
  options: StartOptions,
  who: readonly K[],
  organization: OrganizationOptions = {},
): Promise<{ t: TestApp } & Staffed<K>> {
  const t = await startTestApp({ ...options, seed: false });
  return { t, ...(await makeStaffed(t, who, organization)) };
}

const dbOf = (t: TestApp) => t.db.database.db;

/** An item of one of the organization's dictionaries (tags, departments, …); answers its id. */
export async function makeDictionaryItem(t: TestApp, bucketId: string, kind: string, name: string): Promise<string> {
  const row = await insertDictionaryItem(dbOf(t), { bucketId, kind, name, data: {}, sort: 0 }, t.clock.now());
  if (!row) throw new Error(`makeDictionaryItem: ${kind} ${name} exists`);
  return row.id;
}

/** An assign rule of the group (CT of the organizations to a doctor, as the seed's); answers its id. */
export async function makeAssignRule(
  t: TestApp,
  groupId: string,
  rule: { bucketIds: string[]; doctorId?: string | null; modality?: string; name?: string },
): Promise<string> {
  const row = await insertAssignRule(
    dbOf(t),
    groupId,
    {
      name: rule.name ?? 'CT 默认分配',
      bucketIds: rule.bucketIds,
      doctorId: rule.doctorId ?? null,
      modality: rule.modality ?? 'CT',
      memberIds: [],
      priority: 1,
    },
    t.clock.now(),
  );
  return row.id;
}

/** The newest audit row of an action (or undefined). */
export async function lastAudit(t: TestApp, action: string): Promise<typeof auditLogs.$inferSelect | undefined> {
  const [row] = await t.db.database.db
    .select()
    .from(auditLogs)
    .where(eq(auditLogs.action, action))
    .orderBy(desc(auditLogs.id))
    .limit(1);
  return row;
}

/** The answer's JSON, once its status is `status`. */
export const ok = <T>(res: { statusCode: number; body: string; json(): unknown }, status = 200): T => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
};

/** How many audit rows of `action` the organization has. */
export async function auditActions(t: TestApp, bucketId: string, action: string): Promise<number> {
  const rows = await t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.bucketId, bucketId), eq(auditLogs.action, action)));
  return rows.length;
}

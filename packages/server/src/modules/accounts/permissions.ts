import { ALL_ACTIONS, type MyOrganization, type PermissionEntry } from '@yyp/contracts';
import { loadCallerAccess } from '../../platform/access.js';
import { effectiveActions } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { findGroup } from '../groups/index.js';
import { bucketsByIds } from '../organizations/index.js';

const catalogue = new Set<string>(ALL_ACTIONS);

/**
 * One entry per organization the caller belongs to, with the catalogue actions it holds there.
 * type 2 marks the group's remote (expert) reading organization, type 1 every other one; a single
 * entry of type 2 makes the web force the report-source filter to all (spec 000 §6).
 */
export async function permissionsOf(db: Db, accountId: string): Promise<PermissionEntry[]> {
  const access = await loadCallerAccess(db, accountId);
  const rows = await bucketsByIds(db, [...access.memberships.keys()]);
  const expertBuckets = new Map<string, string | null>();
  const out: PermissionEntry[] = [];
  for (const b of rows) {
    if (!expertBuckets.has(b.groupId)) {
      const g = await findGroup(db, b.groupId);
      expertBuckets.set(b.groupId, (g?.settings.defaultExpertBucketId as string | null | undefined) ?? null);
    }
    const actions = [...effectiveActions(access, b)].filter((a) => catalogue.has(a)).sort();
    out.push({
      bucketId: b.id,
      groupId: b.groupId,
      type: expertBuckets.get(b.groupId) === b.id ? 2 : 1,
      accessLevel: access.memberships.get(b.id)!.orgLevel,
      actions,
    });
  }
  return out;
}

export async function organizationsOf(db: Db, accountId: string): Promise<MyOrganization[]> {
  const access = await loadCallerAccess(db, accountId);
  const rows = await bucketsByIds(db, [...access.memberships.keys()]);
  return rows.map((b) => ({
    id: b.id,
    name: b.name,
    groupId: b.groupId,
    accessLevel: access.memberships.get(b.id)!.orgLevel,
  }));
}

import { ALL_ACTIONS, type MyOrganization, type PermissionEntry } from '@yyp/contracts';
import { loadCallerAccess } from '../../platform/access.js';
import { effectiveActions } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { expertBucketsAmong } from '../orders/index.js';
import { bucketsByIds } from '../organizations/index.js';

const catalogue = new Set<string>(ALL_ACTIONS);

/**
 * One entry per organization the caller belongs to, with the catalogue actions it holds there.
 * type 2 marks an expert (remote reading) organization: one a group reads from, or names as its
 * default expert organization (expertBucketsAmong: in the marketplace of issue 24 the hospital's
 * group names the teleradiology centre of another group); type 1 every other one. A single entry
 * of type 2 makes the web force the report-source filter to all (spec 000 §6); a user with a type
 * 2 entry among others chooses it (own reports, remote reports, all).
 */
export async function permissionsOf(db: Db, accountId: string): Promise<PermissionEntry[]> {
  const access = await loadCallerAccess(db, accountId);
  const rows = await bucketsByIds(db, [...access.memberships.keys()]);
  const experts = await expertBucketsAmong(
    db,
    rows.map((b) => b.id),
  );
  return rows.map((b) => ({
    bucketId: b.id,
    groupId: b.groupId,
    type: experts.has(b.id) ? 2 : 1,
    accessLevel: access.memberships.get(b.id)!.orgLevel,
    actions: [...effectiveActions(access, b)].filter((a) => catalogue.has(a)).sort(),
  }));
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

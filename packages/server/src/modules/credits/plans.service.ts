import { GROUP_ACCESS_LEVELS, PLAN_PACKAGES, type PlanCheck, type PlanPackage, type PlanStatus } from '@yyp/contracts';
import type { AccountRow, BucketRow } from '../../db/schema.js';
import { callerScope } from '../../platform/access.js';
import { canSee } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { uploadBlock } from '../archive/index.js';
import { bucketsByIds, bucketsOfGroup, findBucket } from '../organizations/index.js';
import { driedPrivateBuckets } from './plans.store.js';

/** How many organizations a platform admin's plans/dried lists at most. */
const MAX_DRIED = 500;

/**
 * Plans of private organizations (spec 000 §3 Plan, §5 quota rule; spec 001 §7 Plans): each read
 * is the organization's plan (buckets/{id}/plan) with the archive's rule (uploadBlock) applied now.
 */
export class PlansService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  private status(b: BucketRow): PlanStatus {
    const blocked = uploadBlock(b, this.clock.now());
    return {
      bucketId: b.id,
      bucketName: b.name,
      groupId: b.groupId,
      isPrivate: b.isPrivate,
      kind: (b.planKind as PlanStatus['kind']) ?? null,
      quota: b.planQuota,
      used: b.planUsed,
      remaining: b.isPrivate && b.planQuota !== null ? Math.max(0, b.planQuota - b.planUsed) : null,
      expiresAt: b.planExpiresAt?.toISOString() ?? null,
      blocked,
      available: blocked === null,
    };
  }

  private async one(bucketId: string): Promise<PlanStatus> {
    const b = await findBucket(this.db, bucketId);
    if (!b) throw errors.notFound('Organization');
    return this.status(b);
  }

  /** GET plans/available?bucketId: its plan while it can receive uploads, else nothing. */
  async available(bucketId: string): Promise<PlanStatus[]> {
    const s = await this.one(bucketId);
    return s.available ? [s] : [];
  }

  /** GET plans/check?bucketId */
  async check(bucketId: string): Promise<PlanCheck> {
    const { available, blocked, remaining, expiresAt } = await this.one(bucketId);
    return { bucketId, available, blocked, remaining, expiresAt };
  }

  /** GET plans/group-available?groupId: the group's organizations that can receive uploads now. */
  async groupAvailable(groupId: string): Promise<PlanStatus[]> {
    return (await bucketsOfGroup(this.db, groupId)).map((b) => this.status(b)).filter((s) => s.available);
  }

  /**
   * GET plans/dried: private organizations whose quota is used up or whose plan expired, among those
   * the caller belongs to or administers through its group; all of them for a platform admin.
   */
  async dried(account: AccountRow): Promise<PlanStatus[]> {
    let rows: BucketRow[];
    if (account.isPlatformAdmin) {
      rows = await driedPrivateBuckets(this.db, this.clock.now(), MAX_DRIED);
    } else {
      const scope = await callerScope(this.db, account);
      const ids = new Set(scope.facts.filter((b) => b.isPrivate && canSee(scope.access, b)).map((b) => b.id));
      rows = await bucketsByIds(this.db, [...ids]);
      for (const [groupId, level] of scope.access.groupLevels) {
        if (level !== GROUP_ACCESS_LEVELS.admin) continue;
        rows.push(...(await bucketsOfGroup(this.db, groupId)).filter((b) => !ids.has(b.id)));
      }
    }
    return rows
      .filter((b) => b.isPrivate)
      .map((b) => this.status(b))
      .filter((s) => !s.available)
      .sort((a, b) => a.bucketName.localeCompare(b.bucketName));
  }

  /** GET user-subscriptions/mine: the plans of the private organizations the caller is a member of. */
  async mine(account: AccountRow): Promise<PlanStatus[]> {
    const scope = await callerScope(this.db, account);
    const ids = scope.facts.filter((b) => b.isPrivate && scope.access.memberships.has(b.id)).map((b) => b.id);
    return (await bucketsByIds(this.db, ids)).map((b) => this.status(b));
  }

  /** GET packages/query */
  packages(): PlanPackage[] {
    return [...PLAN_PACKAGES];
  }
}

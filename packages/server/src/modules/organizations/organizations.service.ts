import crypto from 'node:crypto';
import {
  dictionaryDataSchemas,
  dictionaryNameMax,
  type DictionaryItem,
  type DictionaryKind,
  type Organization,
  type OrgAccessLevel,
  type OrgMember,
} from '@yyp/contracts';
import type { z } from 'zod';
import type {
  BucketPlan,
  UpdateBucketPlan,
  createOrganizationSchema,
  updateOrganizationSchema,
  upsertDictionaryItemSchema,
} from '@yyp/contracts';
import type { AccountRow, BucketRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import { canSee, type CallerAccess } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { loadCallerAccess } from '../../platform/access.js';
import { uploadBlock } from '../archive/index.js';
import { membersAmong } from '../groups/index.js';
import { closeTokenSessions } from '../uploads/index.js';
import * as store from './organizations.store.js';

function present(row: BucketRow, memberCount: number, access: CallerAccess): Organization {
  const { uploadToken: _secret, ...rest } = row;
  return {
    id: rest.id,
    groupId: rest.groupId,
    name: rest.name,
    code: rest.code,
    logo: rest.logo,
    isPrivate: rest.isPrivate,
    focused: rest.focused,
    freeEfilm: rest.freeEfilm,
    memberCount,
    accessLevel: access.memberships.get(row.id)?.orgLevel ?? null,
    settings: rest.settings,
    createdAt: rest.createdAt.toISOString(),
  };
}

type ItemInput = z.infer<typeof upsertDictionaryItemSchema>;

/** A dictionary item as the calls answer it. */
function presentItem(row: DictionaryItem): DictionaryItem {
  return { id: row.id, name: row.name, data: row.data, sort: row.sort };
}

export class OrganizationsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** An audit row about the organization: memberships, upload links, its deletion and its plan are security rows, other edits operation rows. */
  private audit(
    db: Db,
    ctx: AuditContext,
    actor: { id: string | null; username: string },
    action: string,
    bucketId: string,
    details?: Record<string, unknown>,
  ) {
    const security =
      action.startsWith('bucket.member') ||
      action.startsWith('bucket.upload_token') ||
      action === 'bucket.delete' ||
      action === 'bucket.plan.update';
    return writeAudit(db, ctx, {
      action,
      category: security ? 'security' : 'operation',
      outcome: 'success',
      actorId: actor.id,
      actorUsername: actor.username,
      targetType: 'bucket',
      targetId: bucketId,
      bucketId,
      ...(details ? { details } : {}),
    });
  }

  /** Organizations of a group the caller can see: private ones only for their members and group admins. */
  async listForGroup(groupId: string, access: CallerAccess): Promise<Organization[]> {
    const rows = (await store.bucketsOfGroup(this.db, groupId)).filter((b) => canSee(access, b));
    const counts = await store.memberCounts(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => present(r, counts.get(r.id) ?? 0, access));
  }

  accessOf(accountId: string): Promise<CallerAccess> {
    return loadCallerAccess(this.db, accountId);
  }

  /** Organizations the caller is a member of (accessible). */
  async mine(access: CallerAccess): Promise<Organization[]> {
    const rows = await store.bucketsByIds(this.db, [...access.memberships.keys()]);
    const counts = await store.memberCounts(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => present(r, counts.get(r.id) ?? 0, access));
  }

  async get(bucketId: string, access: CallerAccess): Promise<Organization> {
    const row = await store.findBucket(this.db, bucketId);
    if (!row) throw errors.notFound('Organization');
    const counts = await store.memberCounts(this.db, [bucketId]);
    return present(row, counts.get(bucketId) ?? 0, access);
  }

  async create(
    actor: AccountRow,
    groupId: string,
    input: z.infer<typeof createOrganizationSchema>,
    access: CallerAccess,
    ctx: AuditContext,
  ): Promise<Organization> {
    if (input.code && (await store.codeTaken(this.db, input.code))) {
      throw new AppError('CodeTaken', 'The organization code is already used');
    }
    const row = await this.db.transaction(async (tx) => {
      const created = await store.insertBucket(
        tx,
        {
          groupId,
          name: input.name,
          code: input.code ?? null,
          logo: input.logo ?? null,
          isPrivate: input.isPrivate ?? false,
        },
        this.clock.now(),
      );
      await this.audit(tx, ctx, actor, 'bucket.create', created.id, { groupId, name: input.name });
      return created;
    });
    return present(row, 0, access);
  }

  async update(
    actor: AccountRow,
    bucketId: string,
    change: z.infer<typeof updateOrganizationSchema>,
    access: CallerAccess,
    ctx: AuditContext,
  ): Promise<Organization> {
    const current = await store.findBucket(this.db, bucketId);
    if (!current) throw errors.notFound('Organization');
    if (change.code !== undefined && current.code !== null && change.code !== current.code) {
      throw errors.validation('The organization code cannot be changed once set', { field: 'code' });
    }
    if (change.code && current.code === null && (await store.codeTaken(this.db, change.code, bucketId))) {
      throw new AppError('CodeTaken', 'The organization code is already used');
    }
    const { notifications, ...fields } = change;
    if (notifications?.uploadNotifyAccountIds?.length) {
      const members = await store.bucketMembersAmong(this.db, bucketId, notifications.uploadNotifyAccountIds);
      if (members.size !== new Set(notifications.uploadNotifyAccountIds).size) {
        throw errors.validation('Upload notifications go to members of the organization only', {
          field: 'notifications.uploadNotifyAccountIds',
        });
      }
    }
    const settings = notifications
      ? {
          ...current.settings,
          notifications: { ...((current.settings.notifications as object | undefined) ?? {}), ...notifications },
        }
      : current.settings;
    const row = await this.db.transaction(async (tx) => {
      const updated = await store.updateBucket(tx, bucketId, { ...fields, settings }, this.clock.now());
      await this.audit(tx, ctx, actor, 'bucket.update', bucketId, { fields: Object.keys(change) });
      return updated;
    });
    const counts = await store.memberCounts(this.db, [bucketId]);
    return present(row, counts.get(bucketId) ?? 0, access);
  }

  async remove(actor: AccountRow, bucketId: string, confirmName: string, ctx: AuditContext): Promise<void> {
    const current = await store.findBucket(this.db, bucketId);
    if (!current) throw errors.notFound('Organization');
    if (confirmName !== current.name) {
      throw errors.validation('Type the organization name to confirm', { field: 'confirmName' });
    }
    await this.db.transaction(async (tx) => {
      await store.deleteBucket(tx, bucketId);
      await this.audit(tx, ctx, actor, 'bucket.delete', bucketId, { name: current.name });
    });
  }

  members(bucketId: string): Promise<OrgMember[]> {
    return store.listBucketMembers(this.db, bucketId) as Promise<OrgMember[]>;
  }

  /** Members of an organization must first be members of its group. */
  async addMembers(
    actor: AccountRow,
    bucketId: string,
    groupId: string,
    accountIds: string[],
    accessLevel: OrgAccessLevel,
    ctx: AuditContext,
  ): Promise<OrgMember[]> {
    const unique = [...new Set(accountIds)];
    const inGroup = await membersAmong(this.db, groupId, unique);
    const outsiders = unique.filter((id) => !inGroup.has(id));
    if (outsiders.length) {
      throw errors.validation('Only members of the group can join its organizations', { accountIds: outsiders });
    }
    await this.db.transaction(async (tx) => {
      await store.addBucketMembers(tx, bucketId, unique, accessLevel, this.clock.now());
      for (const id of unique) {
        await this.audit(tx, ctx, actor, 'bucket.member.add', bucketId, { accountId: id, accessLevel });
      }
    });
    return this.members(bucketId);
  }

  async updateMember(
    actor: AccountRow,
    bucketId: string,
    accountId: string,
    accessLevel: OrgAccessLevel,
    ctx: AuditContext,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await store.setBucketMemberLevel(tx, bucketId, accountId, accessLevel))) throw errors.notFound('Member');
      await this.audit(tx, ctx, actor, 'bucket.member.update', bucketId, { accountId, accessLevel });
    });
  }

  async removeMember(actor: AccountRow, bucketId: string, accountId: string, ctx: AuditContext): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await store.removeBucketMember(tx, bucketId, accountId))) throw errors.notFound('Member');
      await this.audit(tx, ctx, actor, 'bucket.member.remove', bucketId, { accountId });
    });
  }

  async dictionary(bucketId: string, kind: DictionaryKind): Promise<DictionaryItem[]> {
    const rows = await store.listDictionary(this.db, bucketId, kind);
    const items = rows.map(presentItem);
    // Department id 0 is the built-in "none" (spec 000 §3); the web shows it translated.
    return kind === 'departments' ? [{ id: '0', name: '', data: { none: true }, sort: -1 }, ...items] : items;
  }

  private checkItem(kind: DictionaryKind, input: ItemInput) {
    if (input.name.length > dictionaryNameMax[kind]) {
      throw errors.validation(`The name is at most ${dictionaryNameMax[kind]} characters`, {
        field: 'name',
        max: dictionaryNameMax[kind],
      });
    }
    const parsed = dictionaryDataSchemas[kind].safeParse(input.data ?? {});
    if (!parsed.success) {
      throw errors.validation('The request is not valid', {
        issues: parsed.error.issues.map((i) => ({ path: `data.${i.path.join('.')}`, message: i.message })),
      });
    }
    return parsed.data as Record<string, unknown>;
  }

  async addItem(
    actor: AccountRow,
    bucketId: string,
    kind: DictionaryKind,
    input: ItemInput,
    ctx: AuditContext,
  ): Promise<DictionaryItem> {
    const data = this.checkItem(kind, input);
    return this.db.transaction(async (tx) => {
      const row = await store.insertDictionaryItem(
        tx,
        { bucketId, kind, name: input.name, data, sort: input.sort ?? 0 },
        this.clock.now(),
      );
      if (!row) throw new AppError('Conflict', 'An item with this name already exists');
      await this.audit(tx, ctx, actor, `bucket.${kind}.add`, bucketId, { itemId: row.id });
      return presentItem(row);
    });
  }

  async updateItem(
    actor: AccountRow,
    bucketId: string,
    kind: DictionaryKind,
    itemId: string,
    input: ItemInput,
    ctx: AuditContext,
  ): Promise<DictionaryItem> {
    const data = this.checkItem(kind, input);
    return this.db.transaction(async (tx) => {
      const row = await store.updateDictionaryItem(tx, bucketId, kind, itemId, {
        name: input.name,
        data,
        sort: input.sort,
      });
      if (!row) throw errors.notFound('Item');
      await this.audit(tx, ctx, actor, `bucket.${kind}.update`, bucketId, { itemId });
      return presentItem(row);
    });
  }

  async removeItem(
    actor: AccountRow,
    bucketId: string,
    kind: DictionaryKind,
    itemId: string,
    ctx: AuditContext,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteDictionaryItem(tx, bucketId, kind, itemId))) throw errors.notFound('Item');
      await this.audit(tx, ctx, actor, `bucket.${kind}.delete`, bucketId, { itemId });
    });
  }

  async uploadToken(
    bucketId: string,
  ): Promise<{ token: string | null; uploadPath: string | null; notifyAccountIds: string[] }> {
    const row = await store.findBucket(this.db, bucketId);
    if (!row) throw errors.notFound('Organization');
    const notify =
      (row.settings.notifications as { uploadNotifyAccountIds?: string[] } | undefined)?.uploadNotifyAccountIds ?? [];
    return {
      token: row.uploadToken,
      uploadPath: row.uploadToken ? `/upload?token=${row.uploadToken}` : null,
      notifyAccountIds: notify,
    };
  }

  /** Issues a new upload token (the old one stops working at once) or revokes it. */
  async rotateUploadToken(actor: AccountRow, bucketId: string, revoke: boolean, ctx: AuditContext) {
    const token = revoke ? null : crypto.randomBytes(24).toString('base64url');
    await this.db.transaction(async (tx) => {
      await store.updateBucket(tx, bucketId, { uploadToken: token }, this.clock.now());
      // Sessions opened with the old link end with it.
      await closeTokenSessions(tx, bucketId, this.clock.now());
      await this.audit(tx, ctx, actor, revoke ? 'bucket.upload_token.revoke' : 'bucket.upload_token.rotate', bucketId);
    });
    return this.uploadToken(bucketId);
  }

  /** The organization's plan and whether it can receive uploads now. */
  async plan(bucketId: string): Promise<BucketPlan> {
    const row = await store.findBucket(this.db, bucketId);
    if (!row) throw errors.notFound('Organization');
    return {
      kind: (row.planKind as BucketPlan['kind']) ?? null,
      quota: row.planQuota,
      used: row.planUsed,
      expiresAt: row.planExpiresAt?.toISOString() ?? null,
      isPrivate: row.isPrivate,
      blocked: uploadBlock(row, this.clock.now(), 1),
    };
  }

  /** Sets or ends the plan (platform admins, or the operator's CLI: billing is the platform's). Audited. */
  async setPlan(
    actor: { id: string | null; username: string },
    bucketId: string,
    input: UpdateBucketPlan,
    ctx: AuditContext,
  ): Promise<BucketPlan> {
    const row = await store.findBucket(this.db, bucketId);
    if (!row) throw errors.notFound('Organization');
    const change: Partial<BucketRow> = {
      planKind: input.kind,
      planQuota: input.kind === null ? null : input.quota,
      planExpiresAt: input.kind === null || input.expiresAt === null ? null : new Date(input.expiresAt),
    };
    if (input.resetUsed) change.planUsed = 0;
    await this.db.transaction(async (tx) => {
      await store.updateBucket(tx, bucketId, change, this.clock.now());
      await this.audit(tx, ctx, actor, 'bucket.plan.update', bucketId, {
        ...input,
        previous: { kind: row.planKind, quota: row.planQuota, used: row.planUsed },
      });
    });
    return this.plan(bucketId);
  }
}

import {
  GROUP_ACCESS_LEVELS,
  groupAccessLevelValues,
  type Group,
  type GroupMember,
  type GroupSettings,
} from '@yyp/contracts';
import type { z } from 'zod';
import type {
  createGroupRequestSchema,
  createMemberAccountSchema,
  groupAttributesSchema,
  updateGroupRequestSchema,
} from '@yyp/contracts';
import type { AccountRow, GroupRow } from '../../db/schema.js';
import { accountAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { assertNewPassword, hashPassword } from '../../platform/passwords.js';
import { insertAccount } from '../accounts/index.js';
import { getDomainConfig } from '../domain/index.js';
import * as store from './groups.store.js';

/** Sensible defaults for a new group: the core radiology features on, the optional ones off. */
export const DEFAULT_GROUP_SETTINGS: GroupSettings = {
  enableRegistry: true,
  enableStat: true,
  enableConsultation: true,
  enableCalling: true,
  allowAccountMgmt: true,
  allowReportComment: true,
  enablePrivacy: false,
  enableCredit: false,
  dobMatchMode: 'shift_off',
  crossOrgHistorySearch: false,
};

function presentGroup(row: GroupRow, accessLevel: number, counts: { members: number; organizations: number }): Group {
  return {
    id: row.id,
    displayName: row.displayName,
    accessLevel,
    allowedAccessLevels: accessLevel === GROUP_ACCESS_LEVELS.admin ? [...groupAccessLevelValues] : [],
    settings: row.settings as GroupSettings,
    attributes: row.attributes as z.infer<typeof groupAttributesSchema>,
    memberCount: counts.members,
    organizationCount: counts.organizations,
    createdAt: row.createdAt.toISOString(),
  };
}

export class GroupsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async available(name: string): Promise<{ available: boolean }> {
    return { available: !(await store.groupNameTaken(this.db, name)) };
  }

  /** Needs group creation unlocked (canCreateGroup) and the caller not already in a group. */
  async create(actor: AccountRow, input: z.infer<typeof createGroupRequestSchema>, ctx: AuditContext): Promise<Group> {
    if (!actor.canCreateGroup) throw errors.forbidden('canCreateGroup');
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      if ((await store.countGroupsOfAccount(tx, actor.id)) > 0) {
        throw new AppError('AlreadyInGroup', 'You already belong to a group');
      }
      if (await store.groupNameTaken(tx, input.displayName)) {
        throw new AppError('NameNotAvailable', 'The name is not available');
      }
      const created = await store.insertGroup(
        tx,
        { id: input.id, displayName: input.displayName, settings: DEFAULT_GROUP_SETTINGS, createdBy: actor.id },
        now,
      );
      if (!created) throw new AppError('NameNotAvailable', 'The name is not available');
      await store.addGroupMembers(tx, created.id, [actor.id], GROUP_ACCESS_LEVELS.admin, now);
      await writeAudit(tx, ctx, {
        action: 'group.create',
        outcome: 'success',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'group',
        targetId: created.id,
      });
      return created;
    });
    return presentGroup(row, GROUP_ACCESS_LEVELS.admin, { members: 1, organizations: 0 });
  }

  async get(groupId: string, accessLevel: number): Promise<Group> {
    const row = await store.findGroup(this.db, groupId);
    if (!row) throw errors.notFound('Group');
    return presentGroup(row, accessLevel, await store.groupCounts(this.db, groupId));
  }

  async mine(actor: AccountRow): Promise<Group[]> {
    const rows = await store.groupsOfAccount(this.db, actor.id);
    return Promise.all(rows.map(async (r) => presentGroup(r, r.accessLevel, await store.groupCounts(this.db, r.id))));
  }

  async update(
    actor: AccountRow,
    groupId: string,
    change: z.infer<typeof updateGroupRequestSchema>,
    ctx: AuditContext,
  ): Promise<Group> {
    const current = await store.findGroup(this.db, groupId);
    if (!current) throw errors.notFound('Group');
    if (change.displayName && (await store.groupNameTaken(this.db, change.displayName, groupId))) {
      throw new AppError('NameNotAvailable', 'The name is not available');
    }
    const row = await this.db.transaction(async (tx) => {
      const updated = await store.updateGroup(
        tx,
        groupId,
        {
          ...(change.displayName ? { displayName: change.displayName } : {}),
          ...(change.settings ? { settings: { ...current.settings, ...change.settings } } : {}),
          ...(change.attributes ? { attributes: { ...current.attributes, ...change.attributes } } : {}),
        },
        this.clock.now(),
      );
      await writeAudit(tx, ctx, {
        action: 'group.update',
        category: 'operation',
        outcome: 'success',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'group',
        targetId: groupId,
        details: { fields: Object.keys(change) },
      });
      return updated;
    });
    return presentGroup(row, GROUP_ACCESS_LEVELS.admin, await store.groupCounts(this.db, groupId));
  }

  async remove(actor: AccountRow, groupId: string, confirmName: string, ctx: AuditContext): Promise<void> {
    const current = await store.findGroup(this.db, groupId);
    if (!current) throw errors.notFound('Group');
    if (confirmName !== current.displayName) {
      throw errors.validation('Type the group name to confirm', { field: 'confirmName' });
    }
    await this.db.transaction(async (tx) => {
      await store.deleteGroup(tx, groupId);
      await writeAudit(tx, ctx, {
        action: 'group.delete',
        outcome: 'success',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'group',
        targetId: groupId,
        details: { name: current.displayName },
      });
    });
  }

  async members(
    groupId: string,
    q: string | undefined,
    skip: number,
    limit: number,
  ): Promise<{ members: GroupMember[]; count: number }> {
    const page = await store.queryGroupMembers(
      this.db,
      groupId,
      q,
      Math.max(0, skip),
      limit > 0 ? Math.min(limit, 500) : 50,
    );
    return { members: page.rows.map((r) => ({ ...r, joinedAt: r.joinedAt.toISOString() })), count: page.count };
  }

  async invite(
    actor: AccountRow,
    groupId: string,
    accountIds: string[],
    accessLevel: number,
    ctx: AuditContext,
  ): Promise<{ added: string[] }> {
    const unique = [...new Set(accountIds)];
    const existing = await store.existingAccountIds(this.db, unique);
    const missing = unique.filter((id) => !existing.includes(id));
    if (missing.length) throw errors.validation('Some accounts do not exist or are disabled', { accountIds: missing });
    const added = await this.db.transaction(async (tx) => {
      const ids = await store.addGroupMembers(tx, groupId, existing, accessLevel, this.clock.now());
      for (const id of ids) {
        await writeAudit(tx, ctx, accountAudit(actor, 'group.member.add', id, { groupId, accessLevel }));
      }
      return ids;
    });
    return { added };
  }

  async createAccount(
    actor: AccountRow,
    groupId: string,
    input: z.infer<typeof createMemberAccountSchema>,
    ctx: AuditContext,
  ): Promise<GroupMember> {
    const group = await store.findGroup(this.db, groupId);
    if (!group) throw errors.notFound('Group');
    if ((group.settings as GroupSettings).allowAccountMgmt === false) throw errors.forbidden('allowAccountMgmt');
    const domain = await getDomainConfig(this.db);
    await assertNewPassword(input.password, domain.requireStrongPwd);
    const now = this.clock.now();
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction(async (tx) => {
      // The admin chose this password: its owner replaces it at first login.
      const created = await insertAccount(
        tx,
        { username: input.username, name: input.name, passwordHash, passwordChangedAt: now, mustChangePassword: true },
        now,
      );
      if (!created) throw new AppError('UsernameTaken', 'The username is already taken');
      await store.addGroupMembers(tx, groupId, [created.id], input.accessLevel, now);
      await writeAudit(
        tx,
        ctx,
        accountAudit(actor, 'account.create', created.id, { groupId, accessLevel: input.accessLevel }),
      );
      return {
        accountId: created.id,
        username: created.username,
        name: created.name,
        accessLevel: input.accessLevel,
        disabled: 0,
        joinedAt: now.toISOString(),
      };
    });
  }

  async updateMember(
    actor: AccountRow,
    groupId: string,
    accountId: string,
    accessLevel: number,
    ctx: AuditContext,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const member = await store.findGroupMember(tx, groupId, accountId);
      if (!member) throw errors.notFound('Member');
      if (
        member.accessLevel === GROUP_ACCESS_LEVELS.admin &&
        accessLevel !== GROUP_ACCESS_LEVELS.admin &&
        (await store.countAdmins(tx, groupId)) <= 1
      ) {
        throw new AppError('LastAdmin', 'A group keeps at least one admin');
      }
      await store.setGroupMemberLevel(tx, groupId, accountId, accessLevel);
      await writeAudit(
        tx,
        ctx,
        accountAudit(actor, 'group.member.update', accountId, { groupId, from: member.accessLevel, to: accessLevel }),
      );
    });
  }

  async removeMember(
    actor: AccountRow,
    groupId: string,
    accountId: string,
    ctx: AuditContext,
    action = 'group.member.remove',
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const member = await store.findGroupMember(tx, groupId, accountId);
      if (!member) throw errors.notFound('Member');
      if (member.accessLevel === GROUP_ACCESS_LEVELS.admin && (await store.countAdmins(tx, groupId)) <= 1) {
        throw new AppError('LastAdmin', 'A group keeps at least one admin');
      }
      await store.removeGroupMember(tx, groupId, accountId);
      await writeAudit(tx, ctx, accountAudit(actor, action, accountId, { groupId }));
    });
  }

  quit(actor: AccountRow, groupId: string, ctx: AuditContext): Promise<void> {
    return this.removeMember(actor, groupId, actor.id, ctx, 'group.quit');
  }
}

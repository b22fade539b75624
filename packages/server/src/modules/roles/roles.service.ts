import { ACTION_CATALOGUE, type Role } from '@yyp/contracts';
import type { AccountRow, RoleRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { bucketMembersAmong } from '../organizations/index.js';
import * as store from './roles.store.js';

function present(row: RoleRow, memberIds: string[]): Role {
  return { id: row.id, bucketId: row.bucketId, name: row.name, actions: row.actions, memberIds };
}

export class RolesService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  catalogue() {
    return Object.entries(ACTION_CATALOGUE).map(([category, actions]) => ({ category, actions: [...actions] }));
  }

  async list(bucketId: string): Promise<Role[]> {
    return (await store.rolesOfBucket(this.db, bucketId)).map((r) => present(r, r.memberIds));
  }

  private audit(
    db: Db,
    ctx: AuditContext,
    actor: AccountRow,
    action: string,
    role: { id: string; bucketId: string },
    details?: Record<string, unknown>,
  ) {
    return writeAudit(db, ctx, {
      action,
      outcome: 'success',
      actorId: actor.id,
      actorUsername: actor.username,
      targetType: 'role',
      targetId: role.id,
      bucketId: role.bucketId,
      ...(details ? { details } : {}),
    });
  }

  async create(actor: AccountRow, bucketId: string, name: string, actions: string[], ctx: AuditContext): Promise<Role> {
    if (await store.roleNameTaken(this.db, bucketId, name)) {
      throw new AppError('NameNotAvailable', 'A role with this name exists');
    }
    return this.db.transaction(async (tx) => {
      const row = await store.insertRole(tx, bucketId, name, [...new Set(actions)], this.clock.now());
      await this.audit(tx, ctx, actor, 'role.create', row, { name, actions: row.actions });
      return present(row, []);
    });
  }

  async update(actor: AccountRow, roleId: string, name: string, actions: string[], ctx: AuditContext): Promise<Role> {
    const current = await store.findRole(this.db, roleId);
    if (!current) throw errors.notFound('Role');
    if (await store.roleNameTaken(this.db, current.bucketId, name, roleId)) {
      throw new AppError('NameNotAvailable', 'A role with this name exists');
    }
    return this.db.transaction(async (tx) => {
      const row = await store.updateRole(tx, roleId, name, [...new Set(actions)], this.clock.now());
      await this.audit(tx, ctx, actor, 'role.update', row, { name, from: current.actions, to: row.actions });
      return present(row, await store.roleMemberIds(tx, roleId));
    });
  }

  async remove(actor: AccountRow, roleId: string, confirmName: string, ctx: AuditContext): Promise<void> {
    const current = await store.findRole(this.db, roleId);
    if (!current) throw errors.notFound('Role');
    if (confirmName !== current.name) {
      throw errors.validation('Type the role name to confirm', { field: 'confirmName' });
    }
    await this.db.transaction(async (tx) => {
      await store.deleteRole(tx, roleId);
      await this.audit(tx, ctx, actor, 'role.delete', current, { name: current.name });
    });
  }

  /** Role members must be members of the role's organization. */
  async setMembers(actor: AccountRow, roleId: string, accountIds: string[], ctx: AuditContext): Promise<Role> {
    const current = await store.findRole(this.db, roleId);
    if (!current) throw errors.notFound('Role');
    const unique = [...new Set(accountIds)];
    const members = await bucketMembersAmong(this.db, current.bucketId, unique);
    const outsiders = unique.filter((id) => !members.has(id));
    if (outsiders.length) {
      throw errors.validation('Only members of the organization can hold its roles', { accountIds: outsiders });
    }
    return this.db.transaction(async (tx) => {
      const before = await store.roleMemberIds(tx, roleId);
      await store.setRoleMembers(tx, roleId, unique);
      await this.audit(tx, ctx, actor, 'role.members', current, { from: before, to: unique });
      return present(current, unique);
    });
  }
}

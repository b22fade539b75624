import crypto from 'node:crypto';
import type { z } from 'zod';
import type { auditQuerySchema, DicomRefusalPage, DicomRefusalQuery } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { accountAudit, writeAudit, type AuditContext, type AuditEntry } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { hashPassword } from '../../platform/passwords.js';
import {
  clearLoginFailures,
  findAccountById,
  setDisabled,
  setMustChangePassword,
  setPassword,
} from '../accounts/index.js';
import * as store from './admin.store.js';
import { queryRefusals, REFUSED_ASSOCIATION } from './dicom-refusals.store.js';

function page(skip: number | undefined, limit: number | undefined, max: number) {
  return { skip: Math.max(0, skip ?? 0), limit: limit && limit > 0 ? Math.min(limit, max) : 50 };
}

/** A log query's time range as dates, each undefined when open. */
function timeRange(query: { from?: string; to?: string }) {
  return {
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

/** Account administration (security admins) and the operation log (auditors). */
export class AdminService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async setStatus(
    actor: AccountRow,
    groupId: string,
    accountId: string,
    status: 0 | 1,
    ctx: AuditContext,
  ): Promise<{ id: string; disabled: number }> {
    if (accountId === actor.id) {
      throw errors.validation('You cannot change the status of your own account', { field: 'accountId' });
    }
    return this.db.transaction(async (tx) => {
      const row = await setDisabled(tx, accountId, status, this.clock.now());
      if (!row) throw errors.notFound('Account');
      await writeAudit(
        tx,
        ctx,
        accountAudit(actor, status ? 'account.disable' : 'account.enable', accountId, {
          groupId,
          username: row.username,
        }),
      );
      return { id: row.id, disabled: row.disabled };
    });
  }

  /**
   * reset-password: a one-time password shown to the security admin; its owner must replace it at
   * the next login, and every session of the account ends. unlock: clears a login lockout.
   */
  async act(
    actor: AccountRow,
    groupId: string,
    accountId: string,
    action: string,
    ctx: AuditContext,
  ): Promise<{ temporaryPassword?: string }> {
    const target = await findAccountById(this.db, accountId);
    if (!target) throw errors.notFound('Account');
    if (action === 'unlock') {
      await clearLoginFailures(this.db, target.username.toLowerCase());
      await writeAudit(this.db, ctx, accountAudit(actor, 'account.unlock', accountId, { groupId }));
      return {};
    }
    if (action === 'reset-password') {
      if (target.source !== 'password') throw new AppError('PasswordChangeNotAllowed', 'This account has no password');
      const temporaryPassword = `Yy${crypto.randomBytes(6).toString('base64url')}#9`;
      const hash = await hashPassword(temporaryPassword);
      await this.db.transaction(async (tx) => {
        await setPassword(tx, accountId, hash, this.clock.now());
        await setMustChangePassword(tx, accountId);
        await clearLoginFailures(tx, target.username.toLowerCase());
        await writeAudit(tx, ctx, accountAudit(actor, 'account.reset_password', accountId, { groupId }));
      });
      return { temporaryPassword };
    }
    throw errors.validation('Unknown account action', { field: 'action', allowed: ['reset-password', 'unlock'] });
  }

  async realm(groupId: string, q: string | undefined, skip?: number, limit?: number) {
    const p = page(skip, limit, 200);
    return store.queryRealm(this.db, groupId, q, p.skip, p.limit, this.clock.now());
  }

  /** The operation log of a group (its auditors), or with groupId null of the whole platform (platform admin). */
  async auditLogs(
    actor: AccountRow,
    query: Omit<z.infer<typeof auditQuerySchema>, 'groupId'> & { groupId: string | null },
    ctx: AuditContext,
  ) {
    const p = page(query.skip, query.limit, 200);
    const result = await store.queryAuditLogs(
      this.db,
      {
        groupId: query.groupId,
        actorId: query.actorId,
        action: query.action,
        outcome: query.outcome,
        ...timeRange(query),
      },
      p.skip,
      p.limit,
    );
    await this.logRead(
      actor,
      ctx,
      query.groupId === null ? { targetType: 'domain' } : { targetType: 'group', targetId: query.groupId },
    );
    return {
      logs: result.rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        actorId: r.actorId,
        actorUsername: r.actorUsername,
        action: r.action,
        targetType: r.targetType,
        targetId: r.targetId,
        bucketId: r.bucketId,
        ip: r.ip,
        outcome: r.outcome,
        details: r.details,
      })),
      count: result.count,
    };
  }

  /**
   * Refused DICOM associations: all of them for the platform admin (groupId null), those that
   * concern the group's AE titles for its auditors. Reading them is logged.
   */
  async dicomRefusals(
    actor: AccountRow,
    groupId: string | null,
    query: DicomRefusalQuery,
    ctx: AuditContext,
  ): Promise<DicomRefusalPage> {
    const p = page(query.skip, query.limit, 200);
    const result = await queryRefusals(
      this.db,
      {
        groupId: groupId ?? undefined,
        aeTitle: query.aeTitle || undefined,
        ...timeRange(query),
      },
      p.skip,
      p.limit,
    );
    await this.logRead(actor, ctx, groupId ? { targetType: 'group', targetId: groupId } : { targetType: 'domain' }, {
      log: REFUSED_ASSOCIATION,
    });
    return result;
  }

  /** Every group of the platform (platform admin). */
  platformGroups(query: { q?: string | undefined; skip?: number | undefined; limit?: number | undefined }) {
    const p = page(query.skip, query.limit, 200);
    return store.queryPlatformGroups(this.db, query.q || undefined, p.skip, p.limit);
  }

  /** Reading a log is itself logged: an audit.read row naming what was read. */
  private async logRead(
    actor: AccountRow,
    ctx: AuditContext,
    target: Pick<AuditEntry, 'targetType' | 'targetId'>,
    details?: Record<string, unknown>,
  ): Promise<void> {
    await writeAudit(this.db, ctx, {
      action: 'audit.read',
      outcome: 'success',
      actorId: actor.id,
      actorUsername: actor.username,
      ...target,
      ...(details ? { details } : {}),
    });
  }
}

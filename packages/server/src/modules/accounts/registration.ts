import { checkUsername, type DomainConfig } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { assertNewPassword, hashPassword } from '../../platform/passwords.js';
import { getDomainConfig } from '../domain/index.js';
import * as store from './accounts.store.js';
import { clientAddress, RATE_RULES, type RateLimiter } from './rate-limit.js';

export interface RegistrationDeps {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
}

/**
 * Self-registration (POST accounts/register, and WeChat's first login): limited per client
 * address, only while the domain allows registration, under the username rules. A self-registered
 * account starts its own tenant: group creation is unlocked for it.
 */
export class Registration {
  constructor(private readonly deps: RegistrationDeps) {}

  /** Answers the domain's configuration, read once for the caller's own rules. */
  private async admit(username: string, ctx: AuditContext): Promise<DomainConfig> {
    await this.deps.limiter.hit(RATE_RULES.register, { address: clientAddress(ctx.ip ?? undefined) });
    const domain = await getDomainConfig(this.deps.db);
    if (!domain.allowRegistration) throw new AppError('RegistrationClosed', 'Registration is not open on this domain');
    const usernameProblem = checkUsername(username);
    if (usernameProblem) throw errors.validation('Invalid username', { field: 'username', problem: usernameProblem });
    return domain;
  }

  /** An account with a password (checked against the domain's strong-password policy). */
  async withPassword(
    input: { username: string; password: string; name: string },
    ctx: AuditContext,
  ): Promise<AccountRow> {
    const domain = await this.admit(input.username, ctx);
    await assertNewPassword(input.password, domain.requireStrongPwd);
    const now = this.deps.clock.now();
    const passwordHash = await hashPassword(input.password);
    return this.create({ username: input.username, name: input.name, passwordHash, passwordChangedAt: now }, ctx);
  }

  /**
   * An account without a password (source wx: WeChat signs it in; spec 001 "WeChat-login users
   * cannot change their password"). `link` runs in the same transaction (modules/wxlogin links the
   * identity there).
   */
  async withoutPassword(
    input: { username: string; name: string; source: 'wx' },
    ctx: AuditContext,
    link: (tx: Db, account: AccountRow) => Promise<void>,
  ): Promise<AccountRow> {
    await this.admit(input.username, ctx);
    const values = { username: input.username, name: input.name, passwordHash: null, source: input.source };
    return this.create(values, ctx, { method: input.source }, link);
  }

  private create(
    values: Omit<Parameters<typeof store.insertAccount>[1], 'canCreateGroup'>,
    ctx: AuditContext,
    details?: Record<string, unknown>,
    link?: (tx: Db, account: AccountRow) => Promise<void>,
  ): Promise<AccountRow> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const created = await store.insertAccount(tx, { ...values, canCreateGroup: true }, now);
      if (!created) throw new AppError('UsernameTaken', 'The username is already taken');
      await link?.(tx, created);
      await writeAudit(tx, ctx, {
        action: 'account.register',
        outcome: 'success',
        actorId: created.id,
        actorUsername: created.username,
        ...(details ? { details } : {}),
      });
      return created;
    });
  }
}

import {
  checkPassword,
  checkUsername,
  SEARCH_LIMIT,
  type AccountSuggestion,
  type ChangePasswordRequest,
  type MyOrganization,
  type PermissionEntry,
  type TokenInfo,
  type UpdateMeRequest,
  type User,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { CallerScope } from '../../platform/access.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { hashPassword, verifyPassword } from '../../platform/passwords.js';
import type { TokenService } from '../../platform/tokens.js';
import { getDomainConfig } from '../domain/domain.store.js';
import type { PoliciesService } from '../policies/policies.service.js';
import { maskMobile, presentSuggestion, presentUser } from './accounts.presenter.js';
import * as store from './accounts.store.js';
import { organizationsOf, permissionsOf } from './permissions.js';

export interface AccountsDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  /** checks uploaded avatars and signs the URLs that show them */
  policies: PoliciesService;
}

/** Avatar URLs stay the same for 6 hours (browser caching) and work for at least 6 more. */
const AVATAR_URL_WINDOW_SECONDS = 6 * 3600;

export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  private issue(account: AccountRow): Promise<TokenInfo> {
    return this.deps.tokens.issue({ sub: account.id, tv: account.tokenVersion }, this.now(), 'normal');
  }

  /**
   * The account behind a verified token and its memberships (one statement), or a 401 when it
   * was disabled or its password changed.
   */
  async authenticate(token: string): Promise<{ account: AccountRow; scope: CallerScope }> {
    const claims = await this.deps.tokens.verify(token, this.now());
    const found = await store.findAccountWithScope(this.db, claims.sub);
    if (!found || found.account.disabled !== 0 || found.account.tokenVersion !== claims.tv) throw errors.badToken();
    return found;
  }

  /**
   * Checks a username and password against the account and the lockout (spec 000 §9: 5 failures,
   * 30 minutes). Unknown names are throttled and answered exactly like wrong passwords.
   */
  private async verifyCredentials(
    username: string,
    password: string,
    ctx: AuditContext,
    action: string,
  ): Promise<AccountRow> {
    const key = username.toLowerCase();
    const now = this.now();
    const throttle = await store.getThrottle(this.db, key);
    if (throttle?.lockedUntil && throttle.lockedUntil > now) {
      await writeAudit(this.db, ctx, {
        action,
        outcome: 'denied',
        actorUsername: username,
        details: { reason: 'locked' },
      });
      throw errors.loginLocked(Math.ceil((throttle.lockedUntil.getTime() - now.getTime()) / 1000));
    }
    const account = await store.findAccountByUsername(this.db, username);
    const ok = await verifyPassword(account?.passwordHash ?? null, password);
    if (!ok) {
      const state = await store.recordLoginFailure(this.db, key, now);
      const locked = state.lockedUntil !== null && state.lockedUntil > now;
      await writeAudit(this.db, ctx, {
        action,
        outcome: 'failure',
        actorId: account?.id ?? null,
        actorUsername: username,
        details: { reason: 'wrong_credentials', failures: state.failures, locked },
      });
      if (locked) throw errors.loginLocked(Math.ceil((state.lockedUntil!.getTime() - now.getTime()) / 1000));
      throw errors.wrongCredentials();
    }
    await store.clearLoginFailures(this.db, key);
    if (account!.disabled !== 0) {
      await writeAudit(this.db, ctx, {
        action,
        outcome: 'denied',
        actorId: account!.id,
        actorUsername: username,
        details: { reason: 'disabled' },
      });
      throw errors.accountDisabled();
    }
    return account!;
  }

  async login(username: string, password: string, ctx: AuditContext): Promise<TokenInfo> {
    const account = await this.verifyCredentials(username, password, ctx, 'account.login');
    const domain = await getDomainConfig(this.db);
    // A password set before the strong policy was switched on, or one an admin set, must be replaced.
    if (account.mustChangePassword || (domain.requireStrongPwd && checkPassword(password, true) !== null)) {
      await writeAudit(this.db, ctx, {
        action: 'account.login',
        outcome: 'denied',
        actorId: account.id,
        actorUsername: account.username,
        details: { reason: 'password_expired' },
      });
      throw errors.passwordExpired();
    }
    await writeAudit(this.db, ctx, {
      action: 'account.login',
      outcome: 'success',
      actorId: account.id,
      actorUsername: account.username,
    });
    return this.issue(account);
  }

  private async checkNewPassword(password: string): Promise<void> {
    const domain = await getDomainConfig(this.db);
    const problem = checkPassword(password, domain.requireStrongPwd);
    if (problem) throw errors.passwordTooSimple(problem);
  }

  async register(input: { username: string; password: string; name: string }, ctx: AuditContext): Promise<TokenInfo> {
    const domain = await getDomainConfig(this.db);
    if (!domain.allowRegistration) throw new AppError('RegistrationClosed', 'Registration is not open on this domain');
    const usernameProblem = checkUsername(input.username);
    if (usernameProblem) throw errors.validation('Invalid username', { field: 'username', problem: usernameProblem });
    await this.checkNewPassword(input.password);
    const now = this.now();
    const passwordHash = await hashPassword(input.password);
    const account = await this.db.transaction(async (tx) => {
      const created = await store.insertAccount(
        tx,
        // A self-registered account starts its own tenant: group creation is unlocked for it.
        { username: input.username, name: input.name, passwordHash, passwordChangedAt: now, canCreateGroup: true },
        now,
      );
      if (!created) throw new AppError('UsernameTaken', 'The username is already taken');
      await writeAudit(tx, ctx, {
        action: 'account.register',
        outcome: 'success',
        actorId: created.id,
        actorUsername: created.username,
      });
      return created;
    });
    return this.issue(account);
  }

  private async present(account: AccountRow): Promise<User> {
    const url = (key: string | null) =>
      key ? this.deps.policies.readUrl(key, { windowSeconds: AVATAR_URL_WINDOW_SECONDS }) : Promise.resolve(null);
    return presentUser(account, { avatar: await url(account.avatar), signature: await url(account.signature) });
  }

  me(account: AccountRow): Promise<User> {
    return this.present(account);
  }

  /** A new avatar is the key of the caller's own upload from policies/avatars; null removes it. */
  async updateMe(account: AccountRow, change: UpdateMeRequest): Promise<User> {
    const avatar = change.avatar;
    const newAvatar = avatar !== undefined && avatar !== account.avatar;
    if (newAvatar && avatar !== null) await this.deps.policies.assertOwnedUpload(account.id, 'avatars', avatar);
    const updated = await store.updateProfile(this.db, account.id, change, this.now());
    // The replaced picture is no longer shown anywhere; a failed removal only leaves a stray file.
    if (newAvatar) await this.deps.policies.discard(account.avatar).catch(() => undefined);
    return this.present(updated);
  }

  async changePassword(account: AccountRow, input: ChangePasswordRequest, ctx: AuditContext): Promise<TokenInfo> {
    if (account.source !== 'password') {
      throw new AppError(
        'PasswordChangeNotAllowed',
        'Accounts that sign in with WeChat or single sign-on have no password to change',
      );
    }
    if (!(await verifyPassword(account.passwordHash, input.oldPassword))) {
      await writeAudit(this.db, ctx, {
        action: 'account.change_password',
        outcome: 'failure',
        actorId: account.id,
        actorUsername: account.username,
      });
      throw new AppError('OldPasswordIncorrect', 'The current password is incorrect');
    }
    return this.replacePassword(account, input.newPassword, ctx, 'account.change_password');
  }

  /** The password-expired path: no token; the old password proves the caller. */
  async updateExpiredPassword(
    input: { username: string; oldPwd: string; newPwd: string },
    ctx: AuditContext,
  ): Promise<TokenInfo> {
    const account = await this.verifyCredentials(input.username, input.oldPwd, ctx, 'account.update_password');
    if (account.source !== 'password') {
      throw new AppError('PasswordChangeNotAllowed', 'This account has no password to change');
    }
    return this.replacePassword(account, input.newPwd, ctx, 'account.update_password');
  }

  private async replacePassword(
    account: AccountRow,
    newPassword: string,
    ctx: AuditContext,
    action: string,
  ): Promise<TokenInfo> {
    await this.checkNewPassword(newPassword);
    if (await verifyPassword(account.passwordHash, newPassword)) {
      throw errors.validation('The new password must differ from the current one', {
        field: 'newPassword',
        problem: 'samePassword',
      });
    }
    const passwordHash = await hashPassword(newPassword);
    const updated = await this.db.transaction(async (tx) => {
      const row = await store.setPassword(tx, account.id, passwordHash, this.now());
      await writeAudit(tx, ctx, { action, outcome: 'success', actorId: account.id, actorUsername: account.username });
      return row;
    });
    return this.issue(updated);
  }

  async suggestions(account: AccountRow, q: string): Promise<AccountSuggestion[]> {
    const rows = await store.searchAccounts(this.db, account.id, q, SEARCH_LIMIT);
    return rows.map(presentSuggestion);
  }

  /** Masked mobile for the forgot-password page; unknown names look like names without a mobile. */
  async maskedMobile(username: string): Promise<{ mobile: string | null }> {
    const account = await store.findAccountByUsername(this.db, username.trim());
    return { mobile: account && account.disabled === 0 ? maskMobile(account.mobile) : null };
  }

  permissions(account: AccountRow): Promise<PermissionEntry[]> {
    return permissionsOf(this.db, account.id);
  }

  organizations(account: AccountRow): Promise<MyOrganization[]> {
    return organizationsOf(this.db, account.id);
  }
}

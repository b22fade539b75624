import crypto from 'node:crypto';
import {
  checkPassword,
  type BindMobileRequest,
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
import { assertNewPassword, hashPassword, verifyPassword } from '../../platform/passwords.js';
import type { Sealer } from '../../platform/sealed.js';
import type { SmsProvider } from '../../platform/sms/index.js';
import type { SmsStatus } from '@yyp/contracts';
import type { TokenClaims, TokenService } from '../../platform/tokens.js';
import { getDomainConfig } from '../domain/index.js';
import { loginGate, purgeLoginThrottle, recordLoginFailure, recordLoginSuccess } from './login-throttle.store.js';
import { clientAddress, RATE_RULES, RateLimiter } from './rate-limit.js';
import type { PoliciesService } from '../policies/index.js';
import { maskMobile, presentSuggestion, presentUser } from './accounts.presenter.js';
import { MobileService } from './mobile.service.js';
import { Registration } from './registration.js';
import { SmsAccounts } from './sms-account.js';
import * as store from './accounts.store.js';
import { organizationsOf, permissionsOf } from './permissions.js';

export interface AccountsDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  /** checks uploaded avatars and signs the URLs that show them */
  policies: PoliciesService;
  /** scales the per-address rate limits (RATE_LIMIT_MULTIPLIER, default 1; 0 turns them off) */
  rateLimitMultiplier?: number;
  /** the SMS service of the verification codes (platform/sms); absent or null: none (YYP_SMS=off) */
  sms?: SmsProvider | null;
  /** what the SMS service in effect is, for the platform admin */
  smsStatus?: SmsStatus | undefined;
  /** seals the platform's own SMS AccessKey secret (sms-account.ts) */
  sealer: Sealer;
}

/** A session's activity is written at most this often; inactivity is measured to this precision. */
export const SESSION_TOUCH_MS = 60_000;
/** How often an instance purges expired sessions, rate counters and stale lockout rows. */
const HOUSEKEEPING_MS = 10 * 60_000;

/** Avatar URLs stay the same for 6 hours (browser caching) and work for at least 6 more. */
const AVATAR_URL_WINDOW_SECONDS = 6 * 3600;

export class AccountsService {
  private readonly limiter: RateLimiter;
  private lastHousekeeping = Number.NEGATIVE_INFINITY;
  /** mobile binding and password reset by SMS code */
  readonly mobile: MobileService;
  private readonly registration: Registration;

  constructor(private readonly deps: AccountsDeps) {
    this.limiter = new RateLimiter(deps.db, deps.clock, deps.rateLimitMultiplier ?? 1);
    this.registration = new Registration({ db: deps.db, clock: deps.clock, limiter: this.limiter });
    this.mobile = new MobileService({
      db: deps.db,
      clock: deps.clock,
      limiter: this.limiter,
      sms: new SmsAccounts({
        db: deps.db,
        clock: deps.clock,
        sealer: deps.sealer,
        environment: deps.sms ?? null,
        environmentStatus: deps.smsStatus,
      }),
    });
  }

  private get db(): Db {
    return this.deps.db;
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  /** Signs a token and records its session (keyed by the token's jti). */
  private async issue(account: AccountRow, loginType: TokenInfo['loginType'] = 'normal'): Promise<TokenInfo> {
    const now = this.now();
    const jti = crypto.randomUUID();
    const info = await this.deps.tokens.issue({ sub: account.id, tv: account.tokenVersion, jti }, now, loginType);
    await store.insertSession(this.db, {
      id: jti,
      accountId: account.id,
      now,
      expiresAt: new Date(info.expires * 1000),
    });
    await this.housekeeping(now);
    return info;
  }

  /**
   * A session for an account another system vouched for (a hospital system's signed entry,
   * modules/entries): no password involved, so loginType sso. The caller has checked the account.
   */
  async issueSingleSignOn(account: AccountRow): Promise<TokenInfo> {
    return this.issue(account, 'sso');
  }

  /**
   * A session of loginType normal for an account WeChat vouched for (modules/wxlogin: the account is
   * linked to the WeChat identity and was checked there). Spec 001 names sso for the single sign-on
   * of another system only.
   */
  async issueWeChat(account: AccountRow): Promise<TokenInfo> {
    return this.issue(account, 'normal');
  }

  /** At most every HOUSEKEEPING_MS per instance, on a login: drops rows nothing needs any more. */
  private async housekeeping(now: Date): Promise<void> {
    if (now.getTime() - this.lastHousekeeping < HOUSEKEEPING_MS) return;
    this.lastHousekeeping = now.getTime();
    await store.purgeExpiredSessions(this.db, now);
    await this.limiter.purge();
    await purgeLoginThrottle(this.db, now);
    await this.mobile.purge(now);
  }

  /**
   * The account behind a verified token, its memberships and the token's session (one
   * statement). JsonWebTokenError when the account was disabled or its password changed;
   * TokenExpiredError when the session was ended by logout or has been idle longer than the
   * domain's maxInactiveMinutes.
   */
  async authenticate(token: string): Promise<{ account: AccountRow; scope: CallerScope; sessionId: string }> {
    const claims = await this.deps.tokens.verify(token, this.now());
    // Tokens from before sessions existed carry no id: their holders sign in again.
    if (!claims.jti) throw errors.badToken();
    return this.sessionCaller(claims as Required<TokenClaims>);
  }

  /**
   * The caller of verified claims (account, token version, session), checked as `authenticate`
   * checks a yyp token: also for tokens another part of yyp signed on a session (the OpenID Connect
   * provider's access tokens for viewers), so that logout, a password change or disabling the
   * account ends them too.
   */
  async sessionCaller(
    claims: Required<TokenClaims>,
  ): Promise<{ account: AccountRow; scope: CallerScope; sessionId: string }> {
    const now = this.now();
    const found = await store.findAccountWithSession(this.db, claims.sub, claims.jti);
    if (!found || found.account.disabled !== 0 || found.account.tokenVersion !== claims.tv) throw errors.badToken();
    const { session } = found;
    if (!session.found || session.revokedAt || !session.lastSeenAt) throw errors.tokenExpired();
    const idleMs = now.getTime() - session.lastSeenAt.getTime();
    // Activity is recorded to the minute, so the limit allows that minute on top (never less).
    if (session.maxInactiveMinutes > 0 && idleMs > session.maxInactiveMinutes * 60_000 + SESSION_TOUCH_MS) {
      throw errors.tokenExpired();
    }
    if (idleMs >= SESSION_TOUCH_MS) await store.touchSession(this.db, claims.jti, now, SESSION_TOUCH_MS);
    return { account: found.account, scope: found.scope, sessionId: claims.jti };
  }

  /** Ends the caller's session on the server: its token is refused from now on, on every instance. */
  async logout(account: AccountRow, sessionId: string, ctx: AuditContext): Promise<void> {
    await store.revokeSession(this.db, sessionId, this.now());
    await writeAudit(this.db, ctx, {
      action: 'account.logout',
      outcome: 'success',
      actorId: account.id,
      actorUsername: account.username,
    });
  }

  /**
   * Checks a username and password against the account, the rate limits of the caller's address
   * and the lockout (spec 000 §9, counted per address: login-throttle.ts). Unknown names are
   * throttled and answered exactly like wrong passwords.
   */
  private async verifyCredentials(
    username: string,
    password: string,
    ctx: AuditContext,
    action: string,
  ): Promise<AccountRow> {
    const key = username.toLowerCase();
    const address = clientAddress(ctx.ip ?? undefined);
    // Every password check counts against the caller's address. Failed ones count once more,
    // across names, but do not hold back a name that signed in from this address before: whoever
    // fails at a shared address (a ward behind one NAT) cannot keep its known users out.
    await this.limiter.hit(RATE_RULES.credentials, { address });
    const now = this.now();
    const gate = await loginGate(this.db, key, address, now);
    if (!gate.known) await this.limiter.check(RATE_RULES.credentialFailures, { address });
    if (gate.lockedUntil) {
      await writeAudit(this.db, ctx, {
        action,
        outcome: 'denied',
        actorUsername: username,
        details: { reason: 'locked', lock: gate.lock },
      });
      throw errors.loginLocked(Math.ceil((gate.lockedUntil.getTime() - now.getTime()) / 1000));
    }
    const account = await store.findAccountByUsername(this.db, username);
    const ok = await verifyPassword(account?.passwordHash ?? null, password);
    if (!ok) {
      const state = await recordLoginFailure(this.db, key, address, now);
      await this.limiter.record(RATE_RULES.credentialFailures, { address });
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
    await recordLoginSuccess(this.db, key, address, now);
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
    const account = await this.checkLogin(username, password, ctx);
    await writeAudit(this.db, ctx, {
      action: 'account.login',
      outcome: 'success',
      actorId: account.id,
      actorUsername: account.username,
    });
    return this.issue(account);
  }

  /**
   * What accounts/login-in checks before it signs in, for another way in that proves the account by
   * its password (linking a WeChat, modules/wxlogin): the rate limits, the lockout, the password, a
   * disabled account, an expired password. Refusals are audited as account.login; success is not.
   */
  async checkLogin(username: string, password: string, ctx: AuditContext): Promise<AccountRow> {
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
    return account;
  }

  private async checkNewPassword(password: string): Promise<void> {
    const domain = await getDomainConfig(this.db);
    await assertNewPassword(password, domain.requireStrongPwd);
  }

  /** POST accounts/register (registration.ts). */
  async register(input: { username: string; password: string; name: string }, ctx: AuditContext): Promise<TokenInfo> {
    return this.issue(await this.registration.withPassword(input, ctx));
  }

  /** A self-registered account without a password (registration.ts; modules/wxlogin). */
  registerWithoutPassword(
    input: { username: string; name: string; source: 'wx' },
    ctx: AuditContext,
    link: (tx: Db, account: AccountRow) => Promise<void>,
  ): Promise<AccountRow> {
    return this.registration.withoutPassword(input, ctx, link);
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
    // Where codes can be sent, a number is bound only with its code (accounts/me/mobile/bind):
    // password resets go to it. Removing one's number needs none.
    const newMobile = change.mobile !== undefined && change.mobile !== null && change.mobile !== account.mobile;
    if (newMobile && (await this.mobile.canSend())) {
      throw new AppError('MobileChangeNeedsCode', 'Bind a new mobile number with the code sent to it', {
        field: 'mobile',
      });
    }
    const avatar = change.avatar;
    const newAvatar = avatar !== undefined && avatar !== account.avatar;
    if (newAvatar && avatar !== null) await this.deps.policies.assertOwnedUpload(account.id, 'avatars', avatar);
    const updated = await store.updateProfile(this.db, account.id, change, this.now());
    // The replaced picture is no longer shown anywhere; a failed removal only leaves a stray file.
    if (newAvatar) await this.deps.policies.discard(account.avatar).catch(() => undefined);
    return this.present(updated);
  }

  /** Binds the number the code was sent to (MobileService); answers the user as now. */
  async bindMobile(account: AccountRow, input: BindMobileRequest, ctx: AuditContext): Promise<User> {
    return this.present(await this.mobile.bindMobile(account, input, ctx));
  }

  /** A password check by a signed-in caller: counted against its address, failed ones once more. */
  private async gatePasswordCheck(address: string): Promise<void> {
    await this.limiter.hit(RATE_RULES.credentials, { address });
    await this.limiter.check(RATE_RULES.credentialFailures, { address });
  }

  async changePassword(account: AccountRow, input: ChangePasswordRequest, ctx: AuditContext): Promise<TokenInfo> {
    if (account.source !== 'password') {
      throw new AppError(
        'PasswordChangeNotAllowed',
        'Accounts that sign in with WeChat or single sign-on have no password to change',
      );
    }
    const address = clientAddress(ctx.ip ?? undefined);
    await this.gatePasswordCheck(address);
    if (!(await verifyPassword(account.passwordHash, input.oldPassword))) {
      await this.limiter.record(RATE_RULES.credentialFailures, { address });
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
  async maskedMobile(username: string, ctx: AuditContext): Promise<{ mobile: string | null }> {
    await this.limiter.hit(RATE_RULES.lookup, { address: clientAddress(ctx.ip ?? undefined) });
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

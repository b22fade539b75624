import crypto from 'node:crypto';
import {
  WX_LOGIN_MINUTES,
  type AuthAnswer,
  type WxBindRequest,
  type WxCallbackAnswer,
  type WxLink,
  type WxRegisterRequest,
  type WxSignedIn,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { WxLoginError, type WxLoginProvider, type WxUserInfo } from '../../platform/wxlogin/index.js';
import { findAccountById, type AccountsService } from '../accounts/index.js';
import { getDomainConfig } from '../domain/index.js';
import * as store from './wxlogin.store.js';

export interface WxLoginDeps {
  db: Db;
  clock: Clock;
  /** null: YYP_WX_LOGIN=off */
  provider: WxLoginProvider | null;
  accounts: Pick<AccountsService, 'checkLogin' | 'issueWeChat' | 'registerWithoutPassword'>;
}

const WINDOW_MS = WX_LOGIN_MINUTES * 60_000;
/** Started logins the table may hold at once (an anonymous caller cannot fill it). */
const MAX_OPEN_ATTEMPTS = 2000;

export const wxErrors = {
  notConfigured: () => new AppError('ServiceNotConfigured', 'WeChat login is not configured'),
  stateInvalid: () => new AppError('WxStateInvalid', 'The WeChat login is unknown, used or expired; start it again'),
  ticketInvalid: () => new AppError('WxTicketInvalid', 'The WeChat sign-in is unknown, used or expired; scan again'),
  providerError: () => new AppError('WxProviderError', 'WeChat refused the login or could not be reached'),
  notAllowed: () => new AppError('WxIdentityNotAllowed', 'The account linked to this WeChat may not sign in'),
  alreadyLinked: () => new AppError('WxAlreadyLinked', 'This account or this WeChat is linked already'),
  unlinkNotAllowed: () =>
    new AppError('WxUnlinkNotAllowed', 'The account has no password: without WeChat it could not sign in'),
};

const hash = (value: string) => crypto.createHash('sha256').update(value, 'utf8').digest('base64url');
const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** The identity of a WeChat user: the unionid when WeChat gives one (the same across the Open Platform's apps), else the openid. */
export const subjectOf = (user: { openid: string; unionid: string | null }) => user.unionid ?? user.openid;

/**
 * WeChat website login (issue 27; docs/wechat-login.md). GET accounts/auth?type=wx starts a login
 * (a state kept hashed server-side, single use, ten minutes) and answers WeChat's QR-code page;
 * /loginCallback hands WeChat's code and the state to callback(), which signs in the account the
 * identity is linked to, or answers a ticket (single use, ten minutes) with which the person binds
 * the identity to an existing account by its password, or creates one.
 */
export class WxLoginService {
  constructor(private readonly deps: WxLoginDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  get configured(): boolean {
    return this.deps.provider !== null;
  }

  private provider(): WxLoginProvider {
    if (!this.deps.provider) throw wxErrors.notConfigured();
    return this.deps.provider;
  }

  /** GET accounts/auth?type=wx: the QR-code page, WeChat coming back to `<site>/loginCallback?source=wx`. */
  async start(redirect: string | undefined, loginCallback: string): Promise<AuthAnswer> {
    const provider = this.provider();
    const now = this.deps.clock.now();
    const since = new Date(now.getTime() - WINDOW_MS);
    await store.purge(this.db, since);
    if ((await store.countAttempts(this.db, since)) >= MAX_OPEN_ATTEMPTS) {
      throw new AppError('TooManyRequests', 'Too many WeChat logins started; retry in a few minutes');
    }
    const state = randomToken();
    await store.insertAttempt(this.db, { stateHash: hash(state), redirect: redirect ?? null, createdAt: now });
    const url = provider.authorizeUrl({ redirectUri: `${loginCallback}?source=wx`, state });
    return { providers: [], url, wx: true };
  }

  /** GET auth/wx/callback?code&state&source: the state (once), WeChat's code (once), the person. */
  async callback(query: { code: string; state: string }, ctx: AuditContext): Promise<WxCallbackAnswer> {
    const provider = this.provider();
    const now = this.deps.clock.now();
    const attempt = await store.takeAttempt(this.db, hash(query.state));
    if (!attempt || now.getTime() - attempt.createdAt.getTime() > WINDOW_MS) {
      await this.refused(ctx, 'denied', attempt ? 'state_expired' : 'state_unknown');
      throw wxErrors.stateInvalid();
    }
    let user: WxUserInfo;
    try {
      user = await provider.userInfo(await provider.exchange(query.code));
    } catch (err) {
      if (!(err instanceof WxLoginError)) throw err;
      await this.refused(ctx, 'failure', err.reason, undefined, err.errcode);
      throw wxErrors.providerError();
    }
    const subject = subjectOf(user);
    const linked = await store.findIdentity(this.db, subject);
    if (linked) {
      const account = await findAccountById(this.db, linked.accountId);
      if (!account || account.disabled !== 0 || account.isPlatformAdmin) {
        const reason = !account ? 'account_missing' : account.disabled !== 0 ? 'account_disabled' : 'platform_admin';
        await this.refused(ctx, 'denied', reason, account);
        throw wxErrors.notAllowed();
      }
      await store.touchIdentity(this.db, subject, user, now);
      const token = await this.signIn(account, ctx, { created: false, linked: false });
      return { status: 'signedIn', token, username: account.username, redirect: attempt.redirect };
    }
    const ticket = randomToken();
    await store.insertTicket(this.db, {
      ticketHash: hash(ticket),
      subject,
      openid: user.openid,
      unionid: user.unionid,
      nickname: user.nickname,
      headimgurl: user.headimgurl,
      redirect: attempt.redirect,
      createdAt: now,
    });
    const domain = await getDomainConfig(this.db);
    return {
      status: 'bind',
      ticket,
      nickname: user.nickname,
      headimgurl: user.headimgurl,
      canRegister: domain.allowRegistration,
    };
  }

  /** POST auth/wx/bind: the password proves the account (as at accounts/login-in); then linked and signed in. */
  async bind(input: WxBindRequest & { username: string }, ctx: AuditContext): Promise<WxSignedIn> {
    this.provider();
    // The password is checked first: a wrong one leaves the ticket for another try.
    const account = await this.deps.accounts.checkLogin(input.username, input.password, ctx);
    // A platform admin signs in with the password only, as single sign-on refuses them too: the
    // ticket stays, for another account.
    if (account.isPlatformAdmin) {
      await this.refused(ctx, 'denied', 'platform_admin', account);
      throw wxErrors.notAllowed();
    }
    const ticket = await this.takeTicket(input.ticket, ctx);
    const now = this.deps.clock.now();
    const linked = await this.db.transaction(async (tx) => {
      if (!(await store.linkIdentity(tx, identityOf(ticket, account.id), now))) return false;
      await writeAudit(tx, ctx, {
        action: 'account.wx.link',
        outcome: 'success',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        targetType: 'account',
        targetId: account.id,
        details: { subject: ticket.subject },
      });
      return true;
    });
    if (!linked) {
      // Audited outside the transaction: one connection (PGlite) is held by it.
      await this.refused(ctx, 'denied', 'already_linked', account);
      throw wxErrors.alreadyLinked();
    }
    const token = await this.signIn(account, ctx, { created: false, linked: true });
    return { token, username: account.username, redirect: ticket.redirect };
  }

  /** POST auth/wx/register: a new account without a password (source wx), linked, signed in. */
  async register(
    input: WxRegisterRequest & { username: string; name: string },
    ctx: AuditContext,
  ): Promise<WxSignedIn> {
    this.provider();
    // Refused before the ticket is taken, so the person can still bind to an existing account.
    if (!(await getDomainConfig(this.db)).allowRegistration) {
      await this.refused(ctx, 'denied', 'registration_closed');
      throw new AppError('RegistrationClosed', 'Registration is not open on this domain');
    }
    const ticket = await this.takeTicket(input.ticket, ctx);
    const now = this.deps.clock.now();
    const account = await this.deps.accounts.registerWithoutPassword(
      { username: input.username, name: input.name, source: 'wx' },
      ctx,
      async (tx, created) => {
        if (!(await store.linkIdentity(tx, identityOf(ticket, created.id), now))) throw wxErrors.alreadyLinked();
      },
    );
    const token = await this.signIn(account, ctx, { created: true, linked: true });
    return { token, username: account.username, redirect: ticket.redirect };
  }

  /** GET accounts/me/wx. */
  async link(account: AccountRow): Promise<WxLink> {
    const row = await store.identityOf(this.db, account.id);
    return {
      linked: row !== undefined,
      nickname: row?.nickname ?? null,
      headimgurl: row?.headimgurl || null,
      linkedAt: row ? row.createdAt.toISOString() : null,
      canUnlink: row !== undefined && account.passwordHash !== null,
    };
  }

  /** DELETE accounts/me/wx: refused for an account without a password (it could not sign in any more). */
  async unlink(account: AccountRow, ctx: AuditContext): Promise<void> {
    const row = await store.identityOf(this.db, account.id);
    if (!row) throw new AppError('NotFound', 'No WeChat is linked to this account');
    if (account.passwordHash === null) {
      await writeAudit(this.db, ctx, {
        action: 'account.wx.unlink',
        outcome: 'denied',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        details: { reason: 'no_password' },
      });
      throw wxErrors.unlinkNotAllowed();
    }
    await this.db.transaction(async (tx) => {
      await store.unlink(tx, account.id);
      await writeAudit(tx, ctx, {
        action: 'account.wx.unlink',
        outcome: 'success',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        targetType: 'account',
        targetId: account.id,
        details: { subject: row.subject },
      });
    });
  }

  private async takeTicket(ticket: string, ctx: AuditContext): Promise<store.WxTicketRow> {
    const row = await store.takeTicket(this.db, hash(ticket));
    if (!row || this.deps.clock.now().getTime() - row.createdAt.getTime() > WINDOW_MS) {
      await this.refused(ctx, 'denied', row ? 'ticket_expired' : 'ticket_unknown');
      throw wxErrors.ticketInvalid();
    }
    return row;
  }

  private async signIn(account: AccountRow, ctx: AuditContext, details: { created: boolean; linked: boolean }) {
    await writeAudit(this.db, ctx, {
      action: 'account.login',
      outcome: 'success',
      category: 'security',
      actorId: account.id,
      actorUsername: account.username,
      details: { method: 'wx', ...details },
    });
    return this.deps.accounts.issueWeChat(account);
  }

  private async refused(
    ctx: AuditContext,
    outcome: 'denied' | 'failure',
    reason: string,
    account?: AccountRow,
    errcode?: number,
  ): Promise<void> {
    await writeAudit(this.db, ctx, {
      action: 'account.login',
      outcome,
      category: 'security',
      actorId: account?.id ?? null,
      actorUsername: account?.username ?? null,
      details: { method: 'wx', reason, ...(errcode !== undefined ? { errcode } : {}) },
    });
  }
}

function identityOf(ticket: store.WxTicketRow, accountId: string) {
  return {
    subject: ticket.subject,
    openid: ticket.openid,
    unionid: ticket.unionid,
    accountId,
    nickname: ticket.nickname,
    headimgurl: ticket.headimgurl,
  };
}

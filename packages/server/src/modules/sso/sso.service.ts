import crypto from 'node:crypto';
import {
  SSO_ATTEMPT_MINUTES,
  type AuthAnswer,
  type LoginUrl,
  type SsoLinks,
  type SsoProviderInput,
  type SsoTokenInfo,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { authQuerySchema, authTokenQuerySchema } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { OidcError, randomToken, type OidcClient, type OidcProviderSettings } from '../../platform/oidc.js';
import type { Sealer } from '../../platform/sealed.js';
import { insertAccount, type AccountsService } from '../accounts/index.js';
import { claimValue, usernameFromClaim } from './sso-claims.js';
import { SsoProviders } from './sso-providers.js';
import * as store from './sso.store.js';

export interface SsoDeps {
  db: Db;
  clock: Clock;
  /** signs the user in (a session of loginType sso): the accounts module's issueSingleSignOn */
  accounts: Pick<AccountsService, 'issueSingleSignOn'>;
  oidc: OidcClient;
  /** seals the providers' client secrets at rest (purpose 'sso-client-secret') */
  sealer: Sealer;
  /** WeChat login, which GET accounts/auth?type=wx starts (modules/wxlogin); absent: not configured */
  wx?: { configured(): boolean; start(redirect: string | undefined, loginCallback: string): Promise<AuthAnswer> };
}

/** Started sign-ins a group may hold at once (an anonymous caller cannot fill the table). */
const MAX_OPEN_ATTEMPTS = 500;
const ATTEMPT_MS = SSO_ATTEMPT_MINUTES * 60_000;
const MOBILE = /^\+?[0-9]{6,20}$/;
/** Where a linking sign-in returns: the personal settings page that started it. */
const LINK_RETURN = '/settings/mobile?linked=sso';

export const ssoErrors = {
  stateInvalid: () => new AppError('SsoStateInvalid', 'The sign-in is unknown, used or expired; start it again'),
  providerError: () => new AppError('SsoProviderError', 'The identity provider refused the sign-in'),
  identityNotAllowed: () =>
    new AppError('SsoIdentityNotAllowed', 'This identity may not sign in through this group’s provider'),
  alreadyLinked: () =>
    new AppError('SsoAlreadyLinked', 'This account or this identity is linked in that group already'),
  unlinkNotAllowed: () =>
    new AppError('SsoUnlinkNotAllowed', 'The account has no password: without its single sign-on it could not sign in'),
  creationDisabled: () =>
    new AppError('SsoAccountCreationDisabled', 'No account is linked to this identity and the group creates none'),
};

const hashState = (state: string) => crypto.createHash('sha256').update(state, 'utf8').digest('base64url');

/**
 * OpenID Connect single sign-on per group (issue 27; docs/sso.md): the group's admins configure
 * their provider; GET accounts/auth starts a sign-in (state, PKCE, nonce kept server-side, single
 * use, ten minutes), GET auth/token finishes it. An identity signs in only to the account it is
 * linked to in that group, which must be a member of the group, enabled and no platform admin.
 */
export class SsoService {
  /** the groups' provider settings (sso-providers.ts) */
  readonly providers: SsoProviders;

  constructor(private readonly deps: SsoDeps) {
    this.providers = new SsoProviders(deps);
  }

  private get db(): Db {
    return this.deps.db;
  }

  private settings(row: store.SsoProviderRow): OidcProviderSettings {
    const secret = this.deps.sealer.open(row.clientSecretSealed);
    if (secret === null) throw new OidcError('secret_unreadable', 'The client secret cannot be opened');
    return { issuer: row.issuer, clientId: row.clientId, clientSecret: secret, scopes: row.scopes };
  }

  /** GET accounts/auth?type: the providers (no group) or the authorization request of one group's. */
  async auth(query: z.infer<typeof authQuerySchema>, redirectUri: string, ctx: AuditContext): Promise<AuthAnswer> {
    if (query.type === 'wx') {
      if (!this.deps.wx?.configured()) throw new AppError('ServiceNotConfigured', 'WeChat login is not configured');
      return this.deps.wx.start(query.redirect, redirectUri);
    }
    if (query.groupId === undefined) {
      return { providers: await store.enabledProviders(this.db), url: null, wx: this.deps.wx?.configured() ?? false };
    }
    return this.begin(query.groupId, query.redirect ?? null, redirectUri, ctx, null);
  }

  /**
   * A sign-in at the group's provider: the state, PKCE verifier and nonce kept (hashed state, ten
   * minutes), the authorization request's url answered. `linkAccountId`: the account to link the
   * identity to when it comes back (POST accounts/me/sso/{groupId}/link).
   */
  private async begin(
    groupId: string,
    redirect: string | null,
    redirectUri: string,
    ctx: AuditContext,
    linkAccountId: string | null,
  ): Promise<AuthAnswer> {
    const provider = await store.findProvider(this.db, groupId);
    if (!provider || !provider.enabled) throw errors.notFound('Single sign-on provider');
    const now = this.deps.clock.now();
    await store.purgeAttempts(this.db, new Date(now.getTime() - ATTEMPT_MS));
    if ((await store.countAttempts(this.db, groupId, new Date(now.getTime() - ATTEMPT_MS))) >= MAX_OPEN_ATTEMPTS) {
      throw new AppError('TooManyRequests', 'Too many sign-ins started; retry in a few minutes');
    }
    const request = { redirectUri, state: randomToken(), nonce: randomToken(), codeVerifier: randomToken() };
    let url: string;
    try {
      url = await this.deps.oidc.authorizationUrl(this.settings(provider), request);
    } catch (err) {
      if (!(err instanceof OidcError)) throw err;
      await this.refused(ctx, groupId, 'failure', err.reason);
      throw ssoErrors.providerError();
    }
    await store.insertAttempt(this.db, {
      stateHash: hashState(request.state),
      groupId,
      codeVerifier: request.codeVerifier,
      nonce: request.nonce,
      redirect,
      linkAccountId,
      createdAt: now,
    });
    return { providers: [], url };
  }

  /** GET auth/token?code&state: finishes the sign-in the state names (once) and signs the user in. */
  async token(
    query: z.infer<typeof authTokenQuerySchema> & { iss?: string | undefined },
    redirectUri: string,
    ctx: AuditContext,
  ): Promise<SsoTokenInfo> {
    const now = this.deps.clock.now();
    const attempt = await store.takeAttempt(this.db, hashState(query.state));
    if (!attempt || now.getTime() - attempt.createdAt.getTime() > ATTEMPT_MS) {
      await this.refused(ctx, attempt?.groupId ?? null, 'denied', attempt ? 'state_expired' : 'state_unknown');
      throw ssoErrors.stateInvalid();
    }
    const { groupId } = attempt;
    const provider = await store.findProvider(this.db, groupId);
    if (!provider || !provider.enabled) {
      await this.refused(ctx, groupId, 'denied', 'provider_disabled');
      throw ssoErrors.providerError();
    }
    let claims: Record<string, unknown>;
    try {
      claims = await this.deps.oidc.complete(
        this.settings(provider),
        { redirectUri, state: query.state, nonce: attempt.nonce, codeVerifier: attempt.codeVerifier },
        { code: query.code, state: query.state, iss: query.iss },
        now,
      );
    } catch (err) {
      if (!(err instanceof OidcError)) throw err;
      await this.refused(ctx, groupId, 'failure', err.reason);
      throw ssoErrors.providerError();
    }
    const issuer = typeof claims.iss === 'string' ? claims.iss : provider.issuer;
    const subject = typeof claims.sub === 'string' ? claims.sub : '';
    if (!subject) {
      await this.refused(ctx, groupId, 'failure', 'no_subject');
      throw ssoErrors.providerError();
    }
    const identity = { groupId, issuer, subject };
    const linked = await store.findIdentity(this.db, groupId, issuer, subject);
    let account: AccountRow;
    let created = false;
    if (attempt.linkAccountId) {
      account = await this.linkAccount(attempt.linkAccountId, identity, linked, now, ctx);
    } else if (linked) {
      const found = await store.findAccount(this.db, linked.accountId);
      const reason = found ? await this.refusal(found, groupId) : 'account_missing';
      if (!found || reason) {
        await this.refused(ctx, groupId, 'denied', reason ?? 'account_missing', found, identity);
        throw ssoErrors.identityNotAllowed();
      }
      account = found;
      await store.touchIdentity(this.db, groupId, issuer, subject, now);
    } else {
      if (!provider.allowCreate) {
        await this.refused(ctx, groupId, 'denied', 'creation_disabled', undefined, identity);
        throw ssoErrors.creationDisabled();
      }
      account = await this.create(provider, claims, identity, now, ctx);
      created = true;
    }
    await writeAudit(this.db, ctx, {
      action: 'account.login',
      outcome: 'success',
      category: 'security',
      actorId: account.id,
      actorUsername: account.username,
      targetType: 'group',
      targetId: groupId,
      details: { method: 'sso', issuer, subject, created, linked: attempt.linkAccountId !== null },
    });
    const info = await this.deps.accounts.issueSingleSignOn(account);
    return { ...info, username: account.username, groupId, redirect: attempt.redirect };
  }

  /**
   * The identity a linking sign-in came back with, linked to the account that started it: refused
   * when the account may not sign in there, or the identity is another account's; its own is kept.
   */
  private async linkAccount(
    accountId: string,
    identity: { groupId: string; issuer: string; subject: string },
    linked: { accountId: string } | undefined,
    now: Date,
    ctx: AuditContext,
  ): Promise<AccountRow> {
    const { groupId } = identity;
    const found = await store.findAccount(this.db, accountId);
    const reason = found ? await this.refusal(found, groupId) : 'account_missing';
    if (!found || reason) {
      await this.refused(ctx, groupId, 'denied', reason ?? 'account_missing', found, identity);
      throw ssoErrors.identityNotAllowed();
    }
    if (linked?.accountId === found.id) {
      await store.touchIdentity(this.db, groupId, identity.issuer, identity.subject, now);
      return found;
    }
    if (linked) {
      await this.refused(ctx, groupId, 'denied', 'identity_linked_elsewhere', found, identity);
      throw ssoErrors.alreadyLinked();
    }
    await this.db.transaction(async (tx) => {
      // false: the identity, or another identity of this account in the group, was linked meanwhile
      if (!(await store.linkIdentity(tx, { ...identity, accountId: found.id }, now))) throw ssoErrors.alreadyLinked();
      await writeAudit(tx, ctx, {
        action: 'account.sso.link',
        outcome: 'success',
        category: 'security',
        actorId: found.id,
        actorUsername: found.username,
        targetType: 'group',
        targetId: groupId,
        details: { issuer: identity.issuer, subject: identity.subject },
      });
    });
    return found;
  }

  /** GET accounts/me/sso: the account's links and the enabled providers of its groups it may still link. */
  async links(account: AccountRow): Promise<SsoLinks> {
    const [linked, groups, providers] = await Promise.all([
      store.linksOf(this.db, account.id),
      store.groupsOf(this.db, account.id),
      store.enabledProviders(this.db),
    ]);
    const taken = new Set(linked.map((l) => l.groupId));
    return {
      linked: linked.map((l) => ({
        groupId: l.groupId,
        label: l.label,
        issuer: l.issuer,
        linkedAt: l.createdAt.toISOString(),
        lastLoginAt: l.lastLoginAt?.toISOString() ?? null,
      })),
      offered: account.isPlatformAdmin
        ? []
        : providers.filter((p) => groups.includes(p.groupId) && !taken.has(p.groupId)),
      hasPassword: account.passwordHash !== null,
    };
  }

  /** POST accounts/me/sso/{groupId}/link: a sign-in at the group's provider whose identity then links to `account`. */
  async startLink(account: AccountRow, groupId: string, redirectUri: string, ctx: AuditContext): Promise<AuthAnswer> {
    const reason = await this.refusal(account, groupId);
    if (reason === 'not_a_member') throw errors.notFound('Single sign-on provider');
    if (reason) throw ssoErrors.identityNotAllowed();
    if (await store.linkOf(this.db, groupId, account.id)) throw ssoErrors.alreadyLinked();
    return this.begin(groupId, LINK_RETURN, redirectUri, ctx, account.id);
  }

  /** DELETE accounts/me/sso/{groupId}: the account's link there removed (not the last way in of an account without a password). */
  async unlink(account: AccountRow, groupId: string, ctx: AuditContext): Promise<void> {
    if (account.passwordHash === null) throw ssoErrors.unlinkNotAllowed();
    await this.db.transaction(async (tx) => {
      const removed = await store.deleteLink(tx, groupId, account.id);
      if (!removed) throw errors.notFound('Single sign-on link');
      await writeAudit(tx, ctx, {
        action: 'account.sso.unlink',
        outcome: 'success',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        targetType: 'group',
        targetId: groupId,
        details: { issuer: removed.issuer, subject: removed.subject },
      });
    });
  }

  /** Why a linked account may not sign in through the group's provider, or null. */
  private async refusal(account: AccountRow, groupId: string): Promise<string | null> {
    if (account.disabled !== 0) return 'account_disabled';
    if (account.isPlatformAdmin) return 'platform_admin';
    const groups = await store.groupsOf(this.db, account.id);
    return groups.includes(groupId) ? null : 'not_a_member';
  }

  /** A first login where the group allows it: a new account (no password, source sso), member of the group. */
  private async create(
    provider: store.SsoProviderRow,
    claims: Record<string, unknown>,
    identity: { groupId: string; issuer: string; subject: string },
    now: Date,
    ctx: AuditContext,
  ): Promise<AccountRow> {
    const base =
      usernameFromClaim(claimValue(claims, provider.usernameClaim)) ??
      usernameFromClaim(claimValue(claims, 'email')) ??
      'sso';
    const username = await this.uniqueUsername(base);
    const name = (claimValue(claims, provider.nameClaim) ?? username).slice(0, 64);
    const mobile = claimValue(claims, provider.mobileClaim);
    return this.db.transaction(async (tx) => {
      const account = await insertAccount(
        tx,
        { username, name, passwordHash: null, source: 'sso', mobile: mobile && MOBILE.test(mobile) ? mobile : null },
        now,
      );
      if (!account) throw new AppError('Conflict', 'The username was taken meanwhile; sign in again');
      await store.addMember(tx, identity.groupId, account.id, now);
      if (!(await store.linkIdentity(tx, { ...identity, accountId: account.id }, now))) {
        throw new AppError('Conflict', 'The identity was linked meanwhile; sign in again');
      }
      await writeAudit(tx, ctx, {
        action: 'account.create',
        outcome: 'success',
        category: 'security',
        actorId: account.id,
        actorUsername: account.username,
        targetType: 'account',
        targetId: account.id,
        details: { method: 'sso', groupId: identity.groupId, issuer: identity.issuer, subject: identity.subject },
      });
      return account;
    });
  }

  private async uniqueUsername(base: string): Promise<string> {
    const candidates = [base, ...Array.from({ length: 20 }, (_, i) => `${base}${i + 2}`)];
    const taken = await store.takenUsernames(this.db, candidates);
    const free = candidates.find((c) => !taken.has(c.toLowerCase()));
    return free ?? `${base}-${crypto.randomBytes(3).toString('hex')}`;
  }

  private async refused(
    ctx: AuditContext,
    groupId: string | null,
    outcome: 'denied' | 'failure',
    reason: string,
    account?: AccountRow,
    identity?: { issuer: string; subject: string },
  ): Promise<void> {
    await writeAudit(this.db, ctx, {
      action: 'account.login',
      outcome,
      category: 'security',
      actorId: account?.id ?? null,
      actorUsername: account?.username ?? null,
      ...(groupId ? { targetType: 'group', targetId: groupId } : {}),
      details: { method: 'sso', reason, ...(identity ? { issuer: identity.issuer, subject: identity.subject } : {}) },
    });
  }

  /** GET login-url?groupId (see contracts loginUrlSchema). */
  async loginUrl(groupId: string | undefined): Promise<LoginUrl> {
    if (!groupId) return { url: null };
    const provider = await store.findProvider(this.db, groupId);
    return { url: provider?.enabled ? `/login?sso=${encodeURIComponent(groupId)}` : null };
  }
}

export type { SsoProviderInput };

import crypto from 'node:crypto';
import {
  checkUsername,
  SSO_ATTEMPT_MINUTES,
  USERNAME_MAX,
  type AuthAnswer,
  type LoginUrl,
  type SsoProviderAnswer,
  type SsoProviderInput,
  type SsoStatusRow,
  type SsoTokenInfo,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { authQuerySchema, authTokenQuerySchema, ssoProviderInputSchema } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { OidcError, randomToken, type OidcClient, type OidcProviderSettings } from '../../platform/oidc.js';
import type { Sealer } from '../../platform/sealed.js';
import { insertAccount, type AccountsService } from '../accounts/index.js';
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

export const ssoErrors = {
  stateInvalid: () => new AppError('SsoStateInvalid', 'The sign-in is unknown, used or expired; start it again'),
  providerError: () => new AppError('SsoProviderError', 'The identity provider refused the sign-in'),
  identityNotAllowed: () =>
    new AppError('SsoIdentityNotAllowed', 'This identity may not sign in through this group’s provider'),
  creationDisabled: () =>
    new AppError('SsoAccountCreationDisabled', 'No account is linked to this identity and the group creates none'),
};

const hashState = (state: string) => crypto.createHash('sha256').update(state, 'utf8').digest('base64url');

/** The claim at a name, dotted names reaching into objects (e.g. "ext.staff_id"); a string or null. */
export function claimValue(claims: Record<string, unknown>, name: string): string | null {
  if (!name) return null;
  let value: unknown = name in claims ? claims[name] : undefined;
  if (value === undefined && name.includes('.')) {
    value = name.split('.').reduce<unknown>((at, key) => {
      return at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
    }, claims);
  }
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** A username yyp accepts from a claim: the allowed characters kept (an e-mail gives its local part). */
export function usernameFromClaim(value: string | null): string | null {
  if (!value) return null;
  const local = value.includes('@') ? value.slice(0, value.indexOf('@')) : value;
  const cleaned = local.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  const cut = cleaned.slice(0, USERNAME_MAX - 4);
  return cut && checkUsername(cut) === null ? cut : null;
}

/**
 * OpenID Connect single sign-on per group (issue 27; docs/sso.md): the group's admins configure
 * their provider; GET accounts/auth starts a sign-in (state, PKCE, nonce kept server-side, single
 * use, ten minutes), GET auth/token finishes it. An identity signs in only to the account it is
 * linked to in that group, which must be a member of the group, enabled and no platform admin.
 */
export class SsoService {
  constructor(private readonly deps: SsoDeps) {}

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
    const groupId = query.groupId;
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
      redirect: query.redirect ?? null,
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
    if (linked) {
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
      details: { method: 'sso', issuer, subject, created },
    });
    const info = await this.deps.accounts.issueSingleSignOn(account);
    return { ...info, username: account.username, groupId, redirect: attempt.redirect };
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

  /** GET groups/{id}/sso: the group's provider without its secret. */
  async provider(groupId: string, redirectUri: string): Promise<SsoProviderAnswer> {
    const row = await store.findProvider(this.db, groupId);
    return { provider: row ? present(row, redirectUri) : null, redirectUri };
  }

  /** PUT groups/{id}/sso: checks the issuer's discovery with the given client, then saves (secret sealed). */
  async saveProvider(
    actor: AccountRow,
    groupId: string,
    input: z.infer<typeof ssoProviderInputSchema>,
    redirectUri: string,
    ctx: AuditContext,
  ): Promise<SsoProviderAnswer> {
    const existing = await store.findProvider(this.db, groupId);
    const secret = input.clientSecret ?? (existing ? this.deps.sealer.open(existing.clientSecretSealed) : null);
    if (secret === null) {
      throw errors.validation('The client secret is required', { field: 'clientSecret', problem: 'required' });
    }
    const settings = { issuer: input.issuer, clientId: input.clientId, clientSecret: secret, scopes: input.scopes };
    try {
      await this.deps.oidc.discover(settings);
    } catch (err) {
      if (!(err instanceof OidcError)) throw err;
      throw new AppError('SsoProviderError', `The provider's discovery failed (${err.reason})`);
    }
    const row = await this.db.transaction(async (tx) => {
      const saved = await store.saveProvider(
        tx,
        groupId,
        {
          label: input.label,
          issuer: input.issuer,
          clientId: input.clientId,
          clientSecretSealed: this.deps.sealer.seal(secret),
          scopes: input.scopes,
          usernameClaim: input.usernameClaim,
          nameClaim: input.nameClaim,
          mobileClaim: input.mobileClaim,
          allowCreate: input.allowCreate,
          enabled: input.enabled,
        },
        this.deps.clock.now(),
      );
      await writeAudit(tx, ctx, {
        action: 'group.sso',
        outcome: 'success',
        category: 'security',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'group',
        targetId: groupId,
        details: {
          issuer: input.issuer,
          clientId: input.clientId,
          secretChanged: input.clientSecret !== undefined,
          allowCreate: input.allowCreate,
          enabled: input.enabled,
          created: !existing,
        },
      });
      return saved;
    });
    return { provider: present(row, redirectUri), redirectUri };
  }

  /** DELETE groups/{id}/sso: the provider goes (its identities stay, unused until one is configured again). */
  async removeProvider(actor: AccountRow, groupId: string, ctx: AuditContext): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await store.deleteProvider(tx, groupId))) throw errors.notFound('Single sign-on provider');
      await writeAudit(tx, ctx, {
        action: 'group.sso.remove',
        outcome: 'success',
        category: 'security',
        actorId: actor.id,
        actorUsername: actor.username,
        targetType: 'group',
        targetId: groupId,
      });
    });
  }

  /** GET admin/sso-providers (platform admins). */
  async status(): Promise<SsoStatusRow[]> {
    const rows = await store.providerStatus(this.db);
    return rows.map((r) => ({
      ...r,
      identities: Number(r.identities),
      lastLoginAt: r.lastLoginAt ? new Date(r.lastLoginAt).toISOString() : null,
      updatedAt: r.updatedAt.toISOString(),
    }));
  }
}

function present(row: store.SsoProviderRow, redirectUri: string) {
  return {
    groupId: row.groupId,
    label: row.label,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecretSet: true,
    scopes: row.scopes,
    usernameClaim: row.usernameClaim,
    nameClaim: row.nameClaim,
    mobileClaim: row.mobileClaim,
    allowCreate: row.allowCreate,
    enabled: row.enabled,
    redirectUri,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type { SsoProviderInput };

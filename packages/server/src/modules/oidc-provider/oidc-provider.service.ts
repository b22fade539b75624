import crypto from 'node:crypto';
import type { JWK } from 'jose';
import type { OidcDecision, OidcInteraction } from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import type { CallerScope } from '../../platform/access.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { OidcProviderClient } from '../../platform/config.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';
import type { TokenClaims } from '../../platform/tokens.js';
import type { OidcSigningKey } from './oidc-provider.keys.js';
import { isAccessToken, OidcJwt, type TokenAnswer } from './oidc-provider.jwt.js';
import * as store from './oidc-provider.store.js';

/** An authorization code is exchanged within a minute, once. */
const CODE_SECONDS = 60;
/** The sign-in page's authorization request is good for 10 minutes (time to sign in). */
const INTERACTION_SECONDS = 600;
const INTERACTION_PURPOSE = 'oidc-interaction';
const PKCE = /^[A-Za-z0-9._~-]{43,128}$/;

export type Caller = { account: AccountRow; scope: CallerScope; sessionId: string };

export interface OidcProviderDeps {
  db: Db;
  clock: Clock;
  signer: Signer;
  /** PUBLIC_BASE_URL: the issuer is <base>/yyp/oidc, the sign-in page <base>/oidc/sign-in */
  publicBaseUrl: string;
  clients: readonly OidcProviderClient[];
  key: OidcSigningKey;
  /** how long a grant's refresh token works at most (the yyp token lifetime, TOKEN_TTL_SECONDS) */
  grantSeconds: number;
  /** the accounts face: the caller of a session, checked as a yyp token's (logout, disabled, password) */
  accounts: { sessionCaller(claims: Required<TokenClaims>): Promise<Caller> };
}

/** An OAuth error answered to the viewer: RFC 6749 §5.2 at the token endpoint, §4.1.2.1 by redirect. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/** The authorization request, until the user answers on the sign-in page (signed, not stored). */
interface PendingRequest {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: string;
}

const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('base64url');
const randomToken = () => crypto.randomBytes(32).toString('base64url');

/**
 * yyp as an OpenID Connect provider for viewers in the browser (OHIF): public clients from the
 * configuration, the authorization code flow with PKCE (S256) only, the sign-in through yyp's own
 * page on the user's yyp session. A grant is bound to that session: its access tokens (RS256 JWTs
 * of type at+jwt for the audience <base>/dicom-web, 5 minutes) are checked on every request as a
 * yyp token is, so logout, disabling the account or changing its password ends them.
 */
export class OidcProviderService {
  readonly issuer: string;
  readonly audience: string;
  private readonly clients: Map<string, OidcProviderClient>;
  private readonly jwt: OidcJwt;
  private lastPurge = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: OidcProviderDeps) {
    const base = deps.publicBaseUrl.replace(/\/+$/, '');
    this.issuer = `${base}/yyp/oidc`;
    this.audience = `${base}/dicom-web`;
    this.clients = new Map(deps.clients.map((c) => [c.clientId, c]));
    this.jwt = new OidcJwt(deps.key, this.issuer, this.audience);
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  /** Origins of the registered redirect URIs: they may read the provider's answers (CORS). */
  clientOrigins(): string[] {
    return [...new Set([...this.clients.values()].flatMap((c) => c.redirectUris.map((u) => new URL(u).origin)))];
  }

  discovery(): Record<string, unknown> {
    const at = (p: string) => `${this.issuer}/${p}`;
    return {
      issuer: this.issuer,
      authorization_endpoint: at('auth'),
      token_endpoint: at('token'),
      userinfo_endpoint: at('me'),
      jwks_uri: at('jwks'),
      end_session_endpoint: at('session/end'),
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
      token_endpoint_auth_methods_supported: ['none'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['openid', 'profile', 'offline_access'],
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'sid', 'name', 'preferred_username'],
      authorization_response_iss_parameter_supported: true,
    };
  }

  jwks(): { keys: JWK[] } {
    return { keys: [this.jwt.publicJwk] };
  }

  private client(clientId: unknown): OidcProviderClient {
    const client = typeof clientId === 'string' ? this.clients.get(clientId) : undefined;
    if (!client) throw new OAuthError('invalid_client', 'Unknown client_id', 401);
    return client;
  }

  /**
   * GET auth: an unknown client or redirect URI is refused here (never redirected to, RFC 6749
   * §4.1.2.1); other faults go back to the viewer; a good request goes to the sign-in page.
   */
  authorize(query: Record<string, string | undefined>): { redirect: string } {
    const client = this.client(query.client_id);
    if (!query.redirect_uri || !client.redirectUris.includes(query.redirect_uri)) {
      throw new OAuthError('invalid_request', 'redirect_uri is not registered for this client');
    }
    const back = (error: string, description: string) => ({
      redirect: this.redirectWith(query.redirect_uri!, {
        error,
        error_description: description,
        state: query.state,
      }),
    });
    if (query.request !== undefined || query.request_uri !== undefined) {
      return back('request_not_supported', 'Request objects are not supported');
    }
    if (query.response_type !== 'code') return back('unsupported_response_type', 'Only response_type=code');
    const scope = (query.scope ?? '').split(' ').filter(Boolean);
    if (!scope.includes('openid')) return back('invalid_scope', 'The scope must include openid');
    if (query.code_challenge_method !== 'S256' || !PKCE.test(query.code_challenge ?? '')) {
      return back('invalid_request', 'PKCE with code_challenge_method=S256 is required');
    }
    // yyp keeps no sign-in cookie: it cannot answer without showing its page.
    if (query.prompt === 'none') return back('login_required', 'Sign in on the page');
    const pending: PendingRequest = {
      clientId: client.clientId,
      redirectUri: query.redirect_uri,
      scope: scope.filter((s) => ['openid', 'profile', 'offline_access'].includes(s)).join(' '),
      state: query.state,
      nonce: query.nonce,
      codeChallenge: query.code_challenge!,
    };
    const { token } = this.deps.signer.sign(
      INTERACTION_PURPOSE,
      { r: pending },
      new Date(this.now().getTime() + INTERACTION_SECONDS * 1000),
    );
    const base = this.deps.publicBaseUrl.replace(/\/+$/, '');
    return { redirect: `${base}/oidc/sign-in?${new URLSearchParams({ interaction: token })}` };
  }

  private pending(interaction: string): { request: PendingRequest; client: OidcProviderClient } {
    const payload = this.deps.signer.verify(INTERACTION_PURPOSE, interaction, this.now());
    const request = payload?.r as PendingRequest | undefined;
    const client = request ? this.clients.get(request.clientId) : undefined;
    // Checked again: the configuration may have changed since.
    if (!request || !client || !client.redirectUris.includes(request.redirectUri)) {
      throw errors.validation('The sign-in request has expired or is not valid; start again from the viewer');
    }
    return { request, client };
  }

  /** The sign-in page: which viewer asks, and whether the user allowed it from this session before. */
  async interaction(sessionId: string, interaction: string): Promise<OidcInteraction> {
    const { request, client } = this.pending(interaction);
    return {
      clientId: client.clientId,
      clientName: client.clientName,
      redirectOrigin: new URL(request.redirectUri).origin,
      remembered: await store.hasLiveGrant(this.deps.db, client.clientId, sessionId, this.now()),
    };
  }

  /** The signed-in user allows (a code bound to their session) or denies the viewer. */
  async decide(
    caller: Pick<Caller, 'account' | 'sessionId'>,
    body: OidcDecision,
    ctx: AuditContext,
  ): Promise<{ redirectTo: string }> {
    const { request } = this.pending(body.interaction);
    const { account } = caller;
    if (body.decision === 'deny') {
      await writeAudit(this.deps.db, ctx, {
        action: 'oidc.consent',
        category: 'security',
        outcome: 'denied',
        actorId: account.id,
        actorUsername: account.username,
        details: { clientId: request.clientId },
      });
      return {
        redirectTo: this.redirectWith(request.redirectUri, {
          error: 'access_denied',
          error_description: 'The user did not allow the sign-in',
          state: request.state,
        }),
      };
    }
    const now = this.now();
    const code = randomToken();
    await store.insertGrant(this.deps.db, {
      id: crypto.randomUUID(),
      clientId: request.clientId,
      accountId: account.id,
      sessionId: caller.sessionId,
      tokenVersion: account.tokenVersion,
      redirectUri: request.redirectUri,
      scope: request.scope,
      nonce: request.nonce ?? null,
      codeHash: sha256(code),
      codeChallenge: request.codeChallenge,
      codeExpiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
      refreshExpiresAt: new Date(now.getTime() + this.deps.grantSeconds * 1000),
      createdAt: now,
    });
    await this.purge(now);
    return { redirectTo: this.redirectWith(request.redirectUri, { code, state: request.state }) };
  }

  private redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
    const url = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
    url.searchParams.set('iss', this.issuer);
    return url.href;
  }

  /** POST token (application/x-www-form-urlencoded): the code (with its PKCE verifier) or a refresh token. */
  async token(form: Record<string, string | undefined>, ctx: AuditContext): Promise<TokenAnswer> {
    const client = this.client(form.client_id);
    if (form.client_secret !== undefined) {
      throw new OAuthError('invalid_client', 'Public clients authenticate with PKCE, not a secret', 401);
    }
    if (form.grant_type === 'authorization_code') return this.exchangeCode(client, form, ctx);
    if (form.grant_type === 'refresh_token') return this.refresh(client, form, ctx);
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  private async exchangeCode(
    client: OidcProviderClient,
    form: Record<string, string | undefined>,
    ctx: AuditContext,
  ): Promise<TokenAnswer> {
    if (!form.code || !form.redirect_uri) throw new OAuthError('invalid_request', 'code and redirect_uri are required');
    if (!form.code_verifier || !PKCE.test(form.code_verifier)) {
      throw new OAuthError('invalid_request', 'code_verifier (PKCE) is required');
    }
    const now = this.now();
    const codeHash = sha256(form.code);
    const grant = await store.takeCode(this.deps.db, codeHash, now);
    if (!grant) {
      if (await store.endGrantOfUsedCode(this.deps.db, codeHash, now)) {
        await this.auditToken(ctx, null, client.clientId, 'authorization_code', 'failure', 'code_reused');
      }
      throw new OAuthError('invalid_grant', 'The code is not valid');
    }
    const fault =
      grant.codeExpiresAt.getTime() <= now.getTime()
        ? 'The code has expired'
        : grant.clientId !== client.clientId
          ? 'The code was issued to another client'
          : grant.redirectUri !== form.redirect_uri
            ? 'redirect_uri differs from the authorization request'
            : sha256(form.code_verifier) !== grant.codeChallenge
              ? 'code_verifier does not match the code_challenge'
              : null;
    if (fault) {
      await store.endGrant(this.deps.db, grant.id, now);
      throw new OAuthError('invalid_grant', fault);
    }
    const caller = await this.callerOf(grant);
    const refresh = randomToken();
    await store.setRefresh(this.deps.db, grant.id, sha256(refresh));
    await this.auditToken(ctx, caller.account, client.clientId, 'authorization_code', 'success');
    return this.jwt.mint(grant, caller.account, refresh, grant.nonce ?? undefined, this.now());
  }

  private async refresh(
    client: OidcProviderClient,
    form: Record<string, string | undefined>,
    ctx: AuditContext,
  ): Promise<TokenAnswer> {
    if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const refresh = randomToken();
    const used = sha256(form.refresh_token);
    const grant = await store.rotateRefresh(this.deps.db, client.clientId, used, sha256(refresh), this.now());
    if (!grant) {
      // A replaced refresh token used again was copied: the grant ends for both holders (RFC 9700 §4.14.2).
      const ended = await store.endGrantOfReplacedRefresh(this.deps.db, client.clientId, used, this.now());
      if (ended) {
        await this.auditToken(
          ctx,
          null,
          client.clientId,
          'refresh_token',
          'failure',
          'refresh_reused',
          ended.accountId,
        );
      }
      throw new OAuthError('invalid_grant', 'The refresh token is not valid');
    }
    const caller = await this.callerOf(grant);
    await this.auditToken(ctx, caller.account, client.clientId, 'refresh_token', 'success');
    return this.jwt.mint(grant, caller.account, refresh, undefined, this.now());
  }

  /** The grant's session must still be good (not ended, account enabled, same password); else the grant ends. */
  private async callerOf(grant: store.OidcGrantRow): Promise<Caller> {
    try {
      return await this.deps.accounts.sessionCaller({
        sub: grant.accountId,
        tv: grant.tokenVersion,
        jti: grant.sessionId,
      });
    } catch {
      await store.endGrant(this.deps.db, grant.id, this.now());
      throw new OAuthError('invalid_grant', 'The yyp session of this grant has ended; sign in again');
    }
  }

  /** Every issued token is a sign-in (a security event): who, which viewer, how. */
  private async auditToken(
    ctx: AuditContext,
    account: AccountRow | null,
    clientId: string,
    grantType: string,
    outcome: 'success' | 'failure',
    reason?: string,
    accountId?: string,
  ): Promise<void> {
    await writeAudit(this.deps.db, ctx, {
      action: 'oidc.token',
      category: 'security',
      outcome,
      actorId: account?.id ?? accountId ?? null,
      actorUsername: account?.username ?? null,
      details: { clientId, grantType, ...(reason ? { reason } : {}) },
    });
  }

  /**
   * The caller of an access token (for /dicom-web): signature, issuer, audience, type and expiry,
   * then its session as a yyp token's. Expired → TokenExpiredError; anything else → JsonWebTokenError.
   */
  async authenticate(token: string): Promise<Caller> {
    const { sub, tv, sid } = await this.jwt.verifyAccess(token, this.now());
    return this.deps.accounts.sessionCaller({ sub, tv, jti: sid });
  }

  /** Whether a bearer is one of this provider's access tokens (its header says at+jwt). */
  isAccessToken(token: string): boolean {
    return isAccessToken(token);
  }

  /** GET/POST me (userinfo) with an access token. */
  async userinfo(token: string): Promise<Record<string, string>> {
    const { account } = await this.authenticate(token);
    return { sub: account.id, name: account.name, preferred_username: account.username };
  }

  /**
   * GET session/end (RP-initiated logout): ends the viewer's grant of the id token's session (its
   * refresh token stops working; access tokens lapse within 5 minutes); the yyp session itself stays.
   * Goes back to post_logout_redirect_uri only when registered for the client.
   */
  async endSession(query: Record<string, string | undefined>): Promise<{ redirect: string | null }> {
    let clientId = query.client_id;
    if (query.id_token_hint) {
      const hint = await this.jwt.readIdTokenHint(query.id_token_hint, this.now(), (aud) => this.clients.has(aud));
      if (hint) {
        clientId = hint.clientId;
        await store.endSessionGrants(this.deps.db, hint.clientId, hint.sid, this.now());
      }
    }
    const client = clientId ? this.clients.get(clientId) : undefined;
    const target = query.post_logout_redirect_uri;
    if (target && client?.postLogoutRedirectUris.includes(target)) {
      const url = new URL(target);
      if (query.state !== undefined) url.searchParams.set('state', query.state);
      return { redirect: url.href };
    }
    return { redirect: null };
  }

  private async purge(now: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < 10 * 60_000) return;
    this.lastPurge = now.getTime();
    await store.purgeGrants(this.deps.db, now);
  }
}

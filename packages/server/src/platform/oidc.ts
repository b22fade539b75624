import crypto from 'node:crypto';
import * as oidc from 'openid-client';

/**
 * OpenID Connect relying party (issue 27, docs/sso.md): the authorization code flow with PKCE (S256),
 * state and nonce, through openid-client (certified). The sso module signs users in through this face
 * only; the adapter below is the real one, tested against oidc-provider on loopback.
 */
export interface OidcProviderSettings {
  /** the issuer identifier; its /.well-known/openid-configuration is read (https; http only on loopback) */
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

export interface OidcRequest {
  /** this site's /loginCallback, registered at the provider */
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Why a sign-in at the provider failed: the provider refused, or answered what the checks reject. */
export class OidcError extends Error {
  constructor(
    /** a short reason for the audit log (never a token or secret) */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'OidcError';
  }
}

export interface OidcClient {
  /** the authorization request to send the browser to */
  authorizationUrl(settings: OidcProviderSettings, request: OidcRequest): Promise<string>;
  /**
   * Exchanges the code (with the PKCE verifier) and checks the id token (signature, issuer,
   * audience, expiry against `now`, nonce); the id token's claims, with the userinfo's when the
   * provider has a userinfo endpoint.
   */
  complete(
    settings: OidcProviderSettings,
    request: OidcRequest,
    callback: { code: string; state: string; iss?: string | undefined },
    now: Date,
  ): Promise<Record<string, unknown>>;
  /** reads the discovery document (checks an issuer before it is saved) */
  discover(settings: OidcProviderSettings): Promise<void>;
}

export function pkcePair(): { codeVerifier: string; codeChallenge: Promise<string> } {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  return { codeVerifier, codeChallenge: oidc.calculatePKCECodeChallenge(codeVerifier) };
}

export const randomToken = (): string => crypto.randomBytes(32).toString('base64url');

const loopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/** Discovery documents are kept this long per issuer, client and secret. */
const DISCOVERY_MS = 10 * 60_000;
const TIMEOUT_MS = 10_000;

/** The real adapter: openid-client (discovery, PKCE, state, nonce, id token checks, userinfo). */
export class OpenIdClient implements OidcClient {
  private readonly cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  /** `skew`: seconds the server's clock is ahead of this host's (its Clock decides token expiry). */
  private configuration(settings: OidcProviderSettings, skew = 0): Promise<oidc.Configuration> {
    const key = crypto
      .createHash('sha256')
      .update(JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret, skew]))
      .digest('base64url');
    const cached = this.cache.get(key);
    if (cached && Date.now() - cached.at < DISCOVERY_MS) return cached.config;
    const issuer = new URL(settings.issuer);
    if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && loopback(issuer))) {
      return Promise.reject(new OidcError('issuer_not_https', 'The issuer must be an https URL'));
    }
    const config = oidc
      .discovery(
        issuer,
        settings.clientId,
        { client_secret: settings.clientSecret, [oidc.clockSkew]: skew },
        undefined,
        issuer.protocol === 'http:'
          ? { execute: [oidc.allowInsecureRequests], timeout: TIMEOUT_MS / 1000 }
          : {
              timeout: TIMEOUT_MS / 1000,
            },
      )
      .catch((err: unknown) => {
        this.cache.delete(key);
        throw new OidcError('discovery_failed', `The provider's discovery failed: ${describe(err)}`);
      });
    if (this.cache.size > 100) this.cache.clear();
    this.cache.set(key, { at: Date.now(), config });
    return config;
  }

  async discover(settings: OidcProviderSettings): Promise<void> {
    await this.configuration(settings);
  }

  async authorizationUrl(settings: OidcProviderSettings, request: OidcRequest): Promise<string> {
    const config = await this.configuration(settings);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: request.redirectUri,
      scope: settings.scopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
      state: request.state,
      nonce: request.nonce,
    });
    return url.href;
  }

  async complete(
    settings: OidcProviderSettings,
    request: OidcRequest,
    callback: { code: string; state: string; iss?: string | undefined },
    now: Date,
  ): Promise<Record<string, unknown>> {
    // The server's clock decides expiry (openid-client adds the skew to this host's clock).
    const config = await this.configuration(settings, Math.round((now.getTime() - Date.now()) / 1000));
    const current = new URL(request.redirectUri);
    current.searchParams.set('code', callback.code);
    current.searchParams.set('state', callback.state);
    if (callback.iss !== undefined) current.searchParams.set('iss', callback.iss);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: request.codeVerifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      throw new OidcError(reasonOf(err), `The provider's answer was refused: ${describe(err)}`);
    }
    const claims = tokens.claims();
    if (!claims) throw new OidcError('no_id_token', 'The provider answered no id token');
    const merged: Record<string, unknown> = { ...claims };
    if (config.serverMetadata().userinfo_endpoint) {
      try {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        for (const [k, v] of Object.entries(info)) if (!(k in merged)) merged[k] = v;
      } catch (err) {
        throw new OidcError('userinfo_failed', `The provider's userinfo failed: ${describe(err)}`);
      }
    }
    return merged;
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`.slice(0, 300);
  return 'unknown error';
}

/** A stable short reason from openid-client's errors (their codes), for the audit row. */
function reasonOf(err: unknown): string {
  if (err instanceof oidc.AuthorizationResponseError) return `authorization_${err.error}`.slice(0, 80);
  if (err instanceof oidc.ResponseBodyError) return `token_${err.error}`.slice(0, 80);
  const code = (err as { code?: unknown }).code;
  // e.g. OAUTH_JWT_CLAIM_COMPARISON_FAILED:nonce, OAUTH_JWT_TIMESTAMP_CHECK_FAILED:exp
  let claim: unknown;
  for (let at: unknown = err, depth = 0; at && typeof at === 'object' && depth < 4; depth++) {
    const cause = (at as { cause?: unknown }).cause;
    claim = (cause as { claim?: unknown } | undefined)?.claim ?? claim;
    at = cause;
  }
  if (typeof code === 'string') return (typeof claim === 'string' ? `${code}:${claim}` : code).slice(0, 80);
  return 'exchange_failed';
}

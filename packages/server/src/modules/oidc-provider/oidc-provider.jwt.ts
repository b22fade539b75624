import crypto from 'node:crypto';
import { errors as joseErrors, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import type { AccountRow } from '../../db/schema.js';
import { errors } from '../../platform/errors.js';
import type { OidcSigningKey } from './oidc-provider.keys.js';
import type { OidcGrantRow } from './oidc-provider.store.js';

/** Access tokens live 5 minutes (the brief's ceiling is 10); the viewer renews them with its refresh token. */
export const ACCESS_TOKEN_SECONDS = 300;
const ACCESS_TOKEN_TYPE = 'at+jwt';

/** The token endpoint's answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3). */
export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  id_token: string;
  refresh_token: string;
  scope: string;
}

/** The claims of a valid access token that name its session. */
export interface AccessClaims {
  sub: string;
  tv: number;
  sid: string;
}

/** Whether a bearer is one of the provider's access tokens (its header says at+jwt), without checking it. */
export function isAccessToken(token: string): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot > 512) return false;
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8')) as { typ?: unknown };
    return typeof header.typ === 'string' && header.typ.toLowerCase() === ACCESS_TOKEN_TYPE;
  } catch {
    return false;
  }
}

/**
 * The provider's JWTs (RS256 with its one key): access tokens for /dicom-web (`typ: at+jwt`, audience
 * the DICOMweb root), id tokens for the viewer (audience its client id), and their checks.
 */
export class OidcJwt {
  readonly publicJwk: JWK;
  private readonly privateKey: ReturnType<typeof importJWK>;
  private readonly publicKey: ReturnType<typeof importJWK>;

  constructor(
    private readonly key: OidcSigningKey,
    private readonly issuer: string,
    private readonly audience: string,
  ) {
    const { kty, n, e } = key.privateJwk;
    this.publicJwk = { kty: kty!, n: n!, e: e!, kid: key.kid, alg: 'RS256', use: 'sig' };
    this.privateKey = importJWK({ ...(key.privateJwk as JWK), alg: 'RS256' }, 'RS256');
    this.publicKey = importJWK(this.publicJwk, 'RS256');
  }

  /** The tokens of a grant for its account: an access token and an id token, both for 5 minutes. */
  async mint(
    grant: OidcGrantRow,
    account: AccountRow,
    refreshToken: string,
    nonce: string | undefined,
    now: Date,
  ): Promise<TokenAnswer> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + ACCESS_TOKEN_SECONDS;
    const key = await this.privateKey;
    const accessToken = await new SignJWT({
      client_id: grant.clientId,
      scope: grant.scope,
      tv: grant.tokenVersion,
      sid: grant.sessionId,
    })
      .setProtectedHeader({ alg: 'RS256', kid: this.key.kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject(account.id)
      .setJti(crypto.randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(key);
    const idToken = await new SignJWT({
      sid: grant.sessionId,
      name: account.name,
      preferred_username: account.username,
      ...(nonce !== undefined ? { nonce } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setAudience(grant.clientId)
      .setSubject(account.id)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(key);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      id_token: idToken,
      refresh_token: refreshToken,
      scope: grant.scope,
    };
  }

  /**
   * An access token's session claims after its signature, issuer, audience, type and expiry are
   * checked. Expired → the token-expired error; anything else → the bad-token error.
   */
  async verifyAccess(token: string, now: Date): Promise<AccessClaims> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, await this.publicKey, {
        algorithms: ['RS256'],
        issuer: this.issuer,
        audience: this.audience,
        typ: ACCESS_TOKEN_TYPE,
        currentDate: now,
        clockTolerance: 0,
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw errors.tokenExpired();
      throw errors.badToken();
    }
    const { sub, tv, sid } = payload;
    if (typeof sub !== 'string' || typeof tv !== 'number' || typeof sid !== 'string') throw errors.badToken();
    return { sub, tv, sid };
  }

  /** An id token this provider signed for a client `known` holds, expired or not (a logout hint may be old). */
  async readIdTokenHint(
    token: string,
    now: Date,
    known: (clientId: string) => boolean,
  ): Promise<{ clientId: string; sid: string } | null> {
    try {
      const { payload } = await jwtVerify(token, await this.publicKey, {
        algorithms: ['RS256'],
        issuer: this.issuer,
        // A hint is accepted for a day after its expiry.
        currentDate: now,
        clockTolerance: 86_400,
      });
      const aud = payload.aud;
      const sid = payload.sid;
      return typeof aud === 'string' && typeof sid === 'string' && known(aud) ? { clientId: aud, sid } : null;
    } catch {
      return null;
    }
  }
}

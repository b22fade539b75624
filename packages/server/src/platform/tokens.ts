import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import type { TokenInfo } from '@yyp/contracts';
import { errors } from './errors.js';

export interface TokenClaims {
  /** account id */
  sub: string;
  /** the account's token version when issued */
  tv: number;
  /** the token's unique id: its server-side session (absent only in tokens of older versions) */
  jti?: string;
}

/** Reads JWT_SECRET, or the secret generated once and kept in DATA_DIR (mode 0600). */
export function loadJwtSecret(explicit: string | undefined, dataDir: string): Uint8Array {
  if (explicit) return new TextEncoder().encode(explicit);
  const file = path.join(dataDir, 'jwt-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    return new Uint8Array(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = crypto.randomBytes(48);
  try {
    fs.writeFileSync(file, secret.toString('base64'), { mode: 0o600, flag: 'wx' });
    return new Uint8Array(secret);
  } catch (err) {
    // Another instance on the same DATA_DIR wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return new Uint8Array(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  }
}

export class TokenService {
  // An imported CryptoKey verifies in about half the time of raw bytes, which jose re-imports per call.
  private readonly key: Promise<crypto.webcrypto.CryptoKey>;

  constructor(
    private readonly secret: Uint8Array,
    private readonly ttlSeconds: number,
  ) {
    this.key = crypto.webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  /** Signs a token; the session id (jti) is the caller's, who records the session. */
  async issue(
    claims: Required<TokenClaims>,
    now: Date,
    loginType: TokenInfo['loginType'] = 'normal',
  ): Promise<TokenInfo> {
    const iat = Math.floor(now.getTime() / 1000);
    const expires = iat + this.ttlSeconds;
    const accessToken = await new SignJWT({ tv: claims.tv })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuedAt(iat)
      .setExpirationTime(expires)
      .sign(await this.key);
    return { accessToken, expires, loginType };
  }

  /**
   * Verifies signature (HS256 only: `alg: none` and every other algorithm are refused) and expiry.
   * Expired → TokenExpiredError; anything else wrong → JsonWebTokenError. It runs on every
   * authenticated request, so it checks with node:crypto synchronously (a constant-time compare
   * of the HMAC) rather than through WebCrypto's promise per call; jose signs.
   */
  async verify(token: string, now: Date): Promise<TokenClaims> {
    const parts = token.split('.');
    if (parts.length !== 3) throw errors.badToken();
    const [h, p, sig] = parts as [string, string, string];
    const header = decodeJson(h);
    if (!header || header.alg !== 'HS256' || (header.typ !== undefined && header.typ !== 'JWT') || 'crit' in header) {
      throw errors.badToken();
    }
    const expected = crypto.createHmac('sha256', this.secret).update(`${h}.${p}`).digest();
    const given = base64url(sig);
    if (!given || given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) throw errors.badToken();
    const payload = decodeJson(p);
    if (!payload || typeof payload.sub !== 'string' || typeof payload.tv !== 'number') throw errors.badToken();
    const at = Math.floor(now.getTime() / 1000);
    if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > at)) throw errors.badToken();
    if (typeof payload.exp !== 'number') throw errors.badToken();
    if (payload.exp <= at) throw errors.tokenExpired();
    if (payload.jti !== undefined && (typeof payload.jti !== 'string' || payload.jti === '')) throw errors.badToken();
    return payload.jti === undefined
      ? { sub: payload.sub, tv: payload.tv }
      : { sub: payload.sub, tv: payload.tv, jti: payload.jti };
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function base64url(part: string): Buffer | null {
  return BASE64URL.test(part) ? Buffer.from(part, 'base64url') : null;
}

function decodeJson(part: string): Record<string, unknown> | null {
  const bytes = base64url(part);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

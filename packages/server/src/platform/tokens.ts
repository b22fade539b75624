import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { TokenInfo } from '@yyp/contracts';
import { errors } from './errors.js';

export interface TokenClaims {
  /** account id */
  sub: string;
  /** the account's token version when issued */
  tv: number;
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
    secret: Uint8Array,
    private readonly ttlSeconds: number,
  ) {
    this.key = crypto.webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
  }

  async issue(claims: TokenClaims, now: Date, loginType: TokenInfo['loginType'] = 'normal'): Promise<TokenInfo> {
    const iat = Math.floor(now.getTime() / 1000);
    const expires = iat + this.ttlSeconds;
    const accessToken = await new SignJWT({ tv: claims.tv })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt(iat)
      .setExpirationTime(expires)
      .sign(await this.key);
    return { accessToken, expires, loginType };
  }

  /**
   * Verifies signature (HS256 only: `alg: none` and every other algorithm are refused) and expiry.
   * Expired → TokenExpiredError; anything else wrong → JsonWebTokenError.
   */
  async verify(token: string, now: Date): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'], currentDate: now });
      if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') throw errors.badToken();
      return { sub: payload.sub, tv: payload.tv };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw errors.tokenExpired();
      throw errors.badToken();
    }
  }
}

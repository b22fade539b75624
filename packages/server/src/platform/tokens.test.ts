import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { TokenService } from './tokens.js';

const secret = new TextEncoder().encode('unit-test-secret-unit-test-secret-0123');
const service = new TokenService(secret, 3600);
const t0 = new Date('2026-11-22T08:00:00Z');

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return err instanceof AppError ? err.code : 'other';
  }
}

describe('TokenService', () => {
  it('issues Token info with expires in epoch seconds', async () => {
    const info = await service.issue({ sub: 'a1', tv: 3, jti: 's1' }, t0);
    expect(info.loginType).toBe('normal');
    expect(info.expires).toBe(Math.floor(t0.getTime() / 1000) + 3600);
    expect(await service.verify(info.accessToken, t0)).toEqual({ sub: 'a1', tv: 3, jti: 's1' });
  });

  it('carries the session id as jti, and refuses a jti that is not a non-empty string', async () => {
    const info = await service.issue({ sub: 'a1', tv: 0, jti: 'session-42' }, t0);
    const payload = JSON.parse(Buffer.from(info.accessToken.split('.')[1]!, 'base64url').toString()) as {
      jti?: unknown;
    };
    expect(payload.jti).toBe('session-42');
    for (const jti of [7, '', null]) {
      const bad = await new SignJWT({ tv: 0, jti: jti as string })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('a1')
        .setExpirationTime(Math.floor(t0.getTime() / 1000) + 60)
        .sign(secret);
      expect(await codeOf(service.verify(bad, t0)), String(jti)).toBe('JsonWebTokenError');
    }
  });

  it('answers TokenExpiredError once exp has passed', async () => {
    const info = await service.issue({ sub: 'a1', tv: 0, jti: 's1' }, t0);
    expect(await codeOf(service.verify(info.accessToken, new Date(t0.getTime() + 3599_000)))).toBe('ok');
    expect(await codeOf(service.verify(info.accessToken, new Date(t0.getTime() + 3601_000)))).toBe('TokenExpiredError');
  });

  it('answers JsonWebTokenError for garbage, a wrong key, tampering and alg none', async () => {
    const info = await service.issue({ sub: 'a1', tv: 0, jti: 's1' }, t0);
    expect(await codeOf(service.verify('not-a-jwt', t0))).toBe('JsonWebTokenError');
    const other = new TokenService(new TextEncoder().encode('another-secret-another-secret-0000'), 3600);
    expect(await codeOf(other.verify(info.accessToken, t0))).toBe('JsonWebTokenError');
    const [h, p, s] = info.accessToken.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...payload, sub: 'admin' })).toString('base64url');
    expect(await codeOf(service.verify(`${h}.${forged}.${s}`, t0))).toBe('JsonWebTokenError');
    const none = new UnsecuredJWT({ tv: 0 })
      .setSubject('a1')
      .setExpirationTime(Math.floor(t0.getTime() / 1000) + 60)
      .encode();
    expect(await codeOf(service.verify(none, t0))).toBe('JsonWebTokenError');
  });

  it('refuses a token signed with the right key but another algorithm', async () => {
    const hs512 = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('a1')
      .setExpirationTime(Math.floor(t0.getTime() / 1000) + 60)
      .sign(secret);
    expect(await codeOf(service.verify(hs512, t0))).toBe('JsonWebTokenError');
  });

  it('refuses a token without the token-version claim', async () => {
    const noTv = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('a1')
      .setExpirationTime(Math.floor(t0.getTime() / 1000) + 60)
      .sign(secret);
    expect(await codeOf(service.verify(noTv, t0))).toBe('JsonWebTokenError');
  });

  it('refuses a token without expiry, one not valid yet, and a malformed signature or header', async () => {
    const noExp = await new SignJWT({ tv: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject('a1').sign(secret);
    expect(await codeOf(service.verify(noExp, t0))).toBe('JsonWebTokenError');
    const at = Math.floor(t0.getTime() / 1000);
    const early = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('a1')
      .setNotBefore(at + 60)
      .setExpirationTime(at + 120)
      .sign(secret);
    expect(await codeOf(service.verify(early, t0))).toBe('JsonWebTokenError');
    expect(await codeOf(service.verify(early, new Date(t0.getTime() + 61_000)))).toBe('ok');
    const info = await service.issue({ sub: 'a1', tv: 0, jti: 's1' }, t0);
    const [h, p, s] = info.accessToken.split('.');
    expect(await codeOf(service.verify(`${h}.${p}.${s}=`, t0))).toBe('JsonWebTokenError');
    expect(await codeOf(service.verify(`${h}.${p}.${s!.slice(0, -2)}`, t0))).toBe('JsonWebTokenError');
    expect(await codeOf(service.verify(`${h}.${p}.${s}.x`, t0))).toBe('JsonWebTokenError');
    const crit = Buffer.from(JSON.stringify({ alg: 'HS256', crit: ['b64'], b64: false })).toString('base64url');
    expect(await codeOf(service.verify(`${crit}.${p}.${s}`, t0))).toBe('JsonWebTokenError');
  });
});

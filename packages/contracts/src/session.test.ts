import { describe, expect, it } from 'vitest';
import { isInactive, isSessionValid, shouldAttachToken, TOKENLESS_PATHS } from './session.js';

describe('token attachment (spec 001 §8)', () => {
  it.each(TOKENLESS_PATHS.map((p) => [p]))('does not attach to %s', (p) => {
    expect(shouldAttachToken(p)).toBe(false);
    expect(shouldAttachToken(`/${p}?x=1`)).toBe(false);
  });
  it.each([
    'accounts/me',
    'accounts/me/permissions',
    'exams/page-query',
    'accounts/change-password',
    'domains/audit-logs',
  ])('attaches to %s', (p) => {
    expect(shouldAttachToken(p)).toBe(true);
  });
  it('attaches to a change of the domain configuration, not to its reading', () => {
    expect(shouldAttachToken('domain', undefined, 'GET')).toBe(false);
    expect(shouldAttachToken('domain', { displayName: 'x' }, 'PUT')).toBe(true);
    expect(shouldAttachToken('accounts/login-in', { username: 'a' }, 'POST')).toBe(false);
  });
  it('does not attach when the body carries its own token', () => {
    expect(shouldAttachToken('exams/page-query', { token: 'abc' })).toBe(false);
    expect(shouldAttachToken('exams/page-query', { other: 1 })).toBe(true);
  });
});

describe('isSessionValid: a token exists and its expiry (seconds) has not passed', () => {
  const now = 1_800_000_000;
  it('is false without a token', () => {
    expect(isSessionValid(null, now)).toBe(false);
    expect(isSessionValid({ accessToken: '', expires: now + 10 }, now)).toBe(false);
    expect(isSessionValid({ accessToken: 't', expires: null }, now)).toBe(false);
  });
  it('compares in seconds', () => {
    expect(isSessionValid({ accessToken: 't', expires: now + 1 }, now)).toBe(true);
    expect(isSessionValid({ accessToken: 't', expires: now }, now)).toBe(false);
    expect(isSessionValid({ accessToken: 't', expires: now - 1 }, now)).toBe(false);
  });
});

describe('isInactive against maxInactiveMinutes', () => {
  it('never logs out when the limit is 0', () => {
    expect(isInactive(0, 10 ** 12, 0)).toBe(false);
  });
  it('logs out once the idle time reaches the limit', () => {
    expect(isInactive(0, 5 * 60_000 - 1, 5)).toBe(false);
    expect(isInactive(0, 5 * 60_000, 5)).toBe(true);
  });
});

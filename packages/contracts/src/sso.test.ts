import { describe, expect, it } from 'vitest';
import { callKey } from './call.js';
import { shouldAttachToken } from './session.js';
import { ssoCalls } from './sso-calls.js';
import { authQuerySchema, ssoProviderInputSchema } from './sso.js';

const input = (overrides: Record<string, unknown>) =>
  ssoProviderInputSchema.safeParse({ label: 'A', issuer: 'https://idp.example/realms/a', clientId: 'c', ...overrides });

describe('single sign-on contract', () => {
  it('names every call once', () => {
    const keys = Object.values(ssoCalls).map(callKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('sends accounts/auth and auth/token without the stored token (spec 001 §8)', () => {
    expect(shouldAttachToken(ssoCalls.auth.path)).toBe(false);
    expect(shouldAttachToken(ssoCalls.token.path)).toBe(false);
  });

  it('takes an https issuer, http only on loopback, never a query, fragment or credentials', () => {
    expect(input({}).success).toBe(true);
    expect(input({ issuer: 'http://127.0.0.1:4000' }).success).toBe(true);
    expect(input({ issuer: 'http://localhost:4000/oidc' }).success).toBe(true);
    for (const issuer of [
      'http://idp.example',
      'ftp://127.0.0.1',
      'https://idp.example/?a=1',
      'https://idp.example/#x',
      'https://u:p@idp.example',
      'idp.example',
    ]) {
      expect(input({ issuer }).success, issuer).toBe(false);
    }
  });

  it('requires openid among the scopes and plain claim names', () => {
    expect(input({ scopes: 'openid profile phone' }).success).toBe(true);
    expect(input({ scopes: 'profile' }).success).toBe(false);
    expect(input({ usernameClaim: 'ext.staff_id' }).success).toBe(true);
    expect(input({ usernameClaim: 'a b' }).success).toBe(false);
    expect(input({ usernameClaim: '' }).success).toBe(false);
    expect(input({ mobileClaim: '' }).success).toBe(true);
  });

  it('returns only to a path of this site', () => {
    const ok = (redirect: string) => authQuerySchema.safeParse({ type: 'sso', redirect }).success;
    expect(ok('/studies?x=1')).toBe(true);
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'studies', '/a b']) {
      expect(ok(bad), bad).toBe(false);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '../test/factories.js';
import { startTestApp, type TestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ bodyLimitBytes: 2048, seed: false });
});
afterAll(async () => {
  await t.close();
});

describe('platform', () => {
  it('answers health with the database checked', async () => {
    const res = await t.call('GET', 'health');
    expect(res.json()).toMatchObject({ status: 'ok', db: 'ok' });
  });

  it('answers 413 PayloadTooLarge over the body limit', async () => {
    const res = await t.call('POST', 'accounts/login-in', { body: { username: 'doctor', password: 'x'.repeat(4000) } });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PayloadTooLarge');
  });

  it('answers 400 InvalidJson for malformed JSON, with no stack trace', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/yyp/api/v1/accounts/login-in',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "doctor", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'InvalidJson', message: expect.any(String) });
    expect(res.body).not.toMatch(/at .*\.js:\d+/);
  });

  it('answers 404 NotFound in the error vocabulary for unknown API calls', async () => {
    const { token } = await makeAccount(t);
    const res = await t.call('GET', 'no/such/call', { token });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NotFound');
  });

  it('validates with the contract and names the field', async () => {
    const res = await t.call('POST', 'accounts/login-in', { body: { username: 'doctor' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('ValidationError');
    expect(JSON.stringify(res.json().details)).toContain('password');
  });

  it('serves an OpenAPI document built from the contract schemas', async () => {
    const res = await t.call('GET', 'openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/yyp/api/v1/accounts/login-in', '/yyp/api/v1/accounts/me', '/yyp/api/v1/domain']),
    );
    expect(JSON.stringify(doc.paths['/yyp/api/v1/accounts/login-in'])).toContain('username');
  });
});

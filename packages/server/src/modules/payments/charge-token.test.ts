import { describe, expect, it } from 'vitest';
import { Signer } from '../../platform/signed.js';
import { chargeTokenOf, issueChargeToken, requireChargeToken } from './charge-token.js';

const signer = new Signer(new TextEncoder().encode('charge-token-test-secret-0123456789'));
const now = new Date('2026-11-27T08:00:00Z');

describe('charge token', () => {
  it('opens its own charge until it expires', () => {
    const { token, expires } = issueChargeToken(signer, 'charge-1', now);
    expect(expires).toBe(Math.floor(now.getTime() / 1000) + 120 * 60);
    expect(() => requireChargeToken(signer, token, 'charge-1', now)).not.toThrow();
    expect(() => requireChargeToken(signer, token, 'charge-1', new Date(now.getTime() + 119 * 60_000))).not.toThrow();
    expect(() => requireChargeToken(signer, token, 'charge-1', new Date(now.getTime() + 120 * 60_000))).toThrow(
      /invalid or expired/,
    );
  });
  it('never opens another charge, and refuses forged, foreign and empty tokens', () => {
    const { token } = issueChargeToken(signer, 'charge-1', now);
    expect(() => requireChargeToken(signer, token, 'charge-2', now)).toThrow(/invalid/);
    const other = new Signer(new TextEncoder().encode('another-secret-0123456789abcdef'));
    expect(() => requireChargeToken(other, token, 'charge-1', now)).toThrow(/invalid/);
    const viewer = signer.sign('viewer', { c: 'charge-1' }, new Date(now.getTime() + 60_000)).token;
    expect(() => requireChargeToken(signer, viewer, 'charge-1', now)).toThrow(/invalid/);
    const [body, mac] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ c: 'charge-2', p: 'charge', x: 9e9 })).toString('base64url')}.${mac}`;
    expect(body).toBeTruthy();
    expect(() => requireChargeToken(signer, forged, 'charge-2', now)).toThrow(/invalid/);
    expect(() => requireChargeToken(signer, '', 'charge-1', now)).toThrow(/invalid/);
  });
  it('is read from Authorization: Charge <token> only', () => {
    expect(chargeTokenOf('Charge abc.def')).toBe('abc.def');
    expect(chargeTokenOf('charge  abc.def ')).toBe('abc.def');
    expect(chargeTokenOf('Bearer abc.def')).toBe('');
    expect(chargeTokenOf(undefined)).toBe('');
  });
});

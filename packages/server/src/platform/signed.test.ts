import { describe, expect, it } from 'vitest';
import { Signer } from './signed.js';

const signer = new Signer(new TextEncoder().encode('unit-secret-unit-secret-unit-secret'));
const now = new Date('2026-11-22T08:00:00Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);

describe('Signer', () => {
  it('round-trips a payload until it expires', () => {
    const { token, expires } = signer.sign('viewer', { e: 'exam-1' }, later(600));
    expect(expires).toBe(Math.floor(now.getTime() / 1000) + 600);
    expect(signer.verify('viewer', token, now)).toMatchObject({ e: 'exam-1', p: 'viewer' });
    expect(signer.verify('viewer', token, later(599))).not.toBeNull();
    expect(signer.verify('viewer', token, later(600))).toBeNull();
  });

  it('refuses a token of another purpose, another key, or tampered', () => {
    const { token } = signer.sign('share', { e: 'exam-1' }, later(600));
    expect(signer.verify('viewer', token, now)).toBeNull();
    const other = new Signer(new TextEncoder().encode('another-secret-another-secret-0000'));
    expect(other.verify('share', token, now)).toBeNull();
    const [body, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ e: 'exam-2', p: 'share', x: 9_999_999_999 })).toString('base64url');
    expect(signer.verify('share', `${forged}.${mac}`, now)).toBeNull();
    expect(signer.verify('share', `${body}.${mac!.slice(0, -2)}AA`, now)).toBeNull();
    for (const junk of ['', '.', 'abc', `${body}.`, `.${mac}`]) expect(signer.verify('share', junk, now)).toBeNull();
  });
});

import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sealer } from './sealed.js';

const secret = crypto.randomBytes(32);

describe('Sealer', () => {
  it('opens what it sealed, and the sealed form shows nothing of the value', () => {
    const sealer = new Sealer(secret, 'web-secret');
    const value = crypto.randomBytes(32).toString('base64url');
    const sealed = sealer.seal(value);
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain(value);
    expect(sealer.open(sealed)).toBe(value);
    // A fresh IV each time: the same value seals differently.
    expect(sealer.seal(value)).not.toBe(sealed);
    expect(sealer.open(sealer.seal('中文 ཀ'))).toBe('中文 ཀ');
  });

  it('refuses values sealed under another server secret or purpose, or altered', () => {
    const sealed = new Sealer(secret, 'web-secret').seal('abc');
    expect(new Sealer(crypto.randomBytes(32), 'web-secret').open(sealed)).toBeNull();
    expect(new Sealer(secret, 'other').open(sealed)).toBeNull();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(new Sealer(secret, 'web-secret').open(`v1.${raw.toString('base64url')}`)).toBeNull();
    expect(new Sealer(secret, 'web-secret').open('v1.short')).toBeNull();
  });

  it('opens a value stored before sealing as it is', () => {
    expect(new Sealer(secret, 'web-secret').open('plain-legacy-secret')).toBe('plain-legacy-secret');
  });
});

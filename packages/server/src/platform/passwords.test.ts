import { DEMO_PASSWORD } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import {
  commonPasswordVariants,
  hashPassword,
  isCommonPassword,
  newPasswordProblem,
  verifyPassword,
} from './passwords.js';

describe('common passwords (@zxcvbn-ts/language-common)', () => {
  it('finds listed passwords whatever their case, added symbols or symbol-for-letter spelling', async () => {
    for (const p of [
      'password1',
      'qwerty123',
      'Password1!',
      'QWERTY123!',
      'P@ssw0rd',
      'P@ssw0rd1',
      '!!iloveyou!!',
      'Admin@123',
    ]) {
      expect(await isCommonPassword(p), p).toBe(true);
    }
  });

  it('lets uncommon passwords and the demo password through', async () => {
    for (const p of [DEMO_PASSWORD, 'Heron#2026x', 'kestrel481', 'Xyz789!a']) {
      expect(await isCommonPassword(p), p).toBe(false);
    }
  });

  it('looks up the lower-cased, trimmed, symbol-free and de-substituted spellings', () => {
    expect(commonPasswordVariants('P@ss-W0rd!')).toEqual(
      expect.arrayContaining(['p@ss-w0rd!', 'p@ss-w0rd', 'pssw0rd', 'pass-word', 'password']),
    );
  });

  it('answers the policy problem first, then passwordTooSimple for a listed password, under both policies', async () => {
    expect(await newPasswordProblem('abc', false)).toBe('passwordTooShort');
    expect(await newPasswordProblem('qwerty123', false)).toBe('passwordTooSimple');
    expect(await newPasswordProblem('Qwerty123!', true)).toBe('passwordTooSimple');
    expect(await newPasswordProblem('kestrel481', false)).toBeNull();
    expect(await newPasswordProblem('Heron#2026x', true)).toBeNull();
  });
});

describe('password hashes', () => {
  // Test factories hash their accounts' passwords more cheaply (test/factories.ts): the production
  // cost is checked here, where nothing else would notice it falling.
  it("are argon2id at OWASP's cost (19 MiB, 2 passes), salted, and verify only the password", async () => {
    const a = await hashPassword('Heron#2026x');
    const b = await hashPassword('Heron#2026x');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(a, 'Heron#2026x')).toBe(true);
    expect(await verifyPassword(a, 'heron#2026x')).toBe(false);
    expect(await verifyPassword(null, 'Heron#2026x')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { parseUploadKey, uploadKey } from '../policies/index.js';
import { codeError, codeOwner, codeProblem, hashCode, newCode } from './upload-codes.js';

const now = new Date('2026-11-22T08:00:00Z');
const later = new Date(now.getTime() + 60_000);

describe('upload codes', () => {
  it('are 256-bit URL-safe secrets stored only as their hash', () => {
    const a = newCode();
    const b = newCode();
    expect(a.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.code).not.toBe(b.code);
    expect(a.hash).toBe(hashCode(a.code));
    expect(a.hash).not.toContain(a.code);
    expect(hashCode(`${a.code}x`)).not.toBe(a.hash);
  });

  it('work only for their purpose, before expiry and before use', () => {
    const open = { purpose: 'signature' as const, expiresAt: later, usedAt: null };
    expect(codeProblem(open, ['signature'], now)).toBeNull();
    expect(codeProblem(undefined, ['signature'], now)).toBe('invalid');
    expect(codeProblem(open, ['form', 'attachment'], now)).toBe('invalid');
    expect(codeProblem({ ...open, usedAt: now }, ['signature'], now)).toBe('used');
    expect(codeProblem(open, ['signature'], later)).toBe('expired');
    expect(codeProblem({ ...open, purpose: 'form' }, ['form', 'attachment'], now)).toBeNull();
  });

  it('answer LinkInvalid with the reason', () => {
    const err = codeError('expired');
    expect(err.code).toBe('LinkInvalid');
    expect(err.details).toEqual({ problem: 'expired' });
  });

  it('own upload keys apart from every account', () => {
    const id = crypto.randomUUID();
    const key = uploadKey('forms', codeOwner(id), 'application/pdf');
    expect(parseUploadKey(key)).toEqual({ kind: 'forms', accountId: `code-${id}`, type: 'application/pdf' });
    expect(codeOwner(id)).not.toBe(id);
  });
});

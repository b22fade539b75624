import { describe, expect, it } from 'vitest';
import { entryCanonical, entryPayloadSchema, entryTokenQuerySchema, isEntryTarget } from './entry.js';
import { globalConfigQuerySchema, globalConfigUpdateSchema } from './global-config.js';

describe('signed entries', () => {
  it('sign every field in a fixed order, an absent target empty', () => {
    expect(entryCanonical({ groupId: 'g', username: 'u', timestamp: 5, nonce: 'n' })).toBe(
      'groupId=g\nusername=u\ntimestamp=5\nnonce=n\ntarget=',
    );
  });

  it('land only on the study list or an exam and its report, never off the site', () => {
    for (const ok of ['/studies', '/studies/e-1/reports/e-1']) expect(isEntryTarget(ok), ok).toBe(true);
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/studies/../admin',
      '/settings/admin',
      '/studies/e-1',
      '/studies/e 1',
      '/studies/e-1/reports/e-1?x=1',
      '',
    ]) {
      expect(isEntryTarget(bad), bad).toBe(false);
    }
  });

  it('take a payload with a fresh nonce and a lower-case hex signature only', () => {
    const base = { groupId: 'g', username: 'doctor', timestamp: 1, nonce: 'a'.repeat(16), signature: 'f'.repeat(64) };
    expect(entryPayloadSchema.safeParse(base).success).toBe(true);
    expect(entryPayloadSchema.safeParse({ ...base, nonce: 'short' }).success).toBe(false);
    expect(entryPayloadSchema.safeParse({ ...base, signature: 'F'.repeat(64) }).success).toBe(false);
    expect(entryPayloadSchema.safeParse({ ...base, timestamp: '1' }).success).toBe(false);
    expect(entryTokenQuerySchema.safeParse({ signature: 'x', type: 'go', source: 'HIS <b>' }).success).toBe(false);
  });
});

describe('global configs', () => {
  it('ask known keys only', () => {
    expect(globalConfigQuerySchema.parse({ keys: 'helpUrl, announcement' }).keys).toEqual(['helpUrl', 'announcement']);
    expect(globalConfigQuerySchema.safeParse({ keys: 'helpUrl,password' }).success).toBe(false);
    expect(globalConfigQuerySchema.safeParse({ keys: '' }).success).toBe(false);
  });

  it('set values by their key’s rule, null to clear', () => {
    expect(globalConfigUpdateSchema.safeParse({ helpUrl: 'javascript:alert(1)' }).success).toBe(false);
    expect(globalConfigUpdateSchema.safeParse({ helpUrl: null, supportPhone: '+86 10-6500 1234' }).success).toBe(true);
    expect(globalConfigUpdateSchema.safeParse({}).success).toBe(false);
    expect(globalConfigUpdateSchema.safeParse({ other: 'x' }).success).toBe(false);
  });
});

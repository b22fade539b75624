import { describe, expect, it } from 'vitest';
import {
  createQuickSearchSchema,
  quickSearchCriteriaSchema,
  quickSearchFilters,
  STUDY_DATE_PRESETS,
  studyDateRange,
} from './quick-search.js';

// A local day, as the browser sees it: 2026-03-01 (a month boundary, 2026 is not a leap year).
const today = new Date(2026, 2, 1, 9, 30);

describe('studyDateRange', () => {
  const expected: Record<string, [string, string]> = {
    today: ['20260301', '20260301'],
    yesterday: ['20260228', '20260228'],
    last3Days: ['20260227', '20260301'],
    last7Days: ['20260223', '20260301'],
    last30Days: ['20260131', '20260301'],
    last90Days: ['20251202', '20260301'],
    lastYear: ['20250302', '20260301'],
    custom: ['20260101', ''],
  };
  for (const preset of STUDY_DATE_PRESETS) {
    it(`resolves ${preset}`, () => {
      expect(studyDateRange({ preset, from: '20260101' }, today)).toEqual(expected[preset]);
    });
  }
  it('puts the study date first among the filters', () => {
    const c = quickSearchCriteriaSchema.parse({
      studyDate: { preset: 'yesterday' },
      filters: [{ field: 'modality', operator: 'eq', values: ['CT'] }],
    });
    expect(quickSearchFilters(c, today)).toEqual([
      { field: 'studyDate', operator: 'range', values: ['20260228', '20260228'] },
      { field: 'modality', operator: 'eq', values: ['CT'] },
    ]);
  });
});

describe('quick search validation', () => {
  const criteria = { studyDate: { preset: 'today' } };
  const ok = (title: string) => createQuickSearchSchema.safeParse({ title, criteria }).success;
  it('requires a title of 1 to 10 characters, counting characters not bytes', () => {
    expect(ok('')).toBe(false);
    expect(ok('  ')).toBe(false);
    expect(ok('CT')).toBe(true);
    expect(ok('十个汉字十个汉字十个')).toBe(true);
    expect(ok('十一个汉字十一个汉字十')).toBe(false);
    expect(ok('0123456789')).toBe(true);
    expect(ok('01234567890')).toBe(false);
  });
  it('requires a study date, with dates for a custom one', () => {
    expect(createQuickSearchSchema.safeParse({ title: 'x', criteria: {} }).success).toBe(false);
    expect(
      createQuickSearchSchema.safeParse({ title: 'x', criteria: { studyDate: { preset: 'custom' } } }).success,
    ).toBe(false);
    expect(
      createQuickSearchSchema.safeParse({ title: 'x', criteria: { studyDate: { preset: 'custom', to: '20261231' } } })
        .success,
    ).toBe(true);
    expect(
      createQuickSearchSchema.safeParse({ title: 'x', criteria: { studyDate: { preset: 'custom', to: '2026-12-31' } } })
        .success,
    ).toBe(false);
  });
  it('refuses a second study date and invalid filters', () => {
    const bad = (filters: unknown[]) =>
      createQuickSearchSchema.safeParse({ title: 'x', criteria: { ...criteria, filters } }).success;
    expect(bad([{ field: 'studyDate', operator: 'range', values: ['20260101', ''] }])).toBe(false);
    expect(bad([{ field: 'modality', operator: 'contains', values: ['C'] }])).toBe(false);
    expect(bad([{ field: 'modality', operator: 'in', values: ['CT', 'MR'] }])).toBe(true);
  });
});

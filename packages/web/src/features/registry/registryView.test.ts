import { describe, expect, it } from 'vitest';
import {
  ageInYears,
  birthDateFromAge,
  confirmAllowed,
  filtersToSave,
  initialFilters,
  nextDays,
  restoredFilters,
  toQuery,
} from './registryView';

describe('registry view helpers', () => {
  it('builds the query: page size 10, newest registration first, internal by default', () => {
    expect(toQuery({ ...initialFilters, q: ' wang ', page: 3 })).toEqual({
      q: 'wang',
      source: 'internal',
      statuses: [],
      sort: { field: 'created', direction: 'desc' },
      skip: 20,
      limit: 10,
    });
    expect(toQuery({ ...initialFilters, from: '2026-11-27', to: '2026-11-30' })).toMatchObject({
      from: '2026-11-27',
      to: '2026-11-30',
    });
  });

  it('gives quick ranges in the hospital’s days (UTC+8)', () => {
    expect(nextDays(3, new Date('2026-11-26T17:00:00Z'))).toEqual({ from: '2026-11-27', to: '2026-11-30' });
  });

  it('computes ages from birth dates and back', () => {
    expect(ageInYears('19800615', '2026-06-14')).toBe(45);
    expect(ageInYears('19800615', '2026-06-15')).toBe(46);
    expect(ageInYears('', '2026-06-15')).toBeNull();
    expect(birthDateFromAge(30, '2026-11-27')).toBe('19960101');
  });

  it('allows confirming 1 to 15 at once', () => {
    expect(confirmAllowed(0)).toBe(false);
    expect(confirmAllowed(15)).toBe(true);
    expect(confirmAllowed(16)).toBe(false);
  });

  it('keeps the organization, source, statuses and quick range; a quick range comes back counted from today', () => {
    const chosen = {
      ...initialFilters,
      q: 'wang',
      source: 'all' as const,
      statuses: ['Arrived' as const],
      quickRange: 7 as const,
      ...nextDays(7, new Date('2026-01-01T00:00:00Z')),
      page: 4,
    };
    const saved = filtersToSave(chosen, 'b2');
    expect(saved).toEqual({ bucketId: 'b2', source: 'all', statuses: ['Arrived'], quickRange: 7 });
    // Restored on 27 November: the next 7 days from then, the search and page not kept.
    expect(restoredFilters(saved, new Date('2026-11-27T02:00:00Z'))).toEqual({
      ...initialFilters,
      source: 'all',
      statuses: ['Arrived'],
      quickRange: 7,
      from: '2026-11-27',
      to: '2026-12-04',
    });
    expect(restoredFilters(undefined)).toEqual(initialFilters);
    // A custom range is not kept.
    expect(filtersToSave({ ...initialFilters, from: '2026-12-01', to: '2026-12-02' }, 'b1').quickRange).toBeNull();
  });
});

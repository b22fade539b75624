import { describe, expect, it } from 'vitest';
import { ageInYears, birthDateFromAge, confirmAllowed, nextDays, toQuery, initialFilters } from './registryView';

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
});

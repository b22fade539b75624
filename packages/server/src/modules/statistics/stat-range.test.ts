import { describe, expect, it } from 'vitest';
import { splitRange } from './stat-range.js';

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const days = (from: string, to: string) => {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY) out.push(iso(t));
  return out;
};

/** Every day the parts cover, a whole month counting each of its days. */
function covered(from: string, to: string): string[] {
  const parts = splitRange(from, to);
  const out = parts.days.flatMap((d) => days(d.from, d.to));
  if (parts.months) {
    for (const month of days(parts.months.from, parts.months.to).filter((d) => d.endsWith('-01'))) {
      const [y, m] = month.split('-').map(Number) as [number, number];
      out.push(...days(month, iso(Date.UTC(y, m, 0))));
    }
  }
  return out;
}

describe('splitRange', () => {
  it('covers every range of a leap-year span exactly once, whole months as months', () => {
    // every (from, to) with both in 2027-12-20 .. 2028-03-10 (a leap February, a year's turn)
    const span = days('2027-12-20', '2028-03-10');
    for (const [i, from] of span.entries()) {
      for (const to of span.slice(i)) {
        const got = covered(from, to);
        expect(got.slice().sort()).toEqual(days(from, to));
        const parts = splitRange(from, to);
        // a month is summed from stat_monthly only when the range holds all of it
        if (parts.months) {
          expect(parts.months.from.endsWith('-01')).toBe(true);
          expect(parts.months.from >= from).toBe(true);
        }
        expect(parts.days.length).toBeLessThanOrEqual(2);
        for (const d of parts.days) expect(d.from <= d.to).toBe(true);
      }
    }
  });

  it('reads a year from twelve months, a month and a half as a month and the days after it', () => {
    expect(splitRange('2025-11-01', '2026-10-31')).toEqual({
      months: { from: '2025-11-01', to: '2026-10-01' },
      days: [],
    });
    expect(splitRange('2026-09-01', '2026-10-15')).toEqual({
      months: { from: '2026-09-01', to: '2026-09-01' },
      days: [{ from: '2026-10-01', to: '2026-10-15' }],
    });
    expect(splitRange('2026-09-02', '2026-10-30')).toEqual({
      months: null,
      days: [{ from: '2026-09-02', to: '2026-10-30' }],
    });
    expect(splitRange('2026-10-05', '2026-10-04')).toEqual({ months: null, days: [] });
  });
});

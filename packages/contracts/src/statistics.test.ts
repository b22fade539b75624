import { describe, expect, it } from 'vitest';
import {
  addMonths,
  daysInRange,
  lastDayAllowed,
  periodOf,
  periodsBetween,
  presetRange,
  STAT_DIMENSIONS,
  STAT_DIMENSIONS_OF,
  STAT_KINDS,
  statQuerySchema,
  statRangeProblem,
  STAT_ACTION,
  statRangeWarning,
} from './statistics.js';
import { ACTION_CATALOGUE } from './permissions.js';

const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const DAY = 86_400_000;

describe('statistics ranges (spec 000 §5)', () => {
  it('device workload takes at most one calendar month, note-taker one year, the rest five years', () => {
    expect(statRangeProblem('modality', '2026-01-01', '2026-01-31')).toBeNull();
    expect(statRangeProblem('modality', '2026-01-01', '2026-02-01')).toBe('StatisticsRangeTooLong');
    expect(statRangeProblem('modality', '2026-03-15', '2026-04-14')).toBeNull();
    expect(statRangeProblem('modality', '2026-03-15', '2026-04-15')).toBe('StatisticsRangeTooLong');
    expect(statRangeProblem('modality', '2026-01-31', '2026-02-27')).toBeNull();
    expect(statRangeProblem('modality', '2026-01-31', '2026-02-28')).toBe('StatisticsRangeTooLong');
    expect(statRangeProblem('note-taker', '2025-03-01', '2026-02-28')).toBeNull();
    expect(statRangeProblem('note-taker', '2025-03-01', '2026-03-01')).toBe('StatisticsRangeTooLong');
    expect(statRangeProblem('report', '2021-01-01', '2025-12-31')).toBeNull();
    expect(statRangeProblem('report', '2021-01-01', '2026-01-01')).toBe('StatisticsRangeTooLong');
    expect(statRangeProblem('report', '2026-01-02', '2026-01-01')).toBe('StatisticsRangeInvalid');
  });

  it('every start day of two years: the allowed end is the day before the same date a period later, and one day more is refused', () => {
    for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2026, 0, 1); t += DAY) {
      const from = day(t);
      for (const kind of ['modality', 'note-taker', 'report'] as const) {
        const last = lastDayAllowed(kind, from);
        expect(statRangeProblem(kind, from, last)).toBeNull();
        expect(statRangeProblem(kind, from, day(Date.parse(`${last}T00:00:00Z`) + DAY))).toBe('StatisticsRangeTooLong');
        expect(statRangeProblem(kind, from, from)).toBeNull();
      }
      const month = daysInRange(from, lastDayAllowed('modality', from));
      expect(month).toBeGreaterThanOrEqual(28);
      expect(month).toBeLessThanOrEqual(31);
      expect([365, 366]).toContain(daysInRange(from, lastDayAllowed('note-taker', from)));
    }
  });

  it('remote report statistics beyond a year answer with a warning; no other statistic warns', () => {
    expect(statRangeWarning('remote-report', '2025-01-01', '2025-12-31')).toBeNull();
    expect(statRangeWarning('remote-report', '2025-01-01', '2026-01-01')).toBe('rangeBeyondYear');
    expect(statRangeProblem('remote-report', '2025-01-01', '2026-06-01')).toBeNull();
    for (const k of STAT_KINDS.filter((x) => x !== 'remote-report')) {
      expect(statRangeWarning(k, '2020-01-01', '2024-12-31')).toBeNull();
    }
  });

  it('addMonths keeps the day or takes the month end', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-11-30', 2)).toBe('2027-01-30');
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28');
  });
});

describe('statistics periods (spec 000 §9)', () => {
  it('a week starts on Monday; months and years by their prefix', () => {
    expect(periodOf('2026-11-29', 'week')).toBe('2026-11-23'); // a Sunday
    expect(periodOf('2026-11-23', 'week')).toBe('2026-11-23'); // a Monday
    expect(periodOf('2026-11-29', 'month')).toBe('2026-11');
    expect(periodOf('2026-11-29', 'year')).toBe('2026');
    expect(periodOf('2026-11-29', 'day')).toBe('2026-11-29');
  });

  it('periodsBetween lists each period of the range once, in order, for every interval', () => {
    for (const interval of ['day', 'week', 'month', 'year'] as const) {
      const ps = periodsBetween('2025-12-20', '2026-02-10', interval);
      expect(new Set(ps).size).toBe(ps.length);
      expect([...ps].sort()).toEqual(ps);
      for (let t = Date.parse('2025-12-20T00:00:00Z'); t <= Date.parse('2026-02-10T00:00:00Z'); t += DAY) {
        expect(ps).toContain(periodOf(day(t), interval));
      }
    }
    expect(periodsBetween('2025-12-20', '2026-02-10', 'day')).toHaveLength(53);
    expect(periodsBetween('2025-12-20', '2026-02-10', 'month')).toEqual(['2025-12', '2026-01', '2026-02']);
  });

  it('presets: yesterday, the last 7 and 30 days ending today', () => {
    expect(presetRange('yesterday', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(presetRange('last7', '2026-03-01')).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(daysInRange(presetRange('last30', '2026-03-01').from, '2026-03-01')).toBe(30);
  });
});

describe('statistics query and actions', () => {
  it('takes organizations as a comma list (GET) or an array (POST); a period is required', () => {
    const q = statQuerySchema.parse({ from: '2026-01-01', to: '2026-01-31', bucketIds: 'a,b' });
    expect(q.bucketIds).toEqual(['a', 'b']);
    expect(q.interval).toBe('day');
    expect(q.version).toBe('simple');
    expect(statQuerySchema.parse({ from: '2026-01-01', to: '2026-01-31', bucketIds: ['a'] }).bucketIds).toEqual(['a']);
    expect(statQuerySchema.safeParse({ to: '2026-01-31' }).success).toBe(false);
    expect(statQuerySchema.safeParse({ from: '2026-02-30', to: '2026-03-01' }).success).toBe(false);
    expect(statQuerySchema.safeParse({ from: '2026-01-01', to: '2026-01-02', interval: 'hour' }).success).toBe(false);
  });

  it('every statistic names a statistics action and dimensions that exist', () => {
    for (const a of Object.values(STAT_ACTION)) expect(ACTION_CATALOGUE.statistics).toContain(a);
    for (const k of STAT_KINDS) {
      expect(STAT_DIMENSIONS_OF[k].length).toBeGreaterThan(0);
      for (const d of STAT_DIMENSIONS_OF[k]) expect(STAT_DIMENSIONS).toContain(d);
    }
  });
});

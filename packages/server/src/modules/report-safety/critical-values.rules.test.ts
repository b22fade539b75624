import { describe, expect, it } from 'vitest';
import {
  listPeriod,
  nextCriticalStatus,
  pendingCriticalActions,
  roundMinutes,
  statsPeriod,
} from './critical-values.rules.js';

describe('critical value machine', () => {
  it.each([
    ['sent', 'receive', 'received'],
    ['sent', 'handle', null],
    ['received', 'receive', null],
    ['received', 'handle', 'handled'],
    ['handled', 'receive', null],
    ['handled', 'handle', null],
  ] as const)('%s + %s → %s', (status, action, next) => {
    expect(nextCriticalStatus(status, action)).toBe(next);
  });
  it('awaits receipt, then handling, then nothing', () => {
    expect(pendingCriticalActions('sent')).toEqual(['receive']);
    expect(pendingCriticalActions('received')).toEqual(['handle']);
    expect(pendingCriticalActions('handled')).toEqual([]);
  });
});

describe('statistics period', () => {
  it('takes dates as whole UTC days, `to` inclusive', () => {
    expect(statsPeriod('2026-11-01', '2026-11-01')).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-02T00:00:00Z'),
    });
  });
  it('takes instants as they are', () => {
    expect(statsPeriod('2026-11-01T08:00:00+08:00', '2026-11-02T08:00:00+08:00')).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-02T00:00:00Z'),
    });
  });
  it('refuses reversed, empty and over-long periods', () => {
    expect(statsPeriod('2026-11-02', '2026-11-01')).toBeNull();
    expect(statsPeriod('2026-11-01T08:00:00Z', '2026-11-01T08:00:00Z')).toBeNull();
    expect(statsPeriod('2025-01-01', '2026-11-01')).toBeNull();
    expect(statsPeriod('2026-01-01', '2026-12-31')).not.toBeNull();
  });
  it('rounds minutes to a tenth from either driver form', () => {
    expect(roundMinutes('7.04')).toBe(7);
    expect(roundMinutes(6.666)).toBe(6.7);
    expect(roundMinutes(null)).toBeNull();
  });
});

describe('list period', () => {
  it('takes either bound alone, a date `to` inclusive and no cap', () => {
    expect(listPeriod()).toEqual({});
    expect(listPeriod('2026-11-01')).toEqual({ from: new Date('2026-11-01T00:00:00Z') });
    expect(listPeriod(undefined, '2026-11-01')).toEqual({ to: new Date('2026-11-02T00:00:00Z') });
    expect(listPeriod('2020-01-01', '2026-11-01T08:00:00+08:00')).toEqual({
      from: new Date('2020-01-01T00:00:00Z'),
      to: new Date('2026-11-01T00:00:00Z'),
    });
  });
  it('refuses a reversed or empty period', () => {
    expect(listPeriod('2026-11-02', '2026-11-01')).toBeNull();
    expect(listPeriod('2026-11-01T08:00:00Z', '2026-11-01T08:00:00Z')).toBeNull();
  });
});

import type { AllowedStatistics } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { formatValue, periodOfPreset, queryOf, visibleKinds, type StatSelection } from './statView';

describe('statistics view rules', () => {
  it('gives the preset ranges on a hospital day, last month from its first to its last day', () => {
    expect(periodOfPreset('yesterday', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(periodOfPreset('last7', '2026-03-01')).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(periodOfPreset('last30', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(periodOfPreset('lastMonth', '2026-03-01')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(periodOfPreset('lastMonth', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });

  it('lists the statistics whose action the caller holds in the group', () => {
    const allowed: AllowedStatistics = {
      items: [
        { bucketId: 'b1', name: 'A', groupId: 'g1', actions: ['registrar_stats', 'quality_stats'] },
        { bucketId: 'b2', name: 'B', groupId: 'g2', actions: ['physician_workload_stats'] },
      ],
      groups: [],
    };
    expect(visibleKinds(allowed, 'g1')).toEqual(['arriver', 'registrar', 'quality']);
    expect(visibleKinds(allowed, undefined)).toEqual(['report', 'arriver', 'registrar', 'quality']);
    expect(visibleKinds(undefined, 'g1')).toEqual([]);
  });

  it('asks the chosen organizations, else the group; the version only for the doctor workload', () => {
    const s: StatSelection = {
      from: '2026-11-01',
      to: '2026-11-30',
      interval: 'week',
      bucketIds: [],
      by: 'doctor',
      version: 'detailed',
      fromStep: 'registered',
      toStep: 'approved',
      currency: 'USD',
    };
    expect(queryOf('report', s, 'g1')).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      interval: 'week',
      groupId: 'g1',
      by: 'doctor',
      version: 'detailed',
    });
    expect(queryOf('report-positive', { ...s, bucketIds: ['b1', 'b2'] }, 'g1')).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      interval: 'week',
      bucketIds: ['b1', 'b2'],
      by: 'doctor',
    });
    expect(queryOf('study', { ...s, by: 'bucket' }, undefined)).not.toHaveProperty('groupId');
    expect(queryOf('group-payment', { ...s, by: 'bucket' }, 'g1')).toMatchObject({ currency: 'USD' });
  });

  it('formats money, rates, minutes and counts', () => {
    expect(formatValue('paidFen', 1250)).toBe('¥12.50');
    expect(formatValue('netFen', -1250, 'USD')).toBe('-$12.50');
    expect(formatValue('positiveRate', 0.5)).toBe('50.0%');
    expect(formatValue('medianMinutes', 35.25)).toBe('35.3');
    expect(formatValue('exams', 12)).toBe('12');
    expect(formatValue('exams', null)).toBe('—');
  });
});

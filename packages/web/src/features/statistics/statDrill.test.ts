import type { StatRow } from '@yyp/contracts';
import { describe, expect, it } from 'vitest';
import { drillOf, drills } from './statDrill';

const table = (by: 'doctor' | 'modality' | 'bodyPart') => ({
  from: '2026-10-01',
  to: '2026-10-31',
  by,
  buckets: [
    { id: 'b1', name: 'Radiology' },
    { id: 'b2', name: 'Ultrasound' },
  ],
});
const row = (key: string, label: string, sub?: string): StatRow => ({
  key,
  label,
  values: {},
  ...(sub ? { sub } : {}),
});
const period = { field: 'reportApproved', operator: 'range', values: ['2026-10-01', '2026-10-31'] };
const buckets = { field: 'bucketId', operator: 'in', values: ['b1', 'b2'] };

describe('a statistic row drilled into the study list', () => {
  it('drills from the doctor and modality rows of the workload, and those and body parts of the positive rate', () => {
    expect(drills('report', 'doctor')).toBe(true);
    expect(drills('report', 'modality')).toBe(true);
    expect(drills('report', 'bucket')).toBe(false);
    expect(drills('report-positive', 'bodyPart')).toBe(true);
    expect(drills('quality', 'doctor')).toBe(false);
  });

  it("a doctor: the reports the doctor wrote, approved in the period, in the statistic's organizations", () => {
    expect(drillOf('report', table('doctor'), {}, row('u-li', '李医生'))).toEqual({
      filters: [{ field: 'reportWriterId', operator: 'eq', values: ['u-li'] }, period, buckets],
      from: '李医生',
    });
    // the detailed workload's row of a doctor and a modality, or a statistic asked for one modality
    expect(drillOf('report', table('doctor'), {}, row('u-li', '李医生', 'MR'))?.filters).toContainEqual({
      field: 'modality',
      operator: 'eq',
      values: ['MR'],
    });
    expect(drillOf('report', table('doctor'), { modality: 'CT' }, row('u-li', '李医生'))?.filters).toContainEqual({
      field: 'modality',
      operator: 'eq',
      values: ['CT'],
    });
    // the row of no doctor drills nowhere
    expect(drillOf('report', table('doctor'), {}, row('', ''))).toBeNull();
  });

  it("the positive rate: a modality's (or body part's) positive reports approved in the period", () => {
    expect(drillOf('report-positive', table('modality'), {}, row('CT', 'CT'))).toEqual({
      filters: [
        period,
        buckets,
        { field: 'modality', operator: 'eq', values: ['CT'] },
        { field: 'reportPositive', operator: 'eq', values: ['true'] },
      ],
      from: 'CT',
    });
    expect(drillOf('report-positive', table('bodyPart'), {}, row('CHEST', 'CHEST'))?.filters).toContainEqual({
      field: 'bodyPart',
      operator: 'eq',
      values: ['CHEST'],
    });
  });
});

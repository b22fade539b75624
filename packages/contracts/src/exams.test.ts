import { describe, expect, it } from 'vitest';
import { examFilterProblem, examQuerySchema, type ExamFilter } from './exams.js';

const f = (field: ExamFilter['field'], operator: ExamFilter['operator'], values: string[]): ExamFilter => ({
  field,
  operator,
  values,
});

describe('examFilterProblem', () => {
  it.each([
    f('patientName', 'contains', ['wxd']),
    f('patientName', 'prefix', ['王']),
    f('patientId', 'eq', ['P1']),
    f('modality', 'in', ['CT', 'MR']),
    f('studyDate', 'range', ['20260101', '']),
    f('studyDate', 'range', ['', '2026-01-31']),
    f('studyDate', 'in', ['20260101', '20260102']),
    f('created', 'range', ['2026-11-01T00:00:00Z', '2026-11-22']),
    f('age', 'range', ['18', '65']),
    f('patientGender', 'in', ['M', 'f']),
    f('uploadStatus', 'eq', ['processing']),
    f('hasImage', 'eq', ['true']),
    f('keyword', 'contains', ['A12']),
    f('patientSource', 'in', ['I', 'no']),
    f('applyDept', 'prefix', ['神经']),
    f('orderPlacer', 'eq', ['李医生']),
    f('urgentFlag', 'eq', ['true']),
    f('teleMedFlag', 'eq', ['false']),
    f('printed', 'eq', ['true']),
    f('critical', 'eq', ['false']),
    f('reportStatus', 'in', ['none', 'partial']),
    f('assigneeId', 'in', ['none', 'acc-1']),
    f('tagId', 'eq', ['tag-1']),
    f('reportSource', 'eq', ['0']),
    f('reportSource', 'eq', ['1']),
    f('reportSource', 'eq', ['2']),
  ])('accepts %j', (filter) => {
    expect(examFilterProblem(filter)).toBeNull();
  });

  it.each([
    [f('studyDate', 'contains', ['2026']), 'takes the operators'],
    [f('created', 'eq', ['2026-01-01']), 'takes the operators'],
    [f('modality', 'prefix', ['C']), 'takes the operators'],
    [f('patientName', 'eq', []), 'one non-empty value'],
    [f('patientName', 'contains', ['']), 'one non-empty value'],
    [f('patientName', 'eq', ['a', 'b']), 'one non-empty value'],
    [f('bucketId', 'in', []), 'one or more'],
    [f('studyDate', 'range', ['20260101']), 'two values'],
    [f('studyDate', 'range', ['', '']), 'two values'],
    [f('studyDate', 'eq', ['20261332']), 'is not a date'],
    [f('created', 'range', ['yesterday', '']), 'is not an ISO'],
    [f('age', 'range', ['-1', '']), 'is not whole years'],
    [f('patientGender', 'eq', ['X']), 'is not M, F, O or U'],
    [f('uploadStatus', 'eq', ['done']), 'processing or completed'],
    [f('hasImage', 'eq', ['yes']), 'true or false'],
    [f('patientSource', 'eq', ['X']), 'is not I, O, E, P, NO'],
    [f('urgentFlag', 'eq', ['1']), 'true or false'],
    [f('urgentFlag', 'in', ['true']), 'takes the operators'],
    [f('reportStatus', 'eq', ['approved']), 'is not a report status'],
    [f('tagId', 'contains', ['t']), 'takes the operators'],
    [f('reportSource', 'eq', ['3']), 'is not 0 (all), 1 (own reports) or 2 (remote reports)'],
    [f('reportSource', 'eq', ['remote']), 'is not 0 (all)'],
    [f('reportSource', 'eq', ['']), 'one non-empty value'],
    [f('reportSource', 'eq', ['1', '2']), 'one non-empty value'],
    [f('reportSource', 'in', ['1']), 'takes the operators'],
  ])('refuses %j', (filter, message) => {
    expect(examFilterProblem(filter)).toContain(message);
  });
});

describe('examQuerySchema', () => {
  it('defaults filters and sorts, and turns numbers and booleans into text values', () => {
    const parsed = examQuerySchema.parse({ filters: [{ field: 'hasImage', operator: 'eq', values: [true] }] });
    expect(parsed).toEqual({ filters: [{ field: 'hasImage', operator: 'eq', values: ['true'] }], sorts: [] });
  });
  it('names an unknown filter or sort field', () => {
    const bad = examQuerySchema.safeParse({
      filters: [{ field: 'patient_name; drop table exams', operator: 'eq', values: ['x'] }],
      sorts: [{ field: 'password', direction: 'asc' }],
    });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toContain('filters.0.field: Unknown filter field "patient_name; drop table exams"');
    expect(messages).toContain('sorts.0.field: Unknown sort field "password"');
  });
  it('takes the report source as a number or text, and refuses any other value', () => {
    const parsed = examQuerySchema.parse({ filters: [{ field: 'reportSource', operator: 'eq', values: [2] }] });
    expect(parsed.filters).toEqual([{ field: 'reportSource', operator: 'eq', values: ['2'] }]);
    expect(
      examQuerySchema.safeParse({ filters: [{ field: 'reportSource', operator: 'eq', values: [-1] }] }).success,
    ).toBe(false);
  });
  it('refuses an operator its field does not take, at the path of the filter', () => {
    const bad = examQuerySchema.safeParse({ filters: [{ field: 'created', operator: 'contains', values: ['1'] }] });
    expect(bad.error!.issues[0]).toMatchObject({ path: ['filters', 0] });
  });
});

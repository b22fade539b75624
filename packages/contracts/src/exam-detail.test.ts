import { describe, expect, it } from 'vitest';
import { addCoExamsSchema, examUpdateSchema, exportExamsSchema } from './exam-detail.js';

describe('examUpdateSchema', () => {
  const ok = (body: unknown) => examUpdateSchema.safeParse(body).success;
  it('takes the editable fields of spec 000 §3', () => {
    expect(
      ok({
        patientName: '王^小东',
        patientGender: 'M',
        patientDob: '19810615',
        patientPhone: '+86-138-0000-0000',
        patientSource: 'NO',
        outpatientId: 'MZ1',
        bodyPartCount: 100,
        weight: 61.5,
        height: 172,
        urgentFlag: true,
        isPrivacy: false,
        extensions: { cfg: '碘', n: 3 },
      }),
    ).toBe(true);
    expect(ok({ patientDob: '', patientSource: '' })).toBe(true);
    expect(ok({})).toBe(true);
  });
  it.each([
    [{ patientName: '' }],
    [{ patientGender: 'X' }],
    [{ patientDob: '19810230' }],
    [{ patientDob: '1981-06-15' }],
    [{ patientPhone: 'call me' }],
    [{ patientSource: 'Z' }],
    [{ bodyPartCount: 0 }],
    [{ bodyPartCount: 101 }],
    [{ weight: 0 }],
    [{ height: 301 }],
    [{ studyDesc: 'x'.repeat(65) }],
    [{ clinicImpression: 'x'.repeat(1025) }],
    [{ modality: 'CT' }],
    [{ storeUid: '1.2.3' }],
  ])('refuses %j', (body) => {
    expect(ok(body)).toBe(false);
  });
});

describe('addCoExamsSchema', () => {
  it('needs at least one exam id (spec 000 §5)', () => {
    expect(addCoExamsSchema.safeParse({ examIds: [] }).success).toBe(false);
    expect(addCoExamsSchema.safeParse({ examIds: ['e1'] }).success).toBe(true);
  });
});

describe('exportExamsSchema', () => {
  it('checks filters as the list does', () => {
    expect(
      exportExamsSchema.safeParse({ filters: [{ field: 'modality', operator: 'eq', values: ['CT'] }] }).success,
    ).toBe(true);
    expect(
      exportExamsSchema.safeParse({ filters: [{ field: 'modality', operator: 'contains', values: ['C'] }] }).success,
    ).toBe(false);
  });
});

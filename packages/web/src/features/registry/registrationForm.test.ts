import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { createBody, emptyRegistration, refusedField, updateBody, type RegistrationValues } from './registrationForm';

const today = '2026-11-27';

function values(overrides: Partial<RegistrationValues> = {}): RegistrationValues {
  const base = emptyRegistration(new Date('2026-11-27T02:00:00Z'));
  return {
    ...base,
    patient: { ...base.patient, name: 'Zhang San', gender: 'M' },
    inpatientId: 'ZY9',
    bedNum: '12',
    outpatientId: 'MZ1',
    physicalExamId: 'TJ3',
    exams: [{ ...base.exams[0]!, modality: 'CT' }],
    ...overrides,
  };
}

describe('registration form bodies', () => {
  it('sends only the id fields of the patient source', () => {
    expect(createBody('b1', values({ patientSource: 'I' }), false, today)).toMatchObject({
      bucketId: 'b1',
      arrive: false,
      patientSource: 'I',
      inpatientId: 'ZY9',
      bedNum: '12',
      outpatientId: '',
      physicalExamId: '',
    });
    expect(createBody('b1', values({ patientSource: 'P' }), false, today)).toMatchObject({
      inpatientId: '',
      bedNum: '',
      outpatientId: '',
      physicalExamId: 'TJ3',
    });
    expect(createBody('b1', values({ patientSource: 'NO' }), true, today)).toMatchObject({
      outpatientId: 'MZ1',
      arrive: true,
    });
  });

  it('turns an age into a birth date when none is given, and never sends the age', () => {
    const v = values();
    const body = createBody('b1', { ...v, patient: { ...v.patient, age: 40 } }, false, today);
    expect(body.patient).toEqual({
      patientId: '',
      name: 'Zhang San',
      gender: 'M',
      birthDate: '19860101',
      phone: '',
      idCard: '',
      address: '',
    });
  });

  it('edits with the version read and keeps the exams’ ids', () => {
    const v = values();
    const patient = { ...v.patient, id: 'p1' };
    const animal = { species: 'Dog', breed: '', owner: 'Wu', diseaseHistory: '' };
    const read = { id: 'r1', version: 3, patient: { id: 'p1', animal } as never };
    const body = updateBody(read, { ...v, patient, weight: 60, exams: [{ ...v.exams[0]!, id: 's1' }] }, today);
    expect(body.patient).toMatchObject({ id: 'p1', animal });
    expect(body.weight).toBe(60);
    expect(body.height).toBeNull();
    expect(body).toMatchObject({ id: 'r1', version: 3, exams: [{ id: 's1', modality: 'CT', scheduledDate: today }] });
    expect(body).not.toHaveProperty('bucketId');
    expect(body).not.toHaveProperty('arrive');
  });

  it('reads the refused field of a 400 as a form name path', () => {
    expect(refusedField(new ApiError('ValidationError', 400, 'x', { field: 'exams.1.scheduledDate' }))).toEqual([
      'exams',
      1,
      'scheduledDate',
    ]);
    expect(refusedField(new ApiError('ValidationError', 400, 'x', { field: 'patient.gender' }))).toEqual([
      'patient',
      'gender',
    ]);
    expect(refusedField(new ApiError('Conflict', 409, 'x'))).toBeNull();
    expect(refusedField(new Error('x'))).toBeNull();
  });
});

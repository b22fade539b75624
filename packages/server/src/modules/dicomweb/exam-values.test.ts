import { describe, expect, it } from 'vitest';
import type { exams } from '../../db/schema.js';
import type { DicomJson } from '../../dicom/json-model.js';
import { withExamValues } from './exam-values.js';

type Exam = typeof exams.$inferSelect;

const exam = (values: Partial<Exam>) =>
  ({
    patientName: 'WANG^WEI=王^伟',
    patientId: 'P1',
    patientDob: '19700101',
    patientGender: 'M',
    accessionNumber: 'A1',
    studyDate: '',
    studyTime: '',
    modality: '',
    referringPhysician: '',
    studyDesc: '',
    storeUid: '1.2.3',
    studyId: '',
    seriesCount: 0,
    instanceCount: 0,
    ...values,
  }) as Exam;

const header: DicomJson = {
  '00100010': { vr: 'PN', Value: [{ Alphabetic: 'WANG^WEI', Ideographic: '王^伟' }] },
  '00100020': { vr: 'LO', Value: ['P1'] },
  '00100030': { vr: 'DA', Value: ['19700101'] },
  '00100040': { vr: 'CS', Value: ['M'] },
  '00080050': { vr: 'SH', Value: ['A1'] },
  '00080060': { vr: 'CS', Value: ['CT'] },
};

describe('withExamValues', () => {
  it('leaves a file that agrees with its exam exactly as it is (every name group)', () => {
    expect(withExamValues(header, exam({}))).toBe(header);
  });

  it('answers the exam for each corrected attribute and the file for the rest', () => {
    const out = withExamValues(header, exam({ patientId: 'P2', accessionNumber: 'A2', patientGender: 'F' }));
    expect(out['00100020']).toEqual({ vr: 'LO', Value: ['P2'] });
    expect(out['00080050']).toEqual({ vr: 'SH', Value: ['A2'] });
    expect(out['00100040']).toEqual({ vr: 'CS', Value: ['F'] });
    expect(out['00100010']).toBe(header['00100010']);
    expect(out['00080060']).toBe(header['00080060']);
    expect(header['00100020']).toEqual({ vr: 'LO', Value: ['P1'] });
  });

  it('keeps a file value the index only cut to its VR length', () => {
    const long = 'X'.repeat(100);
    const file: DicomJson = { ...header, '00100020': { vr: 'LO', Value: [long] } };
    expect(withExamValues(file, exam({ patientId: long.slice(0, 64) }))['00100020']!.Value).toEqual([long]);
  });

  it('adds a corrected attribute the file lacks, and with `present` only touches what the answer has', () => {
    const { '00080050': _accession, ...without } = header;
    expect(withExamValues(without, exam({}))['00080050']).toEqual({ vr: 'SH', Value: ['A1'] });
    expect('00080050' in withExamValues(without, exam({}), true)).toBe(false);
    expect(withExamValues(without, exam({ accessionNumber: '' }))).toBe(without);
  });
});

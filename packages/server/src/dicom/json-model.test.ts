import dicomParser from 'dicom-parser';
import { describe, expect, it } from 'vitest';
import { instanceMetadata, toDicomJson, type DicomJson } from './json-model.js';
import { MAX_SEQUENCE_DEPTH } from './parse.js';
import { generateCtInstance } from './testdata/generate.js';
import { nestedSequences } from './testdata/mutate.js';

describe('DICOM JSON of hostile values', () => {
  it('answers text without U+0000, trailing padding trimmed', () => {
    const file = generateCtInstance({
      rows: 8,
      columns: 8,
      patientName: 'Li\0^Ming',
      patientId: 'P1\0\0',
      bodyPartExamined: 'HE\0AD',
      studyDescription: 'CT\0HEAD',
    }).bytes;
    const json = instanceMetadata(file, () => '');
    expect(json['00100010']).toEqual({ vr: 'PN', Value: [{ Alphabetic: 'Li^Ming' }] });
    expect(json['00100020']).toEqual({ vr: 'LO', Value: ['P1'] });
    expect(json['00180015']).toEqual({ vr: 'CS', Value: ['HEAD'] });
    expect(json['00081030']).toEqual({ vr: 'LO', Value: ['CTHEAD'] });
    expect(JSON.stringify(json)).not.toContain('\\u0000');
  });

  it(`answers items nested deeper than ${MAX_SEQUENCE_DEPTH} levels empty, so no stack runs out`, () => {
    const valid = generateCtInstance({ rows: 8, columns: 8 }).bytes;
    const file = nestedSequences(valid, 1500);
    const json = toDicomJson(dicomParser.parseDicom(file), undefined, () => '');
    let levels = 0;
    for (let node: DicomJson | undefined = json; node?.['0040A730']; levels++) {
      node = node['0040A730'].Value?.[0] as DicomJson | undefined;
    }
    expect(levels).toBe(MAX_SEQUENCE_DEPTH + 1);
    expect(() => JSON.stringify(json)).not.toThrow();
  });
});

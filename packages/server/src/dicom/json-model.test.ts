import dicomParser from 'dicom-parser';
import { describe, expect, it } from 'vitest';
import { instanceMetadata, toDicomJson, type DicomJson } from './json-model.js';
import { MAX_SEQUENCE_DEPTH } from './parse.js';
import { generateCtInstance } from './testdata/generate.js';
import { part10Layout } from './testdata/walk.js';
import {
  ITEM,
  ITEM_DELIMITER,
  SEQUENCE_DELIMITER,
  UNDEFINED_LENGTH,
  delimiter,
  header,
  tag,
} from './testdata/writer.js';

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
    const cs = tag(0x0040, 0xa730);
    const at = part10Layout(valid).dataset.find((e) => e.tag > cs)?.headerOffset ?? valid.length;
    const open = Buffer.concat([header(cs, 'SQ', UNDEFINED_LENGTH, true), delimiter(ITEM, UNDEFINED_LENGTH)]);
    const close = Buffer.concat([delimiter(ITEM_DELIMITER, 0), delimiter(SEQUENCE_DELIMITER, 0)]);
    const depth = 1500;
    const file = Buffer.concat([
      valid.subarray(0, at),
      ...Array.from({ length: depth }, () => open),
      ...Array.from({ length: depth }, () => close),
      valid.subarray(at),
    ]);
    const json = toDicomJson(dicomParser.parseDicom(file), undefined, () => '');
    let levels = 0;
    for (let node: DicomJson | undefined = json; node?.['0040A730']; levels++) {
      node = node['0040A730'].Value?.[0] as DicomJson | undefined;
    }
    expect(levels).toBe(MAX_SEQUENCE_DEPTH + 1);
    expect(() => JSON.stringify(json)).not.toThrow();
  });
});

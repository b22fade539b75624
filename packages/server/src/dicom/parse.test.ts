import { describe, expect, it } from 'vitest';
import { generateCtInstance, generateStudy, IMPLICIT_VR_LE } from './testdata/generate.js';
import { mutations, nestedSequences } from './testdata/mutate.js';
import { part10Layout } from './testdata/walk.js';
import { header, tag } from './testdata/writer.js';
import { DicomError, indexValue, MAX_SEQUENCE_DEPTH, parseInstance } from './parse.js';

const ct = generateStudy({
  modality: 'CT',
  instancesPerSeries: 1,
  rows: 64,
  columns: 64,
  patientName: '张三',
  charset: 'GB18030',
  patientId: 'P1',
});
const valid = ct.instances[0]!.bytes;

describe('parseInstance', () => {
  it('reads the header fields the archive keeps, names decoded', () => {
    const p = parseInstance(valid);
    expect(p.studyInstanceUid).toBe(ct.studyInstanceUid);
    expect(p.sopInstanceUid).toBe(ct.instances[0]!.sopInstanceUid);
    expect(p.patient).toMatchObject({ name: '张三', id: 'P1' });
    expect(p.series.modality).toBe('CT');
    expect(p.instance).toMatchObject({ rows: 64, columns: 64, frames: 1 });
    expect(p.charsetKnown).toBe(true);
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['no DICM prefix', Buffer.concat([Buffer.alloc(128), Buffer.from('NOPE'), valid.subarray(132)])],
    ['truncated in the header', valid.subarray(0, 400)],
    ['truncated pixel data', valid.subarray(0, valid.length - 100)],
  ])('refuses %s with a DicomError', (_name, bytes) => {
    expect(() => parseInstance(bytes)).toThrow(DicomError);
  });
});

describe('parser fuzzing: mutated files never crash or hang the parser', () => {
  // A hang fails this test through its time-out; nothing here measures speed.
  it('answers every mutation with a parse or a DicomError', { timeout: 60_000 }, () => {
    const kinds = new Map<string, number>();
    let n = 0;
    for (const m of mutations(valid, 20261122, 1500)) {
      n++;
      try {
        parseInstance(m.bytes);
      } catch (err) {
        if (!(err instanceof DicomError)) throw new Error(`${m.kind}: ${String(err)}`, { cause: err });
        kinds.set(m.kind, (kinds.get(m.kind) ?? 0) + 1);
      }
    }
    expect(n).toBe(1500);
    expect(kinds.size).toBeGreaterThan(3);
  });
});

describe('indexed values (issue 19): no U+0000, each cut to its VR maximum', () => {
  it('trims trailing NUL padding and leaves an embedded NUL out', () => {
    const p = parseInstance(
      generateCtInstance({
        rows: 8,
        columns: 8,
        patientName: 'Li\0^Ming',
        patientId: 'P1\0\0',
        studyDescription: 'CT\0HEAD',
        bodyPartExamined: 'HE\0AD',
      }).bytes,
    );
    expect(p.patient).toMatchObject({ name: 'Li^Ming', id: 'P1' });
    expect(p.study.description).toBe('CTHEAD');
    expect(p.series.bodyPart).toBe('HEAD');
  });

  it('cuts long values to PS3.5 lengths, a PN per component group, without splitting a character', () => {
    expect(indexValue('x'.repeat(100), 'LO')).toBe('x'.repeat(64));
    expect(indexValue('x'.repeat(100), 'SH')).toBe('x'.repeat(16));
    expect(indexValue(`${'a'.repeat(70)}=${'王'.repeat(70)}=${'b'.repeat(3)}=extra`, 'PN')).toBe(
      `${'a'.repeat(64)}=${'王'.repeat(64)}=bbb`,
    );
    expect(indexValue('😀'.repeat(20), 'SH')).toBe('😀'.repeat(16));
    expect(indexValue('ab\0cd', 'CS')).toBe('abcd');
    expect(indexValue('Li^Ming', 'PN')).toBe('Li^Ming');
  });

  it('indexes an 8 MB name cut, quickly', () => {
    const bytes = generateCtInstance({
      rows: 8,
      columns: 8,
      transferSyntax: IMPLICIT_VR_LE,
      patientName: 'N'.repeat(8 * 1024 * 1024),
      accessionNumber: 'A'.repeat(100_000),
      charset: 'ISO_IR 192',
    }).bytes;
    const started = performance.now();
    const p = parseInstance(bytes);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(p.patient.name).toBe('N'.repeat(64));
    expect(p.study.accessionNumber).toBe('A'.repeat(16));
  });

  it('answers no number for an IS value outside 32 bits (what IS allows)', () => {
    const valid = generateCtInstance({ rows: 8, columns: 8 });
    const withSeriesNumber = (value: string) => {
      const el = part10Layout(valid.bytes).dataset.find((e) => e.tag === tag(0x0020, 0x0011))!;
      const v = Buffer.from(value.length % 2 ? `${value} ` : value, 'latin1');
      return Buffer.concat([
        valid.bytes.subarray(0, el.headerOffset),
        header(tag(0x0020, 0x0011), 'IS', v.length, true),
        v,
        valid.bytes.subarray(el.end),
      ]);
    };
    expect(parseInstance(withSeriesNumber('2147483647')).series.number).toBe(2147483647);
    expect(parseInstance(withSeriesNumber('-12')).series.number).toBe(-12);
    expect(parseInstance(withSeriesNumber('2147483648')).series.number).toBeNull();
    expect(parseInstance(withSeriesNumber('99999999999')).series.number).toBeNull();
    expect(parseInstance(withSeriesNumber('12abc')).series.number).toBeNull();
  });

  it(`refuses sequences nested deeper than ${MAX_SEQUENCE_DEPTH} levels, reads them up to it`, () => {
    const valid = generateCtInstance({ rows: 8, columns: 8 }).bytes;
    const nest = (depth: number) => nestedSequences(valid, depth);
    expect(parseInstance(nest(MAX_SEQUENCE_DEPTH)).sopInstanceUid).toBeTruthy();
    expect(() => parseInstance(nest(MAX_SEQUENCE_DEPTH + 1))).toThrow(expect.objectContaining({ reason: 'tooDeep' }));
    expect(() => parseInstance(nest(200))).toThrow(expect.objectContaining({ reason: 'tooDeep' }));
  });

  it('refuses a UID with anything after its NUL padding', () => {
    const valid = generateCtInstance({ rows: 8, columns: 8 });
    const layout = part10Layout(valid.bytes);
    const sop = layout.dataset.find((e) => e.tag === tag(0x0008, 0x0018))!;
    const out = Buffer.from(valid.bytes);
    out[sop.valueOffset + 3] = 0;
    expect(() => parseInstance(out)).toThrow(expect.objectContaining({ reason: 'invalidUid' }));
  });
});

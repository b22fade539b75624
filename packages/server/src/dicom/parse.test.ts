import { describe, expect, it } from 'vitest';
import { generateStudy } from './testdata/generate.js';
import { mutations } from './testdata/mutate.js';
import { DicomError, parseInstance } from './parse.js';

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

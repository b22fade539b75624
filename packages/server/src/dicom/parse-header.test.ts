import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateCtInstance, IMPLICIT_VR_LE } from './testdata/generate.js';
import { mutations } from './testdata/mutate.js';
import { part10Layout } from './testdata/walk.js';
import { DatasetBuilder, encodePart10, header, tag, type TransferSyntax } from './testdata/writer.js';
import { DicomError, parseInstance, parseInstanceHeader } from './parse.js';

const MiB = 1024 * 1024;
const PIXEL = tag(0x7fe0, 0x0010);

/** Where a generated file's Pixel Data element starts and its value begins. */
function pixelOf(bytes: Buffer) {
  return part10Layout(bytes).dataset.find((e) => e.tag === PIXEL)!;
}

describe('parseInstanceHeader: the index from the first bytes of a file on disk', () => {
  it.each([
    ['explicit VR', undefined],
    ['implicit VR', IMPLICIT_VR_LE],
  ] as const)('%s: every prefix answers "read more" or exactly what the whole file parses to', (_n, ts) => {
    const bytes = generateCtInstance({
      rows: 64,
      columns: 64,
      patientName: '张三',
      charset: 'GB18030',
      ...(ts ? { transferSyntax: ts } : {}),
    }).bytes;
    const whole = parseInstance(bytes);
    const pixel = pixelOf(bytes);
    let answered = 0;
    for (let n = 132; n <= pixel.valueOffset; n++) {
      const p = parseInstanceHeader(bytes.subarray(0, n), bytes.length);
      if (p === null) continue;
      answered++;
      expect(p).toEqual(whole);
    }
    // The prefix up to the pixel data's value is always enough; the value itself is never read.
    expect(parseInstanceHeader(bytes.subarray(0, pixel.valueOffset), bytes.length)).toEqual(whole);
    expect(answered).toBeGreaterThan(0);
    expect(parseInstanceHeader(bytes.subarray(0, 600), bytes.length)).toBeNull();
  });

  it('checks the pixel data length against the size of the file, not the prefix', () => {
    const bytes = generateCtInstance({ rows: 64, columns: 64 }).bytes;
    const prefix = bytes.subarray(0, pixelOf(bytes).valueOffset);
    expect(() => parseInstanceHeader(prefix, bytes.length - 100)).toThrow(
      expect.objectContaining({ reason: 'truncated' }),
    );
  });

  it('needs a longer prefix while a large value comes before the groups it reads, not after them', () => {
    // An 8 MB patient name (group 0010) before the UIDs of group 0020.
    // (Implicit VR: an explicit PN cannot be that long.)
    const named = generateCtInstance({
      rows: 8,
      columns: 8,
      transferSyntax: IMPLICIT_VR_LE,
      patientName: 'N'.repeat(8 * MiB),
    }).bytes;
    const pixel = pixelOf(named);
    expect(parseInstanceHeader(named.subarray(0, MiB), named.length)).toBeNull();
    const p = parseInstanceHeader(named.subarray(0, pixel.valueOffset), named.length);
    expect(p?.patient.name).toBe('N'.repeat(64));

    // A 5 MB encapsulated document (0042,0011) after group 0028 and no pixel data.
    const plain = generateCtInstance({ rows: 8, columns: 8, patientId: 'DOC-1' });
    const cut = plain.bytes.subarray(0, pixelOf(plain.bytes).headerOffset);
    const doc = Buffer.concat([cut, header(tag(0x0042, 0x0011), 'OB', 5 * MiB, true), Buffer.alloc(5 * MiB)]);
    const q = parseInstanceHeader(doc.subarray(0, MiB), doc.length);
    expect(q).toMatchObject({ sopInstanceUid: plain.sopInstanceUid, patient: { id: 'DOC-1' } });
  });

  it('refuses the deflated transfer syntax without inflating anything, whole or from a prefix', () => {
    const meta = encodePart10({
      sopClassUid: '1.2.840.10008.5.1.4.1.1.7',
      sopInstanceUid: '1.2.3.4',
      transferSyntax: '1.2.840.10008.1.2.1.99' as TransferSyntax,
      dataset: new DatasetBuilder(),
    });
    // 256 MiB of zeros deflate to about 256 KiB: inflated at once, a few MB would ask for gigabytes.
    const file = Buffer.concat([meta, zlib.deflateRawSync(Buffer.alloc(256 * MiB), { level: 1 })]);
    const refused = expect.objectContaining({ reason: 'malformed', message: expect.stringContaining('deflated') });
    expect(() => parseInstance(file)).toThrow(refused);
    expect(() => parseInstanceHeader(file.subarray(0, 4096), file.length)).toThrow(refused);
  });

  it('answers a parse, "read more" or a DicomError for mutated files and any prefix', () => {
    const bytes = generateCtInstance({ rows: 16, columns: 16 }).bytes;
    let n = 0;
    for (const m of mutations(bytes, 20261123, 600)) {
      const cut = 132 + ((n++ * 7919) % Math.max(1, m.bytes.length - 132));
      try {
        parseInstanceHeader(m.bytes.subarray(0, cut), m.bytes.length);
      } catch (err) {
        if (!(err instanceof DicomError)) throw new Error(`${m.kind}: ${String(err)}`, { cause: err });
      }
    }
    expect(n).toBe(600);
  });
});

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetBuilder, EXPLICIT_VR_LE, IMPLICIT_VR_LE } from './dataset-writer.js';
import { DicomError } from './parse.js';
import { part10Dataset, toPart10 } from './part10.js';
import { generateStudy } from './testdata/generate.js';
import { rewriteLittleEndian } from './transcode.js';

/** A data set with text, numbers, a nested sequence and a private element, as the writer encodes it. */
function sample(): DatasetBuilder {
  const item = new DatasetBuilder('ISO_IR 192')
    .text(0x00081150, 'UI', '1.2.840.10008.5.1.4.1.1.2')
    .text(0x00081155, 'UI', '1.2.3.4')
    .sequence(0x00400220, [
      new DatasetBuilder('ISO_IR 192').text(0x00080100, 'SH', 'T-04000').text(0x00080104, 'LO', '胸部'),
    ]);
  return new DatasetBuilder('ISO_IR 192')
    .text(0x00080005, 'CS', 'ISO_IR 192')
    .text(0x00100010, 'PN', '张^伟')
    .uint16(0x00280010, 2)
    .decimal(0x00280030, [0.5, 0.5])
    .sequence(0x00081199, [item, item])
    .bytes(0x7fe00010, 'OW', Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]));
}

describe('rewriting between implicit and explicit VR little endian', () => {
  it('gives the explicit encoding of an implicit data set, and back, byte for byte', () => {
    const ds = sample();
    const implicit = ds.toBuffer(false);
    const explicit = ds.toBuffer(true);
    expect(rewriteLittleEndian(implicit, IMPLICIT_VR_LE, EXPLICIT_VR_LE).equals(explicit)).toBe(true);
    expect(rewriteLittleEndian(explicit, EXPLICIT_VR_LE, IMPLICIT_VR_LE).equals(implicit)).toBe(true);
    expect(rewriteLittleEndian(explicit, EXPLICIT_VR_LE, EXPLICIT_VR_LE)).toBe(explicit);
  });

  it('rewrites a whole CT instance that DCMTK then reads with the same pixels', () => {
    const [ct] = generateStudy({ modality: 'CT', rows: 64, columns: 64, instancesPerSeries: 1 }).instances;
    const source = part10Dataset(ct!.bytes);
    expect(source.transferSyntaxUid).toBe(EXPLICIT_VR_LE);
    const implicit = rewriteLittleEndian(source.dataset, EXPLICIT_VR_LE, IMPLICIT_VR_LE);
    const back = rewriteLittleEndian(implicit, IMPLICIT_VR_LE, EXPLICIT_VR_LE);
    expect(back.equals(source.dataset)).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-transcode-'));
    try {
      const file = path.join(dir, 'implicit.dcm');
      fs.writeFileSync(file, toPart10(implicit, { ...source, transferSyntaxUid: IMPLICIT_VR_LE }));
      const dump = execFileSync('dcmdump', ['-q', file], { encoding: 'utf8' });
      expect(dump).toMatch(/\(7fe0,0010\) OW/);
      expect(dump).toMatch(/\(0028,0010\) US 64/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what it cannot rewrite: truncated data, other syntaxes', () => {
    const explicit = sample().toBuffer(true);
    expect(() =>
      rewriteLittleEndian(explicit.subarray(0, explicit.length - 5), EXPLICIT_VR_LE, IMPLICIT_VR_LE),
    ).toThrow(DicomError);
    expect(() => rewriteLittleEndian(explicit, '1.2.840.10008.1.2.4.50', IMPLICIT_VR_LE)).toThrow(DicomError);
    for (let cut = 1; cut < explicit.length; cut += 7) {
      try {
        rewriteLittleEndian(explicit.subarray(0, cut), EXPLICIT_VR_LE, IMPLICIT_VR_LE);
      } catch (err) {
        expect(err).toBeInstanceOf(DicomError);
      }
    }
  });
});

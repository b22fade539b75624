import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import dicomParser from 'dicom-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CT_PHANTOM,
  type GeneratedStudy,
  IMPLICIT_VR_LE,
  type StudyOptions,
  ctPhantomExactHu,
  ctPhantomRegion,
  generateCtInstance,
  generateStudy,
  isValidUid,
  newUid,
  writeStudy,
} from './generate.js';

// DCMTK is the independent judge of validity: a file it reads without warnings (with automatic
// corrections off) and whose VRs match its data dictionary is one real archives accept.
function dcmdump(file: string, ...args: string[]): { out: string; err: string; status: number | null } {
  const r = spawnSync('dcmdump', ['-dc', '-ll', 'warn', ...args, file], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return { out: r.stdout, err: r.stderr, status: r.status };
}

/** "(gggg,eeee) VR" of every line, to compare the file's explicit VRs with the dictionary's. */
function tagsAndVrs(dump: string): string[] {
  return dump
    .split('\n')
    .filter((l) => /^\s*\([0-9a-f]{4},[0-9a-f]{4}\) [A-Z]{2}/.test(l) && !l.includes('(7fe0,0010)'))
    .map((l) => l.trim().slice(0, 14));
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'yyp-testdata-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function writeFirst(study: GeneratedStudy, name: string): Promise<string> {
  const paths = await writeStudy(path.join(dir, name), study);
  return paths[0]!;
}

describe('generateStudy', () => {
  const cases: [string, StudyOptions, RegExp[]][] = [
    ['CT', { modality: 'CT', rows: 64, columns: 64, instancesPerSeries: 2 }, [/=CTImageStorage/]],
    ['MR', { modality: 'MR', rows: 32, columns: 48, instancesPerSeries: 2 }, []],
    ['DX', { modality: 'DX', rows: 128, columns: 96 }, [/AnatomicRegionSequence/]],
    ['US', { modality: 'US', rows: 48, columns: 64, frames: 5 }, [/\(0028,0008\) IS \[5 \]/]],
    ['US RGB', { modality: 'US', rows: 31, columns: 33, frames: 3, usPhotometric: 'RGB' }, [/RGB/]],
    ['CT implicit', { modality: 'CT', rows: 16, columns: 16, transferSyntax: IMPLICIT_VR_LE }, [/Implicit/]],
  ];

  it.each(cases)('%s files pass dcmdump with the expected attributes', async (name, opts, extra) => {
    const study = generateStudy({ instancesPerSeries: 1, ...opts });
    const file = await writeFirst(study, name.replace(' ', '-'));
    const { out, err, status } = dcmdump(file);
    expect(err).toBe('');
    expect(status).toBe(0);
    expect(out).toContain(`(0010,0020) LO [${study.patientId}`);
    // Odd-length UIDs carry their NUL pad, which dcmdump prints.
    expect(out).toMatch(new RegExp(`\\(0020,000d\\) UI \\[${study.studyInstanceUid.replaceAll('.', '\\.')}\\0?\\]`));
    expect(out).toMatch(new RegExp(`\\(0028,0010\\) US ${opts.rows}\\s`));
    expect(out).toMatch(new RegExp(`\\(0028,0011\\) US ${opts.columns}\\s`));
    for (const re of extra) {
      expect(out).toMatch(re);
    }
    // -ev makes DCMTK take VRs from its dictionary instead of the file.
    expect(tagsAndVrs(out)).toEqual(tagsAndVrs(dcmdump(file, '-ev').out));
  });

  it('numbers series and instances and steps CT slices by the slice thickness', async () => {
    const study = generateStudy({ modality: 'CT', rows: 8, columns: 8, series: 2, instancesPerSeries: 3 });
    expect(study.instances.map((i) => `${i.seriesNumber}/${i.instanceNumber}`)).toEqual([
      '1/1',
      '1/2',
      '1/3',
      '2/1',
      '2/2',
      '2/3',
    ]);
    expect(new Set(study.instances.map((i) => i.seriesInstanceUid)).size).toBe(2);
    const paths = await writeStudy(path.join(dir, 'series'), study);
    const third = dcmdump(paths[2]!).out;
    expect(third).toMatch(/\(0020,0032\) DS \[-175\\-175\\-2.5\]/);
    expect(third).toMatch(/\(0020,1041\) DS \[-2.5\]/);
    expect(third).toContain('(0020,0013) IS [3 ]');
  });

  it('uses the default instance counts and sizes per modality', () => {
    const ct = generateStudy({ modality: 'CT', rows: 4, columns: 4 });
    const mr = generateStudy({ modality: 'MR', rows: 4, columns: 4 });
    expect([ct.instances.length, mr.instances.length]).toEqual([20, 10]);
    const us = generateStudy({ modality: 'US', frames: 1 }).instances[0]!;
    expect(us.sopClassUid).toBe('1.2.840.10008.5.1.4.1.1.3.1');
  });
});

describe('character sets', () => {
  it.each([
    ['GB18030', '张三^', '张三^'],
    ['GBK', '王五', '王五'],
    ['ISO_IR 192', '李四', '李四'],
    ['ISO_IR 100', 'Müller^Anna', 'Müller^Anna'],
  ] as const)('%s patient name %s round-trips through dcmdump +U8', async (charset, name, shown) => {
    const study = generateStudy({ modality: 'DX', rows: 8, columns: 8, charset, patientName: name });
    const file = await writeFirst(study, `charset-${charset.replace(' ', '_')}`);
    const plain = dcmdump(file);
    expect(plain.out).toContain(`(0008,0005) CS [${charset}`);
    const { out, err } = dcmdump(file, '+U8');
    expect(err).toBe('');
    expect(out).toMatch(new RegExp(`\\(0010,0010\\) PN \\[${shown.replace('^', '\\^')} ?\\]`));
  });

  it('writes the GB18030 bytes of 张三', () => {
    const bytes = generateCtInstance({ rows: 4, columns: 4, charset: 'GB18030', patientName: '张三' }).bytes;
    expect(bytes.includes(Buffer.from([0xd5, 0xc5, 0xc8, 0xfd]))).toBe(true);
  });

  it('refuses text the declared repertoire cannot hold', () => {
    expect(() => generateStudy({ modality: 'DX', rows: 4, columns: 4, patientName: '张三' })).toThrow(/repertoire/);
    expect(() => generateStudy({ modality: 'DX', rows: 4, columns: 4, charset: 'GB18030', patientName: '😀' })).toThrow(
      /encoding/,
    );
  });
});

describe('UIDs', () => {
  it('generates valid, unique UIDs', () => {
    const study = generateStudy({ modality: 'CT', rows: 4, columns: 4, series: 3, instancesPerSeries: 5 });
    const uids = [study.studyInstanceUid, ...study.instances.flatMap((i) => [i.sopInstanceUid, i.seriesInstanceUid])];
    for (const uid of uids) {
      expect(isValidUid(uid), uid).toBe(true);
    }
    expect(new Set(study.instances.map((i) => i.sopInstanceUid)).size).toBe(15);
    expect(isValidUid(newUid('2.25'))).toBe(true);
  });

  it('rejects malformed UIDs and roots that leave no room', () => {
    for (const bad of ['', '1.02', '1..2', '1.2.', 'a.1', '1.' + '1'.repeat(63)]) {
      expect(isValidUid(bad), bad).toBe(false);
    }
    expect(() => newUid('1.' + '2'.repeat(60))).toThrow(/valid UID/);
  });
});

describe('CT phantom pixels', () => {
  it('decodes to the known HU values on a 512×512 slice', () => {
    const rows = 512;
    const columns = 512;
    const inst = generateCtInstance({}, 7);
    const ds = dicomParser.parseDicom(new Uint8Array(inst.bytes));
    expect([ds.uint16('x00280010'), ds.uint16('x00280011'), ds.uint16('x00280103')]).toEqual([rows, columns, 0]);
    const slope = ds.floatString('x00281053') ?? NaN;
    const intercept = ds.floatString('x00281052') ?? NaN;
    expect([slope, intercept]).toEqual([1, -1024]);
    const pixel = ds.elements['x7fe00010']!;
    const stored = new Uint16Array(inst.bytes.buffer, inst.bytes.byteOffset + pixel.dataOffset, rows * columns);
    const hu = (x: number, y: number) => stored[y * columns + x]! * slope + intercept;

    expect(hu(Math.round(CT_PHANTOM.boneCenterX * columns), rows / 2)).toBe(400);
    expect(hu(columns / 2, rows / 2)).toBe(0);
    expect(Math.abs(hu(3, 3) + 1000)).toBeLessThanOrEqual(CT_PHANTOM.textureHu);
    // Every pixel of the bone disk and the central water disk is exact; the rest is near its value.
    const wrong: string[] = [];
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < columns; x++) {
        const exact = ctPhantomExactHu(x, y, rows, columns);
        const nominal = exact ?? (ctPhantomRegion(x, y, rows, columns) === 'air' ? -1000 : 0);
        const tolerance = exact === undefined ? CT_PHANTOM.textureHu : 0;
        if (Math.abs(hu(x, y) - nominal) > tolerance) {
          wrong.push(`(${x},${y}) ${hu(x, y)} HU`);
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(ds.string('x00200032')).toBe('-175\\-175\\-8.75');
  });
});

/**
 * The hostile-file corpus of issue 19: what an attacker (or a broken modality) sends to C-STORE,
 * STOW-RS and the upload wizard, generated here byte by byte (nothing binary is committed).
 * Each call makes fresh UIDs, so the corpus can be sent several ways into one archive.
 *
 *   npx tsx packages/server/src/test/hostile-corpus.ts <dir>   writes the files into <dir>
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCtInstance, IMPLICIT_VR_LE, type GeneratedInstance } from '../dicom/testdata/generate.js';
import { nestedSequences } from '../dicom/testdata/mutate.js';
import { part10Layout } from '../dicom/testdata/walk.js';
import { tag } from '../dicom/testdata/writer.js';
import { central, craftZip, finish, layout, member } from '../dicom/testdata/zip-craft.js';

export interface HostileCase {
  /** file name, as sent to the upload wizard */
  name: string;
  kind: 'dicom' | 'zip';
  bytes: Buffer;
  /** stored (accepted, possibly indexed with values cleaned or cut) or refused (nothing stored) */
  outcome: 'stored' | 'refused';
  /** the instance it holds (inside the archive for a zip) */
  studyInstanceUid: string;
  sopInstanceUid: string;
  /** stored: the exam row's columns as the index must keep them */
  indexed?: Record<string, string>;
  /** stored: the instance's bytes after the preamble (the stored file keeps them unchanged) */
  body?: Buffer;
  /** stored: its dataset, after the group 0002 header (what C-STORE carries) */
  dataset?: Buffer;
}

export const EIGHT_MB = 8 * 1024 * 1024;
/** Depth far beyond what the parser reads, and a depth it reads but the archive refuses. */
export const DEEP = 10_000;
export const DEEPISH = 1000;

/** A 128-byte preamble that makes the file a Windows executable too (the CVE-2019-11687 polyglot). */
export function executablePreamble(): Buffer {
  const p = Buffer.alloc(128);
  p.write('MZ', 0, 'latin1');
  p.writeUInt32LE(0x40, 0x3c); // e_lfanew: the PE header would follow
  p.write('This program cannot be run in DOS mode.', 0x4e, 'latin1');
  return p;
}

/** A tiny CT slice of a new study: the base of every hostile file. */
function base(opts: Parameters<typeof generateCtInstance>[0] = {}): GeneratedInstance {
  return generateCtInstance({ rows: 8, columns: 8, ...opts });
}

function setDimensions(bytes: Buffer, rows: number, columns: number): Buffer {
  const out = Buffer.from(bytes);
  for (const e of part10Layout(out).dataset) {
    if (e.tag === tag(0x0028, 0x0010)) out.writeUInt16LE(rows, e.valueOffset);
    if (e.tag === tag(0x0028, 0x0011)) out.writeUInt16LE(columns, e.valueOffset);
  }
  return out;
}

/* ---- the corpus ---- */

/** Every hostile file, with fresh UIDs. */
export function hostileCorpus(): HostileCase[] {
  const cases: HostileCase[] = [];
  const dicom = (name: string, i: GeneratedInstance, bytes: Buffer, outcome: HostileCase['outcome']) => {
    const c: HostileCase = {
      name,
      kind: 'dicom',
      bytes,
      outcome,
      studyInstanceUid: '',
      sopInstanceUid: i.sopInstanceUid,
    };
    c.studyInstanceUid = studyOf(i.bytes);
    if (outcome === 'stored') {
      c.body = Buffer.from(bytes.subarray(128));
      c.dataset = Buffer.from(datasetOf(bytes));
    }
    cases.push(c);
    return c;
  };

  // U+0000 inside text values (indexed without it) and as trailing padding (trimmed).
  const nul = base({
    patientName: 'Li\0^Ming',
    patientId: 'P-NUL\0\0',
    accessionNumber: 'ACC\0NUL',
    studyDescription: 'CT\0HEAD',
    institutionName: 'Evil\0 Hospital\0',
    referringPhysicianName: 'Dr\0^Who',
    bodyPartExamined: 'HE\0AD',
  });
  dicom('nul-in-text.dcm', nul, nul.bytes, 'stored').indexed = {
    patientName: 'Li^Ming',
    patientId: 'P-NUL',
    accessionNumber: 'ACCNUL',
    studyDesc: 'CTHEAD',
    institution: 'Evil Hospital',
    referringPhysician: 'Dr^Who',
    bodyPart: 'HEAD',
  };

  // An executable in the preamble: stored with the preamble zeroed.
  const mz = base();
  const mzBytes = Buffer.concat([executablePreamble(), mz.bytes.subarray(128)]);
  dicom('mz-preamble.dcm', mz, mzBytes, 'stored');

  // 8 MB of patient name (implicit VR: 32-bit lengths), and other long values: indexed cut.
  const long = base({
    transferSyntax: IMPLICIT_VR_LE,
    patientName: `${'N'.repeat(EIGHT_MB / 2)}^${'M'.repeat(EIGHT_MB / 2)}`,
    patientId: 'I'.repeat(70_000),
    accessionNumber: 'A'.repeat(70_000),
    studyDescription: 'D'.repeat(300_000),
    institutionName: 'H'.repeat(70_000),
    referringPhysicianName: 'R'.repeat(70_000),
    bodyPartExamined: 'B'.repeat(70_000),
  });
  dicom('text-8mb.dcm', long, long.bytes, 'stored').indexed = {
    patientName: 'N'.repeat(64),
    patientId: 'I'.repeat(64),
    accessionNumber: 'A'.repeat(16),
    studyDesc: 'D'.repeat(64),
    institution: 'H'.repeat(64),
    referringPhysician: 'R'.repeat(64),
    bodyPart: 'B'.repeat(16),
  };

  // 65535×65535 declared, with 128 bytes of pixel data, and with none at all.
  const huge = base();
  dicom('dims-65535.dcm', huge, setDimensions(huge.bytes, 0xffff, 0xffff), 'refused');
  const bare = base();
  const pixel = part10Layout(bare.bytes).dataset.find((e) => e.tag === tag(0x7fe0, 0x0010))!;
  dicom(
    'dims-65535-no-pixels.dcm',
    bare,
    setDimensions(bare.bytes, 0xffff, 0xffff).subarray(0, pixel.headerOffset),
    'refused',
  );

  // Sequences nested 10,000 deep (the parser gives up) and 1,000 deep (read, refused by the archive).
  const deep = base();
  dicom('deep-10000.dcm', deep, nestedSequences(deep.bytes, DEEP), 'refused');
  const deepish = base();
  dicom('deep-1000.dcm', deepish, nestedSequences(deepish.bytes, DEEPISH), 'refused');

  // Archives: one member under two central-directory names, and a member whose CRC-32 lies.
  const inZip = (name: string, zip: Buffer, i: GeneratedInstance) =>
    cases.push({
      name,
      kind: 'zip',
      bytes: zip,
      outcome: 'refused',
      studyInstanceUid: studyOf(i.bytes),
      sopInstanceUid: i.sopInstanceUid,
    });
  const shared = base();
  const sharedMember = member('a.dcm', shared.bytes, 0);
  const { body, offsets } = layout([sharedMember]);
  const overlap = finish(body, [
    central(sharedMember, offsets[0]!),
    central(sharedMember, offsets[0]!, { name: 'b.dcm' }),
  ]);
  inZip('overlap.zip', overlap, shared);
  const badCrc = base();
  const lying = member('ct.dcm', badCrc.bytes, 0);
  lying.crc = (lying.crc ^ 0xffffffff) >>> 0;
  inZip('crc-mismatch.zip', craftZip([lying]), badCrc);
  return cases;
}

/** The dataset of a Part 10 file: what follows its group 0002 (whose length the first element gives). */
export function datasetOf(part10: Uint8Array): Uint8Array {
  const meta = Buffer.from(part10.buffer, part10.byteOffset, part10.length);
  return part10.subarray(132 + 12 + meta.readUInt32LE(140));
}

/** The StudyInstanceUID written in a generated file (read back from its layout). */
function studyOf(bytes: Buffer): string {
  const el = part10Layout(bytes).dataset.find((e) => e.tag === tag(0x0020, 0x000d))!;
  return bytes
    .subarray(el.valueOffset, el.valueOffset + el.length)
    .toString('latin1')
    .replace(/[\0 ]+$/, '');
}

/** Writes the corpus into `dir`; answers the paths. */
export async function writeHostileCorpus(dir: string, cases = hostileCorpus()): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const paths = cases.map((c) => path.join(dir, c.name));
  await Promise.all(cases.map((c, n) => writeFile(paths[n]!, c.bytes)));
  return paths;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: npx tsx packages/server/src/test/hostile-corpus.ts <dir>\n');
    process.exit(2);
  }
  void writeHostileCorpus(dir).then((paths) => process.stdout.write(`${paths.join('\n')}\n`));
}

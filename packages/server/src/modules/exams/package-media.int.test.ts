import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { IMPLICIT_VR_LE } from '../../dicom/dataset-writer.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { withObjects } from '../../dicom/testdata/objects.js';
import { makeStaffed } from '../../test/factories-archive.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startOrthanc } from '../../test/orthanc.js';
import { checkMedia, filesUnder, flat, mediaTempDir, unzipTo } from './package-media.fixture.js';

/**
 * Issue 28 item 9: the study package is DICOM media (PS3.10): a DICOMDIR describing every file,
 * File IDs of 8-character components, the files as stored; DCMTK reads and checks it
 * (package-media.fixture.ts) and Orthanc imports it.
 */
let t: TestApp;
let study: GeneratedStudy;
let examId = '';
let doctor = '';
let implicitStudy: GeneratedStudy;
let implicitExamId = '';
const dir = mediaTempDir();

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const rad = await makeStaffed(t, ['doctor']);
  doctor = rad.doctor.token;
  const images = generateStudy({
    modality: 'CT',
    series: 2,
    instancesPerSeries: 3,
    rows: 32,
    columns: 32,
    patientName: '王^伟',
    charset: 'GB18030',
    patientId: 'MEDIA-001',
    accessionNumber: 'ACC-MEDIA-1',
  });
  // An SR, an encapsulated PDF and a key object selection of the study, each in a series of its own.
  study = withObjects(images, { patientName: '王^伟', charset: 'GB18030' });
  for (const i of study.instances) examId = (await t.services.archive.ingest(rad.org.bucketId, i.bytes, 'web')).examId;
  // A study stored in Implicit VR Little Endian, which the media profiles do not allow.
  implicitStudy = generateStudy({
    modality: 'MR',
    series: 1,
    instancesPerSeries: 2,
    rows: 24,
    columns: 24,
    patientId: 'MEDIA-002',
    accessionNumber: 'ACC-MEDIA-2',
    transferSyntax: IMPLICIT_VR_LE,
  });
  for (const i of implicitStudy.instances) {
    implicitExamId = (await t.services.archive.ingest(rad.org.bucketId, i.bytes, 'web')).examId;
  }
});

const run = promisify(execFile);
/** dcmdump's reading of a file's data set: every element with its VR and value, lengths and syntax left out. */
async function dumpedDataset(file: string): Promise<string[]> {
  const { stdout } = await run('dcmdump', ['-q', '+L', '+E', file], { maxBuffer: 64 << 20 });
  return stdout
    .split('\n')
    .filter((l) => /^\s*\(/.test(l) && !l.includes('(0002,') && !/Delimitation|Sequence with|Item with/.test(l))
    .map((l) => l.replace(/#\s*\d+,.*$/, '').trimEnd());
}
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the study package as DICOM media', () => {
  let media = '';

  it('holds DICOMDIR, every instance once as stored under DICOM/, INDEX.HTM and README.TXT', async () => {
    const res = await t.call('GET', `exams/${examId}/study-package`, { token: doctor });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="study-ACC-MEDIA-1.zip"');
    const out = await unzipTo(dir, res.rawPayload);
    expect(fs.readdirSync(out)).toEqual(['study-ACC-MEDIA-1']);
    media = path.join(out, 'study-ACC-MEDIA-1');
    const files = filesUnder(media);
    expect(files.filter((f) => !f.startsWith('DICOM/'))).toEqual(['DICOMDIR', 'INDEX.HTM', 'README.TXT']);
    const dicom = files.filter((f) => f.startsWith('DICOM/'));
    expect(dicom).toHaveLength(study.instances.length);
    for (const f of dicom) expect(f).toMatch(/^DICOM\/P\d{7}\/S\d{7}\/SE\d{6}\/I\d{7}$/);
    const originals = new Set(study.instances.map((i) => i.bytes.toString('base64')));
    for (const f of dicom) expect(originals.has(fs.readFileSync(path.join(media, f)).toString('base64')), f).toBe(true);
  });

  it('is read and checked by DCMTK: records linked by offsets, every file resolved, as dcmmkdir writes them', async () => {
    const tree = await checkMedia(
      media,
      study.instances.map((i) => i.sopInstanceUid),
    );
    expect(tree.map((r) => r.type)).toEqual(['PATIENT']);
    expect(tree[0]!.elements.get('0010,0020')).toBe('MEDIA-001');
    expect(tree[0]!.elements.get('0008,0005')).toBe('GB18030');
    const [studyRecord] = tree[0]!.children;
    expect(studyRecord!.type).toBe('STUDY');
    expect(studyRecord!.elements.get('0020,000d')).toBe(study.studyInstanceUid);
    expect(studyRecord!.children.map((s) => s.type)).toEqual(['SERIES', 'SERIES', 'SERIES', 'SERIES', 'SERIES']);
    const kinds = flat(tree)
      .filter((r) => r.elements.has('0004,1500'))
      .map((r) => r.type);
    expect(kinds.sort()).toEqual([
      'ENCAP DOC',
      'IMAGE',
      'IMAGE',
      'IMAGE',
      'IMAGE',
      'IMAGE',
      'IMAGE',
      'KEY OBJECT DOC',
      'SR DOCUMENT',
    ]);
  });

  it("writes the index page in the caller's language, with no script and nothing fetched", () => {
    const html = fs.readFileSync(path.join(media, 'INDEX.HTM'), 'utf8');
    expect(html).toContain('<html lang="zh-Hans">');
    expect(html).toContain('王伟');
    expect(html).toContain('ACC-MEDIA-1');
    expect(html).toContain('合计: 1 位患者, 1 个检查, 9 个文件');
    expect(html).toContain('DICOM/P0000001/S0000001/SE000001');
    expect(html).not.toMatch(/<script|src=|href=|url\(|@import/i);
    expect(fs.readFileSync(path.join(media, 'README.TXT'), 'utf8')).toContain('DICOMDIR');
  });

  it('writes an instance stored in Implicit VR Little Endian as Explicit VR, the same elements and values', async () => {
    const res = await t.call('GET', `exams/${implicitExamId}/study-package`, { token: doctor });
    expect(res.statusCode).toBe(200);
    const out = path.join(await unzipTo(dir, res.rawPayload), 'study-ACC-MEDIA-2');
    // dcmftest, the records' syntax as dcmdump reads each file, and dcmmkdir's general purpose profile (explicit only).
    await checkMedia(
      out,
      implicitStudy.instances.map((i) => i.sopInstanceUid),
    );
    const dicom = filesUnder(out).filter((f) => f.startsWith('DICOM/'));
    expect(dicom).toHaveLength(2);
    for (const [n, f] of dicom.entries()) {
      const { stdout } = await run('dcmdump', ['-q', '-M', '+P', '0002,0010', path.join(out, f)]);
      expect(stdout).toContain('=LittleEndianExplicit');
      const original = path.join(dir, `implicit-${n}.dcm`);
      const sop = (await run('dcmdump', ['-q', '+P', '0008,0018', path.join(out, f)])).stdout;
      const source = implicitStudy.instances.find((i) => sop.includes(i.sopInstanceUid))!;
      fs.writeFileSync(original, source.bytes);
      expect((await run('dcmdump', ['-q', '-M', '+P', '0002,0010', original])).stdout).toContain(
        '=LittleEndianImplicit',
      );
      const [mine, theirs] = [await dumpedDataset(path.join(out, f)), await dumpedDataset(original)];
      expect(mine.length).toBeGreaterThan(20);
      expect(mine).toEqual(theirs);
    }
  });

  it('imports into Orthanc: one study, every instance', async () => {
    const orthanc = await startOrthanc('MEDIA');
    try {
      for (const f of filesUnder(media).filter((name) => name.startsWith('DICOM/'))) {
        const res = await fetch(`${orthanc.http}/instances`, {
          method: 'POST',
          body: fs.readFileSync(path.join(media, f)),
        });
        expect(res.status, f).toBe(200);
      }
      const studies = await orthanc.get<string[]>('/studies');
      expect(studies).toHaveLength(1);
      const stored = await orthanc.get<{ MainDicomTags: { StudyInstanceUID: string } }>(`/studies/${studies[0]}`);
      expect(stored.MainDicomTags.StudyInstanceUID).toBe(study.studyInstanceUid);
      expect(await orthanc.get<string[]>('/instances')).toHaveLength(study.instances.length);
    } finally {
      await orthanc.stop();
    }
  });
});

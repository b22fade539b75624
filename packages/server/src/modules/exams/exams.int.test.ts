import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams } from '../../db/schema.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { Signer } from '../../platform/signed.js';
import { savePackage } from './exams.store.js';
import { makeStaffed, type Staffed } from '../../test/factories-archive.js';
import { signIn } from '../../test/factories.js';
import { startTestApp, TEST_SECRET, type TestApp } from '../../test/harness.js';

const run = promisify(execFile);
let t: TestApp;
let study: GeneratedStudy;
let examId: string;
let bucketId: string;
let doctor: string;
/** The radiology's staff, an organization of the same group, and two callers of another group. */
let rad: Staffed<'doctor' | 'registrar' | 'tech' | 'groupadmin'>;
let tele: Staffed<'teledoctor' | 'teleadmin'>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-pkg-'));

/** Lists a zip with Python's zipfile (a reader nobody here wrote) and returns name → bytes. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const file = path.join(dir, `p${Date.now()}.zip`);
  fs.writeFileSync(file, bytes);
  const out = path.join(dir, `x${Date.now()}`);
  await run('python3', [
    '-c',
    'import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; z.extractall(sys.argv[2]); print("\\n".join(z.namelist()))',
    file,
    out,
  ]);
  const names = (
    await run('python3', ['-c', 'import sys,zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', file])
  ).stdout
    .trim()
    .split('\n');
  return new Map(names.map((n) => [n, fs.readFileSync(path.join(out, n))]));
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  rad = await makeStaffed(t, ['doctor', 'registrar', 'tech', 'groupadmin']);
  bucketId = rad.org.bucketId;
  tele = await makeStaffed(t, ['teledoctor', 'teleadmin']);
  study = generateStudy({
    modality: 'CT',
    series: 2,
    instancesPerSeries: 3,
    rows: 32,
    columns: 32,
    patientId: 'PKG/../001',
    patientName: 'WANG^WEI',
    patientBirthDate: '19580312',
    accessionNumber: 'ACC/2026:77',
    studyDate: '20261101',
  });
  for (const i of study.instances) examId = (await t.services.archive.ingest(bucketId, i.bytes, 'web')).examId;
  doctor = rad.doctor.token;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('study package', () => {
  it('zips every instance byte for byte under names free of patient values, and audits the download', async () => {
    const res = await t.call('GET', `exams/${examId}/study-package`, {
      token: doctor,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    // Issue 19 §10: the accession number names the package; no patient name, ID, birth date,
    // study date or UID appears in the file name or in any name inside.
    expect(res.headers['content-disposition']).toBe('attachment; filename="study-ACC_2026_77.zip"');
    const files = await unzip(res.rawPayload);
    // DICOM media (issue 28 item 9; package-media.int.test.ts checks it with DCMTK): a DICOMDIR,
    // the instances under 8-character File IDs, an index page and a README.
    expect(files.size).toBe(9);
    for (const name of files.keys()) {
      expect(name).toMatch(
        /^study-ACC_2026_77\/(DICOMDIR|INDEX\.HTM|README\.TXT|DICOM\/P\d{7}\/S\d{7}\/SE\d{6}\/I\d{7})$/,
      );
    }
    for (const name of [...files.keys(), res.headers['content-disposition'] as string]) {
      for (const value of ['PKG', 'WANG', 'WEI', '1958', '0312', '20261101', study.studyInstanceUid.slice(0, 8)]) {
        expect(name).not.toContain(value);
      }
    }
    const originals = new Set(study.instances.map((i) => i.bytes.toString('base64')));
    const instances = [...files].filter(([name]) => name.includes('/DICOM/'));
    expect(instances).toHaveLength(6);
    for (const [, b] of instances) expect(originals.has(b.toString('base64'))).toBe(true);
  });

  it('repackages at most once per hour, and rebuilds when the study changed', async () => {
    const again = await t.call('GET', `exams/${examId}/study-package?repackage=1`, { token: doctor });
    expect(again.statusCode).toBe(429);
    expect(again.json().details.retryAfterSeconds).toBeGreaterThan(3500);
    const extra = generateStudy({
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 32,
      columns: 32,
      studyInstanceUid: study.studyInstanceUid,
      patientId: 'PKG/../001',
    });
    t.clock.advance(1000);
    await t.services.archive.ingest(bucketId, extra.instances[0]!.bytes, 'web');
    expect(
      (
        await unzip(
          (
            await t.call('GET', `exams/${examId}/study-package`, {
              token: doctor,
            })
          ).rawPayload,
        )
      ).size,
    ).toBe(10);
    t.clock.advance(3601_000);
    doctor = await signIn(t, rad.doctor); // test tokens live an hour
    expect(
      (
        await t.call('GET', `exams/${examId}/study-package?repackage=1`, {
          token: doctor,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('is named by the exam id when the study has no accession number', async () => {
    const anonymous = generateStudy({
      modality: 'MR',
      rows: 16,
      columns: 16,
      patientId: 'PKG-002',
      patientName: 'LI^NA',
      accessionNumber: '',
    });
    const id = (await t.services.archive.ingest(bucketId, anonymous.instances[0]!.bytes, 'web')).examId;
    // A package cached before names were cleaned (named by patient ID) is built again, and goes.
    const stale = `packages/${bucketId}/${id}.zip`;
    await t.blobs.put(stale, Buffer.from('PKG-002_20240601/001_MR/00001_1.2.3.dcm'));
    await savePackage(t.db.database.db, id, stale, 40, new Date(t.clock.now().getTime() + 60_000));
    const res = await t.call('GET', `exams/${id}/study-package`, {
      token: doctor,
    });
    expect(res.headers['content-disposition']).toBe(`attachment; filename="study-${id}.zip"`);
    expect([...(await unzip(res.rawPayload)).keys()].sort()).toEqual([
      `study-${id}/DICOM/P0000001/S0000001/SE000001/I0000001`,
      `study-${id}/DICOMDIR`,
      `study-${id}/INDEX.HTM`,
      `study-${id}/README.TXT`,
    ]);
    expect(await t.blobs.size(stale)).toBeNull();
  });

  it('downloads with a short-lived link token and nothing else', async () => {
    const link = await t.call('GET', `studies/download-token?storeUid=${study.studyInstanceUid}&bucketId=${bucketId}`, {
      token: doctor,
    });
    expect(link.statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: link.json().url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect((await t.app.inject({ method: 'GET', url: `${link.json().url}x` })).statusCode).toBe(404);
    t.clock.advance(11 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: link.json().url })).statusCode).toBe(404);
  });

  it('is refused to callers without study_package and hidden from other groups', async () => {
    const registrar = await signIn(t, rad.registrar);
    expect(
      (
        await t.call('GET', `exams/${examId}/study-package`, {
          token: registrar,
        })
      ).statusCode,
    ).toBe(403);
    const teledoctor = await signIn(t, tele.teledoctor);
    expect(
      (
        await t.call('GET', `exams/${examId}/study-package`, {
          token: teledoctor,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('viewer paths', () => {
  it('signs an expiring viewer path for the exam', async () => {
    const res = await t.call('POST', `viewers/${examId}/path`, {
      token: doctor,
      body: { reportId: 'r1' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.rsuid).toBe(study.studyInstanceUid);
    expect(body.url).toBe(`/viewer/${body.openpath}?rsuid=${study.studyInstanceUid}`);
    const payload = new Signer(TEST_SECRET).verify('viewer', body.openpath, t.clock.now());
    expect(payload).toMatchObject({ e: examId, b: bucketId, r: 'r1' });
    expect(new Signer(TEST_SECRET).verify('share', body.openpath, t.clock.now())).toBeNull();
  });

  it('issues share paths only with study_package', async () => {
    const registrar = await signIn(t, rad.registrar);
    expect(
      (
        await t.call('POST', `viewers/${examId}/path`, {
          token: registrar,
          body: {},
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.call('POST', `viewers/${examId}/share-path`, {
          token: registrar,
          body: {},
        })
      ).statusCode,
    ).toBe(403);
    const share = await t.call('POST', `viewers/${examId}/share-path`, {
      token: doctor,
      body: {},
    });
    expect(share.statusCode).toBe(200);
    expect(share.json().expires - Math.floor(t.clock.now().getTime() / 1000)).toBe(7 * 24 * 3600);
  });
});

describe('merge-study', () => {
  it('moves the images of another exam of the same patient into this one, in one step', async () => {
    const a = generateStudy({
      modality: 'CT',
      instancesPerSeries: 2,
      rows: 16,
      columns: 16,
      patientId: 'MERGE-1',
    });
    const b = generateStudy({
      modality: 'MR',
      instancesPerSeries: 3,
      rows: 16,
      columns: 16,
      patientId: 'MERGE-1',
    });
    const other = generateStudy({
      modality: 'DX',
      rows: 16,
      columns: 16,
      patientId: 'SOMEONE-ELSE',
    });
    let aId = '';
    let bId = '';
    for (const i of a.instances) aId = (await t.services.archive.ingest(bucketId, i.bytes, 'web')).examId;
    for (const i of b.instances) bId = (await t.services.archive.ingest(bucketId, i.bytes, 'web')).examId;
    const otherId = (await t.services.archive.ingest(bucketId, other.instances[0]!.bytes, 'web')).examId;
    const doctor2 = await signIn(t, rad.doctor);
    expect(
      (
        await t.call('POST', `exams/${aId}/merge-study/${otherId}`, {
          token: doctor2,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.call('POST', `exams/${aId}/merge-study/${aId}`, {
          token: doctor2,
        })
      ).statusCode,
    ).toBe(400);
    const res = await t.call('POST', `exams/${aId}/merge-study/${bId}`, {
      token: doctor2,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: aId,
      seriesCount: 2,
      instanceCount: 5,
    });
    const [merged] = await t.db.database.db.select().from(exams).where(eq(exams.id, aId));
    expect(merged!.modality.split('\\').sort()).toEqual(['CT', 'MR']);
    expect(await t.db.database.db.select().from(exams).where(eq(exams.id, bId))).toHaveLength(0);
    expect(
      (
        await t.call('POST', `exams/${aId}/merge-study/${bId}`, {
          token: doctor2,
        })
      ).statusCode,
    ).toBe(404);
    const registrar = await signIn(t, rad.registrar);
    expect(
      (
        await t.call('POST', `exams/${aId}/merge-study/${otherId}`, {
          token: registrar,
        })
      ).statusCode,
    ).toBe(403);
  });
});

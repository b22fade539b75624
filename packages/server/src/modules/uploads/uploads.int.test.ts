import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { makeMember, makeOrganization } from '../../test/factories.js';
import type { TestApp } from '../../test/harness.js';
import { uploadClient } from '../../test/tus-client.js';
import { makeOrganizationAdmin, SIGNED_OUT, startUploadApp } from './uploads.fixture.js';

let t: TestApp;
let base: string;
let radId: string;
const { send, post } = uploadClient(() => base);

beforeAll(async () => {
  // The accounts the cases sign in as (t.login's default password): a radiology's technician
  // (exam_upload), reporting doctor (without) and admin; a doctor of another group.
  const { rad, ...app } = await startUploadApp('放射科');
  ({ t, base } = app);
  radId = rad.bucketId;
  const reporting = ['exam_get', 'exam_update', 'view_privacy', 'report_upsert', 'report_print'] as const;
  await makeMember(t, radId, { username: 'doctor', actions: reporting, ...SIGNED_OUT });
  await makeOrganizationAdmin(t, rad, 'groupadmin');
  await makeMember(t, (await makeOrganization(t)).bucketId, {
    username: 'teledoctor',
    actions: reporting,
    ...SIGNED_OUT,
  });
});
afterAll(async () => {
  await t.close();
});

describe('web upload with tus', () => {
  it('stores a multi-series study, reports non-DICOM files by name, and closes with a summary', async () => {
    const tech = await t.login('tech');
    const session = await post(`buckets/${radId}/studies/upload`, {}, tech);
    expect(session.status).toBe(201);
    const token = session.json.sessionToken as string;
    const study = generateStudy({
      modality: 'CT',
      series: 2,
      instancesPerSeries: 3,
      rows: 32,
      columns: 32,
      patientName: '周^杰',
      charset: 'GB18030',
      patientId: 'TUS-1',
    });
    for (const i of study.instances) await send(token, i.bytes, i.fileName);
    await send(token, Buffer.from('clinical notes, not an image'), 'series1/../notes.txt');
    await send(token, study.instances[0]!.bytes, 'again.dcm');
    const done = await post('exams/post-upload', { sessionToken: token });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      status: 'completed',
      stored: 6,
      duplicates: 1,
      skipped: [{ name: 'notes.txt', reason: 'notDicom' }],
    });
    const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(exam).toMatchObject({
      patientName: '周^杰',
      instanceCount: 6,
      seriesCount: 2,
      source: 'web',
      bucketId: radId,
    });
    expect(done.json.examIds).toEqual([exam!.id]);
    // A closed session takes no more files.
    await expect(
      send(token, generateStudy({ modality: 'DX', rows: 16, columns: 16 }).instances[0]!.bytes, 'late.dcm'),
    ).rejects.toThrow(/401/);
  });

  it('opens a zipped study: stores its instances, skips bombs, nested and damaged archives by name', async () => {
    const tech = await t.login('tech');
    const token = (await post(`buckets/${radId}/studies/upload`, {}, tech)).json.sessionToken as string;
    const study = generateStudy({
      modality: 'MR',
      series: 2,
      instancesPerSeries: 2,
      rows: 16,
      columns: 16,
      patientId: 'ZIP-1',
    });
    const zip = (files: [string, Buffer][]) =>
      new Promise<Buffer>((resolve) => {
        const z = new yazl.ZipFile();
        for (const [name, bytes] of files) z.addBuffer(bytes, name);
        z.end();
        const chunks: Buffer[] = [];
        z.outputStream.on('data', (c: Buffer) => chunks.push(c));
        z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
      });
    const inner = await zip([['x.dcm', Buffer.from(study.instances[0]!.bytes)]]);
    const archive = await zip([
      ...study.instances.map((i, n) => [`CD/IMAGES/S${n}/IM${n}`, Buffer.from(i.bytes)] as [string, Buffer]),
      ['CD/DICOMDIR', Buffer.from('index file: not an image, passed over')],
      ['__MACOSX/CD/._IM0', Buffer.from('resource fork')],
      ['CD/readme.txt', Buffer.from('burned by the CT console')],
      ['CD/inner.zip', inner],
      ['CD/zeros.bin', Buffer.alloc(120 * 1024 * 1024)],
    ]);
    await send(token, archive, 'cd-export.zip');
    await send(token, Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 7)]), 'broken.zip');
    const done = await post('exams/post-upload', { sessionToken: token });
    expect(done.json).toMatchObject({ stored: 4, duplicates: 0 });
    expect(done.json.skipped).toEqual(
      expect.arrayContaining([
        { name: 'cd-export.zip/CD/readme.txt', reason: 'notDicom' },
        { name: 'cd-export.zip/CD/inner.zip', reason: 'nestedArchive' },
        { name: 'cd-export.zip/CD/zeros.bin', reason: 'zipBomb' },
        { name: 'broken.zip', reason: 'archiveDamaged' },
      ]),
    );
    expect(done.json.skipped).toHaveLength(4);
    const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(exam).toMatchObject({ instanceCount: 4, seriesCount: 2, bucketId: radId });
  });

  it('shows exams as processing until the session closes, refreshes credentials, and marks an exam uploaded', async () => {
    const tech = await t.login('tech');
    const session = (await post(`buckets/${radId}/studies/upload`, {}, tech)).json as {
      uploadId: string;
      sessionToken: string;
    };
    const study = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    await send(session.sessionToken, Buffer.from(study.instances[0]!.bytes), 'cr.dcm');
    const db = t.db.database.db;
    const examOf = async () => (await db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid)))[0]!;
    expect((await examOf()).uploadStatus).toBe('processing');

    // Fresh credentials for the same open session: the new token sends files into it.
    const refreshUrl = `${base}/yyp/api/v1/buckets/${radId}/studies/refresh-upload-credentials`;
    const get = (url: string, token: string) => fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const refreshed = await get(`${refreshUrl}?uploadId=${session.uploadId}&delta=600`, tech);
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as { uploadId: string; sessionToken: string; expires: number };
    expect(fresh.uploadId).toBe(session.uploadId);
    expect(fresh.expires).toBe(Math.floor(t.clock.now().getTime() / 1000) + 600);
    const more = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    await send(fresh.sessionToken, Buffer.from(more.instances[0]!.bytes), 'cr2.dcm');
    expect((await get(`${refreshUrl}?uploadId=${session.uploadId}&delta=5`, tech)).status).toBe(400);
    const doctor = await t.login('doctor');
    expect((await get(`${refreshUrl}?uploadId=${session.uploadId}`, doctor)).status).toBe(403);

    const done = await post('exams/post-upload', { sessionToken: fresh.sessionToken });
    expect(done.json).toMatchObject({ stored: 2, status: 'completed' });
    expect((await examOf()).uploadStatus).toBe('completed');
    expect((await get(`${refreshUrl}?uploadId=${session.uploadId}`, tech)).status).toBe(409);

    // A later wizard upload into the same study makes it "processing" again until it is marked uploaded.
    const again = (await post(`buckets/${radId}/studies/upload`, {}, tech)).json.sessionToken as string;
    await send(
      again,
      Buffer.from(
        generateStudy({ modality: 'DX', rows: 16, columns: 16, studyInstanceUid: study.studyInstanceUid }).instances[0]!
          .bytes,
      ),
      'cr3.dcm',
    );
    const exam = await examOf();
    expect(exam.uploadStatus).toBe('processing');
    const marked = await post(`exams/${exam.id}/uploaded`, {}, tech);
    expect(marked).toEqual({ status: 200, json: { id: exam.id, uploadStatus: 'completed' } });
    expect((await post(`exams/${exam.id}/uploaded`, {}, doctor)).status).toBe(403);
    expect((await post(`exams/${exam.id}/uploaded`, {}, await t.login('teledoctor'))).status).toBe(404);
  });

  it('resumes an interrupted upload where it stopped', async () => {
    const tech = await t.login('tech');
    const token = (await post(`buckets/${radId}/studies/upload`, {}, tech)).json.sessionToken as string;
    const big = generateStudy({
      modality: 'CT',
      instancesPerSeries: 1,
      rows: 256,
      columns: 256,
      patientId: 'TUS-RESUME',
    }).instances[0]!;
    let uploadUrl: string | null = null;
    await new Promise<void>((resolve) => {
      const upload: tus.Upload = new tus.Upload(big.bytes, {
        endpoint: `${base}/yyp/api/v1/uploads/files/`,
        headers: { 'Upload-Session': token },
        metadata: { filename: big.fileName },
        chunkSize: 32 * 1024,
        retryDelays: [],
        onChunkComplete: (_size, sent) => {
          if (sent >= 64 * 1024 && !uploadUrl) {
            uploadUrl = upload.url;
            void upload.abort().then(() => resolve());
          }
        },
      });
      upload.start();
    });
    expect(uploadUrl).toBeTruthy();
    const head = await fetch(uploadUrl!, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Session': token },
    });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThanOrEqual(64 * 1024);
    expect(offset).toBeLessThan(big.bytes.length);
    await send(token, big.bytes, big.fileName, { uploadUrl: uploadUrl!, chunkSize: 32 * 1024 });
    const done = await post('exams/post-upload', { sessionToken: token });
    expect(done.json).toMatchObject({ stored: 1, skipped: [] });
  });

  it('refuses tus requests without a valid session token, and uploads by callers without exam_upload', async () => {
    await expect(send('forged.token', Buffer.from('x'), 'x.dcm')).rejects.toThrow(/401/);
    const doctor = await t.login('doctor');
    expect((await post(`buckets/${radId}/studies/upload`, {}, doctor)).status).toBe(403);
  });
});

describe('public upload link', () => {
  it("uploads into the token's organization without an account, and can do nothing else", async () => {
    const admin = await t.login('groupadmin');
    const link = await fetch(`${base}/yyp/api/v1/buckets/${radId}/upload/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    const uploadToken = ((await link.json()) as { token: string }).token;
    const session = await post('uploads/by-token', { token: uploadToken });
    expect(session.status).toBe(201);
    expect(session.json.bucketName).toBe('放射科');
    const sessionToken = session.json.sessionToken as string;
    const study = generateStudy({ modality: 'DX', rows: 32, columns: 32, patientId: 'TOKEN-1' });
    await send(sessionToken, study.instances[0]!.bytes, 'chest.dcm');
    expect((await post('exams/post-upload', { sessionToken })).json).toMatchObject({ stored: 1 });
    const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid));
    expect(exam).toMatchObject({ bucketId: radId, source: 'token' });
    // The session token is no bearer token, and the upload token opens nothing but sessions.
    for (const token of [sessionToken, uploadToken]) {
      expect((await fetch(`${base}/dicom-web/studies`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        401,
      );
      expect(
        (await fetch(`${base}/yyp/api/v1/accounts/me`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(401);
    }
    // Rotating ends the sessions opened with the old link; revoking stops the link.
    const open = (await post('uploads/by-token', { token: uploadToken })).json.sessionToken as string;
    await fetch(`${base}/yyp/api/v1/buckets/${radId}/upload/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    await expect(send(open, study.instances[0]!.bytes, 'after-rotation.dcm')).rejects.toThrow(/401/);
    await fetch(`${base}/yyp/api/v1/buckets/${radId}/upload/token`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect((await post('uploads/by-token', { token: uploadToken })).status).toBe(404);
  });
});

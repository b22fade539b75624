import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, auditLogs, exams, instances, roleMappings, roles } from '../../db/schema.js';
import { generateStudy, type GeneratedStudy } from '../../dicom/testdata/generate.js';
import { makeMember } from '../../test/factories.js';
import type { TestApp } from '../../test/harness.js';
import { uploadClient } from '../../test/tus-client.js';
import { makeOrganizationAdmin, SIGNED_OUT, startUploadApp } from './uploads.fixture.js';

/**
 * Issue 20 item 8: the wizard's step 2 corrects patient name, ID, sex, birth date and accession
 * number; POST exams/post-upload applies them to the exams the upload stored, audited old → new;
 * the files stay as received, and QIDO-RS, WADO-RS metadata and the report answer the corrections.
 */
let t: TestApp;
let base: string;
let radId: string;
let tech: string;
let senior: string;
const { send, post } = uploadClient(() => base);

beforeAll(async () => {
  // The accounts the cases sign in as (t.login's default password): a radiology's technician,
  // senior doctor, registrar (no upload of its own) and admin.
  const { rad, ...app } = await startUploadApp('放射科');
  ({ t, base } = app);
  radId = rad.bucketId;
  const approving = ['exam_get', 'exam_update', 'view_privacy', 'report_upsert', 'report_approval'] as const;
  await makeMember(t, radId, { username: 'senior', actions: approving, ...SIGNED_OUT });
  await makeMember(t, radId, { username: 'registrar', actions: ['exam_get', 'registry_create'], ...SIGNED_OUT });
  await makeOrganizationAdmin(t, rad, 'groupadmin');
  tech = await t.login('tech');
  senior = await t.login('senior');
});
afterAll(async () => {
  await t.close();
});

const fix = {
  patientName: '张^伟',
  patientId: 'FIXED-001',
  patientGender: 'F',
  patientDob: '19800202',
  accessionNumber: 'ACC-FIXED',
};

async function uploaded(study: GeneratedStudy, token = tech) {
  const session = await post(`buckets/${radId}/studies/upload`, {}, token);
  expect(session.status).toBe(201);
  const sessionToken = session.json.sessionToken as string;
  for (const i of study.instances) await send(sessionToken, i.bytes, i.fileName);
  return sessionToken;
}

const examOf = async (study: GeneratedStudy) =>
  (await t.db.database.db.select().from(exams).where(eq(exams.storeUid, study.studyInstanceUid)))[0]!;

function dicomWeb(url: string) {
  return t.app.inject({
    method: 'GET',
    url: `/dicom-web/${url}`,
    headers: { authorization: `Bearer ${senior}`, accept: 'application/dicom+json' },
  });
}

const studyOf = (patientId: string) =>
  generateStudy({
    modality: 'CT',
    series: 1,
    instancesPerSeries: 2,
    rows: 16,
    columns: 16,
    patientName: 'WRONG^NAME',
    patientId,
    patientSex: 'M',
    patientBirthDate: '19700101',
    accessionNumber: 'ACC-OLD',
  });

describe('upload corrections (POST exams/post-upload corrections)', () => {
  it('writes the corrections on the exam, audits old → new, keeps the files, and every answer shows them', async () => {
    const study = studyOf('OLD-001');
    const sessionToken = await uploaded(study);
    const done = await post('exams/post-upload', { sessionToken, corrections: fix });
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    expect(done.json.status).toBe('completed');

    const exam = await examOf(study);
    expect(exam).toMatchObject({ ...fix, patientNamePinyin: 'zw', uploadStatus: 'completed' });

    const [audit] = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'exam.upload-correction'), eq(auditLogs.targetId, exam.id)));
    expect(audit).toMatchObject({ outcome: 'success', actorUsername: 'tech', bucketId: radId, patientId: 'FIXED-001' });
    expect(audit!.details).toMatchObject({
      fields: {
        patientName: { from: 'WRONG^NAME', to: '张^伟' },
        patientId: { from: 'OLD-001', to: 'FIXED-001' },
        patientGender: { from: 'M', to: 'F' },
        patientDob: { from: '19700101', to: '19800202' },
        accessionNumber: { from: 'ACC-OLD', to: 'ACC-FIXED' },
      },
    });

    // The stored files are byte for byte what was sent (after the preamble the ingest zeroes).
    const stored = await t.db.database.db.select().from(instances).where(eq(instances.examId, exam.id));
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      const sent = study.instances.find((i) => i.sopInstanceUid === row.sopInstanceUid)!;
      const bytes = Buffer.from(await t.blobs.get(row.blobKey));
      expect(bytes.length).toBe(sent.bytes.length);
      expect(Buffer.compare(bytes.subarray(128), Buffer.from(sent.bytes).subarray(128))).toBe(0);
      expect(bytes.includes(Buffer.from('WRONG^NAME'))).toBe(true);
    }

    // QIDO-RS finds the study by the corrected ID only and answers the corrected values.
    const none = await dicomWeb('studies?PatientID=OLD-001');
    expect(none.statusCode === 204 || (none.json() as unknown[]).length === 0).toBe(true);
    const found = (await dicomWeb('studies?PatientID=FIXED-001')).json() as Record<string, { Value?: unknown[] }>[];
    expect(found).toHaveLength(1);
    expect(found[0]!['00100010']!.Value).toEqual([{ Alphabetic: '张^伟' }]);
    expect(found[0]!['00100040']!.Value).toEqual(['F']);
    expect(found[0]!['00100030']!.Value).toEqual(['19800202']);
    expect(found[0]!['00080050']!.Value).toEqual(['ACC-FIXED']);
    // Series level with patient attributes read from the file: the correction wins there too.
    const series = (
      await dicomWeb(`studies/${study.studyInstanceUid}/series?includefield=00100020&includefield=00100010`)
    ).json() as Record<string, { Value?: unknown[] }>[];
    expect(series[0]!['00100020']!.Value).toEqual(['FIXED-001']);
    expect(series[0]!['00100010']!.Value).toEqual([{ Alphabetic: '张^伟' }]);

    // WADO-RS metadata (what the viewer reads): corrected attributes, the rest as in the file.
    const metadata = (await dicomWeb(`studies/${study.studyInstanceUid}/metadata`)).json() as Record<
      string,
      { Value?: unknown[] }
    >[];
    expect(metadata).toHaveLength(2);
    for (const m of metadata) {
      expect(m['00100010']!.Value).toEqual([{ Alphabetic: '张^伟' }]);
      expect(m['00100020']!.Value).toEqual(['FIXED-001']);
      expect(m['00100040']!.Value).toEqual(['F']);
      expect(m['00100030']!.Value).toEqual(['19800202']);
      expect(m['00080050']!.Value).toEqual(['ACC-FIXED']);
      expect(m['0020000D']!.Value).toEqual([study.studyInstanceUid]);
    }

    // The exam the report editor and the lists show carries the corrected patient.
    const detail = await t.as(senior).get(`exams/${exam.id}/detail?reportId=${exam.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ patientName: '张^伟', patientId: 'FIXED-001', accessionNumber: 'ACC-FIXED' });
  });

  it('leaves an upload without corrections, and its metadata, as the files say', async () => {
    const study = studyOf('PLAIN-001');
    const done = await post('exams/post-upload', { sessionToken: await uploaded(study) });
    expect(done.status).toBe(200);
    expect(await examOf(study)).toMatchObject({ patientName: 'WRONG^NAME', patientId: 'PLAIN-001' });
    const [m] = (await dicomWeb(`studies/${study.studyInstanceUid}/metadata`)).json() as Record<
      string,
      { Value?: unknown[] }
    >[];
    expect(m!['00100010']!.Value).toEqual([{ Alphabetic: 'WRONG^NAME' }]);
    expect(m!['00080050']!.Value).toEqual(['ACC-OLD']);
  });

  it('refuses values out of the limits with 400 and changes nothing: the session stays open', async () => {
    const study = studyOf('BAD-001');
    const sessionToken = await uploaded(study);
    for (const corrections of [
      { patientGender: 'X' },
      { patientDob: '19801302' },
      { patientDob: '1980-02-02' },
      { patientName: '   ' },
      { patientName: 'N'.repeat(65) },
      { patientId: 'I'.repeat(65) },
      { accessionNumber: 'A'.repeat(65) },
      { studyDesc: 'not correctable here' },
    ]) {
      const res = await post('exams/post-upload', { sessionToken, corrections });
      expect(res.status, JSON.stringify(corrections)).toBe(400);
    }
    expect(await examOf(study)).toMatchObject({
      patientName: 'WRONG^NAME',
      patientId: 'BAD-001',
      patientGender: 'M',
      patientDob: '19700101',
      accessionNumber: 'ACC-OLD',
    });
    expect((await post('uploads/summary', { sessionToken })).json.status).toBe('open');
  });

  it('needs exam_update to correct an exam that was stored before the upload (files added to it)', async () => {
    // The registrar may only upload (a role with exam_upload alone); the tech also holds exam_update.
    const db = t.db.database.db;
    await db
      .insert(roles)
      .values({ id: 'upload-only', bucketId: radId, name: 'upload only', actions: ['exam_upload'] });
    const [registrar] = await db.select().from(accounts).where(eq(accounts.username, 'registrar'));
    await db.insert(roleMappings).values({ roleId: 'upload-only', accountId: registrar!.id });
    const uploader = await t.login('registrar');

    const study = studyOf('EARLIER-001');
    const [first, ...rest] = study.instances;
    await t.services.archive.ingest(radId, first!.bytes, 'dimse');
    t.clock.advance(1000);
    const sessionToken = await uploaded({ ...study, instances: rest }, uploader);
    const refused = await post('exams/post-upload', { sessionToken, corrections: { patientName: 'LATER^NAME' } });
    expect(refused.status).toBe(403);
    expect((await examOf(study)).patientName).toBe('WRONG^NAME');

    // A fresh study of its own upload it may correct.
    const own = studyOf('OWN-001');
    const ownToken = await uploaded(own, uploader);
    expect(
      (await post('exams/post-upload', { sessionToken: ownToken, corrections: { patientName: 'OWN^NAME' } })).status,
    ).toBe(200);
    expect((await examOf(own)).patientName).toBe('OWN^NAME');

    // The tech, who holds exam_update, may correct the exam stored before.
    const techToken = await uploaded({ ...study, instances: rest });
    const done = await post('exams/post-upload', {
      sessionToken: techToken,
      corrections: { patientName: 'LATER^NAME' },
    });
    expect(done.status).toBe(200);
    expect((await examOf(study)).patientName).toBe('LATER^NAME');
  });

  it('refuses an accession number for an upload of several studies, and corrections through an upload link', async () => {
    const first = studyOf('MULTI-001');
    const second = studyOf('MULTI-001');
    const session = await post(`buckets/${radId}/studies/upload`, {}, tech);
    const sessionToken = session.json.sessionToken as string;
    for (const i of [...first.instances, ...second.instances]) await send(sessionToken, i.bytes, i.fileName);
    const refused = await post('exams/post-upload', { sessionToken, corrections: { accessionNumber: 'ONE' } });
    expect(refused.status).toBe(400);
    expect((await examOf(first)).accessionNumber).toBe('ACC-OLD');
    // The same patient's name for both studies is fine.
    const ok = await post('exams/post-upload', { sessionToken, corrections: { patientName: 'RIGHT^NAME' } });
    expect(ok.status).toBe(200);
    expect((await examOf(first)).patientName).toBe('RIGHT^NAME');
    expect((await examOf(second)).patientName).toBe('RIGHT^NAME');

    // A public upload link has no account to answer for a correction.
    const admin = await t.login('groupadmin');
    const link = await t.as(admin).post(`buckets/${radId}/upload/token`);
    expect(link.statusCode).toBe(200);
    const linked = studyOf('LINK-001');
    const opened = await post('uploads/by-token', { token: link.json().token as string });
    expect(opened.status).toBe(201);
    const linkSession = opened.json.sessionToken as string;
    for (const i of linked.instances) await send(linkSession, i.bytes, i.fileName);
    const res = await post('exams/post-upload', { sessionToken: linkSession, corrections: fix });
    expect(res.status).toBe(403);
    expect((await examOf(linked)).patientName).toBe('WRONG^NAME');
    expect((await post('uploads/summary', { sessionToken: linkSession })).json.status).toBe('open');
  });
});

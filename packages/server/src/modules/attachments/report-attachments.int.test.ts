import { and, eq } from 'drizzle-orm';
import type { AttachmentDownloadUrl, ExamAttachment, UploadCode, UploadPolicy } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { joinOrganization, makeMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { APPROVING, REMOTE_READING, REPORTING, TECHNICIAN } from '../../test/factories-reports.js';

/**
 * A report's attachments (spec 001 §7 "Reports", reports/{id}/attachments): a member records its
 * own upload from GET policies/attachments, lists, opens through a 10-minute URL, and deletes.
 */
let t: TestApp;
let doctor: string;
let tech: string;
let senior: string;
let teledoctor: string;
let doctorId: string;
/** 放射科: doctor reports (upload, open), tech uploads only, senior approves (open only). */
let radExamId: string;
let radOtherId: string;
/** 超声科: doctor reports, senior is content manager (delete). */
let usExamId: string;
/** The organizations by the codes the cases name. */
const bucketOf: Record<string, string> = {};

const PDF = Buffer.from('%PDF-1.7\n% report attachment\n');
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 2)]);

async function ingest(code: string, patientName: string): Promise<string> {
  const study = generateStudy({ modality: 'CT', instancesPerSeries: 1, rows: 8, columns: 8, patientName });
  return (await t.services.archive.ingest(bucketOf[code]!, study.instances[0]!.bytes, 'web')).examId;
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // A hospital's radiology (RH-RAD) and ultrasound (RH-US); teledoctor reads for another group.
  const rad = await makeOrganization(t, { code: 'RH-RAD', name: '放射科' });
  const us = await makeOrganization(t, { groupId: rad.groupId, code: 'RH-US', name: '超声科' });
  bucketOf['RH-RAD'] = rad.bucketId;
  bucketOf['RH-US'] = us.bucketId;
  const doc = await makeMember(t, rad.bucketId, { name: '李医生', actions: REPORTING });
  await joinOrganization(t, us.bucketId, doc.accountId, { actions: REPORTING });
  const sen = await makeMember(t, rad.bucketId, { actions: APPROVING });
  await joinOrganization(t, us.bucketId, sen.accountId, { level: 'contentManager' });
  const techAccount = await makeMember(t, rad.bucketId, { actions: TECHNICIAN });
  const tele = await makeMember(t, (await makeOrganization(t)).bucketId, { actions: REMOTE_READING });
  radExamId = await ingest('RH-RAD', 'Zhang^San');
  radOtherId = await ingest('RH-RAD', 'Li^Si');
  usExamId = await ingest('RH-US', 'Wang^Wu');
  doctor = doc.token;
  tech = techAccount.token;
  senior = sen.token;
  teledoctor = tele.token;
  doctorId = (await t.as(doctor).get('accounts/me')).json().id;
});
afterAll(async () => {
  await t.close();
});

/** Uploads bytes with the caller's own policy and answers the key. */
async function uploaded(token: string, bytes: Buffer, type: string, policy = 'attachments'): Promise<string> {
  const res = await t.as(token).get(`policies/${policy}?contentType=${encodeURIComponent(type)}&size=${bytes.length}`);
  expect(res.statusCode, res.body).toBe(200);
  const p = res.json() as UploadPolicy;
  const sent = await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: bytes });
  expect(sent.statusCode, sent.body).toBe(204);
  return p.key;
}
const record = (token: string, examId: string, body: Record<string, unknown>) =>
  t.as(token).post(`reports/${examId}/attachments/upload`, body);
const listed = async (examId: string, token = doctor) =>
  (await t.as(token).get(`reports/${examId}/attachments`)).json().attachments as ExamAttachment[];
const audits = (action: string, targetId: string) =>
  t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.action, action), eq(auditLogs.targetId, targetId)));

describe('POST reports/{id}/attachments/upload', () => {
  it("records the caller's upload once, lists it as the exam list does, and is audited", async () => {
    const key = await uploaded(doctor, PDF, 'application/pdf');
    const res = await record(doctor, radExamId, { key, name: '外院\u0007报告/1.pdf', contentType: 'application/pdf' });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json() as ExamAttachment;
    expect(item).toMatchObject({
      examId: radExamId,
      kind: 'attachment',
      fileName: '外院报告_1.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
      source: 'account',
      uploadedBy: { id: doctorId, name: '李医生' },
    });
    expect(item.url).toMatch(/^\/yyp\/api\/v1\/blobs\/download\?token=/);
    // Sending the same key again answers the same file and records nothing more.
    const again = await record(doctor, radExamId, { key, name: 'other.pdf' });
    expect(again.json()).toEqual(item);
    const list = await t.as(doctor).get(`reports/${radExamId}/attachments`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual((await t.as(doctor).get(`exams/${radExamId}/attachments`)).json());
    expect(list.json().attachments).toEqual([item]);
    const rows = await audits('attachment_upload', radExamId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'success', actorId: doctorId });
    expect(rows[0]!.details).toMatchObject({ attachmentId: item.id, via: 'account' });
  });

  it('takes order forms from policies/forms, and a Word file by its type', async () => {
    const form = await uploaded(doctor, PDF, 'application/pdf', 'forms');
    const res = await record(doctor, radOtherId, { key: form, name: 'order.pdf', kind: 'form' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'form', examId: radOtherId });
    const docx = await uploaded(doctor, DOCX, DOCX_TYPE);
    const note = await record(doctor, radOtherId, { key: docx, name: 'note.docx', contentType: DOCX_TYPE });
    expect(note.json()).toMatchObject({ kind: 'attachment', contentType: DOCX_TYPE, size: DOCX.length });
  });

  it('lets a technician record without a download URL (no attachment_presigned_url)', async () => {
    const key = await uploaded(tech, PDF, 'application/pdf');
    const res = await record(tech, radOtherId, { key, name: 'scan.pdf' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toBeNull();
    expect((await listed(radOtherId, tech)).every((a) => a.url === null)).toBe(true);
  });

  it('refuses a key not owned by the caller, never sent, of another kind or type, and records nothing', async () => {
    const before = await listed(radOtherId);
    const techKey = await uploaded(tech, PDF, 'application/pdf');
    const code = (await t.as(doctor).post(`exams/${radOtherId}/attachment-code`, { kind: 'attachment' })).json();
    const codePolicy = await t.call(
      'GET',
      `service-attachment/policies?code=${encodeURIComponent((code as UploadCode).code)}&contentType=application/pdf&size=${PDF.length}`,
    );
    const codeKey = (codePolicy.json() as UploadPolicy).key;
    const avatar = (await t.as(doctor).get('policies/avatars?contentType=image/png&size=10')).json().key as string;
    for (const key of [techKey, codeKey, avatar, 'uploads/attachments/../../jwt-secret', 'studies/a.dcm']) {
      const res = await record(doctor, radOtherId, { key, name: 'x.pdf' });
      expect(res.statusCode, key).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'notYours' } });
    }
    // An attachments key is not a form, nor a form key an attachment.
    const mine = await uploaded(doctor, PDF, 'application/pdf');
    expect((await record(doctor, radOtherId, { key: mine, name: 'x.pdf', kind: 'form' })).json().details).toEqual({
      problem: 'notYours',
    });
    const unsent = (await t.as(doctor).get(`policies/attachments?contentType=application/pdf&size=9`)).json().key;
    expect((await record(doctor, radOtherId, { key: unsent, name: 'x.pdf' })).json().details).toEqual({
      problem: 'missing',
    });
    const claimed = await record(doctor, radOtherId, { key: mine, name: 'x.pdf', contentType: 'image/png' });
    expect(claimed.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'typeMismatch' } });
    expect((await record(doctor, radOtherId, { key: mine, name: ' ' })).json().code).toBe('ValidationError');
    expect(await listed(radOtherId)).toEqual(before);
    // The tech's file is still there for the tech to record.
    expect(await t.blobs.size(techKey)).toBe(PDF.length);
  });

  it('refuses a key already recorded on another exam', async () => {
    const key = await uploaded(doctor, PDF, 'application/pdf');
    expect((await record(doctor, radExamId, { key, name: 'a.pdf' })).statusCode).toBe(200);
    const res = await record(doctor, radOtherId, { key, name: 'a.pdf' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'alreadyUsed' } });
    expect((await listed(radOtherId)).some((a) => a.fileName === 'a.pdf')).toBe(false);
  });

  it('needs attachment_upload in the exam organization; another group and unknown ids answer 404', async () => {
    const key = await uploaded(senior, PDF, 'application/pdf');
    const res = await record(senior, radExamId, { key, name: 'x.pdf' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'InsufficientPermissions' });
    const teleKey = await uploaded(teledoctor, PDF, 'application/pdf');
    expect((await record(teledoctor, radExamId, { key: teleKey, name: 'x.pdf' })).statusCode).toBe(404);
    expect((await record(doctor, 'no-such-exam', { key: teleKey, name: 'x.pdf' })).statusCode).toBe(404);
    expect(
      (await t.call('POST', `reports/${radExamId}/attachments/upload`, { body: { key, name: 'x' } })).statusCode,
    ).toBe(401);
    expect((await listed(radExamId)).some((a) => a.uploadedBy?.id !== doctorId)).toBe(false);
  });
});

describe('GET reports/{id}/attachments/{attachmentId}/presign-url', () => {
  it('answers a URL that downloads the bytes for 5 to 10 minutes, audited as patient data access', async () => {
    const key = await uploaded(doctor, PDF, 'application/pdf');
    const id = (await record(doctor, usExamId, { key, name: '报告.pdf' })).json().id as string;
    const res = await t.as(doctor).get(`reports/${usExamId}/attachments/${id}/presign-url`);
    expect(res.statusCode, res.body).toBe(200);
    const { url, expiresAt } = res.json() as AttachmentDownloadUrl;
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect(expiresAt).toBeGreaterThanOrEqual(now + 5 * 60);
    expect(expiresAt).toBeLessThanOrEqual(now + 10 * 60);
    expect(url).not.toContain(key);
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain("filename*=UTF-8''");
    expect(file.rawPayload.equals(PDF)).toBe(true);
    const [audit] = await audits('attachment_presigned_url', usExamId);
    expect(audit).toMatchObject({ outcome: 'success', actorId: doctorId });
    expect(audit!.details).toMatchObject({ attachmentId: id });
    const past = (expiresAt - now + 1) * 1000;
    t.clock.advance(past);
    try {
      const late = await t.app.inject({ method: 'GET', url });
      expect(late.statusCode).toBe(403);
      expect(late.json().code).toBe('LinkInvalid');
    } finally {
      t.clock.advance(-past);
    }
  });

  it('needs attachment_presigned_url; another exam, another group and unknown ids answer 404', async () => {
    const key = await uploaded(tech, PDF, 'application/pdf');
    const id = (await record(tech, radExamId, { key, name: 'scan.pdf' })).json().id as string;
    expect((await t.as(tech).get(`reports/${radExamId}/attachments/${id}/presign-url`)).statusCode).toBe(403);
    expect((await t.as(senior).get(`reports/${radExamId}/attachments/${id}/presign-url`)).statusCode).toBe(200);
    expect((await t.as(teledoctor).get(`reports/${radExamId}/attachments/${id}/presign-url`)).statusCode).toBe(404);
    expect((await t.as(doctor).get(`reports/${radOtherId}/attachments/${id}/presign-url`)).statusCode).toBe(404);
    expect((await t.as(doctor).get(`reports/${radExamId}/attachments/nope/presign-url`)).statusCode).toBe(404);
    expect((await t.as(teledoctor).get(`reports/${radExamId}/attachments`)).statusCode).toBe(404);
    expect((await audits('attachment_presigned_url', radOtherId)).length).toBe(0);
  });
});

describe('DELETE reports/{id}/attachments/{attachmentId}', () => {
  it('needs attachment_delete, removes the row and the file, and is audited', async () => {
    const key = await uploaded(doctor, PDF, 'application/pdf');
    const id = (await record(doctor, usExamId, { key, name: 'gone.pdf' })).json().id as string;
    expect((await t.as(doctor).del(`reports/${usExamId}/attachments/${id}`)).statusCode).toBe(403);
    expect((await t.as(teledoctor).del(`reports/${usExamId}/attachments/${id}`)).statusCode).toBe(404);
    const other = await ingest('RH-US', 'Zhao^Liu');
    expect((await t.as(senior).del(`reports/${other}/attachments/${id}`)).statusCode).toBe(404);
    const res = await t.as(senior).del(`reports/${usExamId}/attachments/${id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.blobs.size(key)).toBeNull();
    expect((await listed(usExamId)).some((a) => a.id === id)).toBe(false);
    expect((await t.as(senior).del(`reports/${usExamId}/attachments/${id}`)).statusCode).toBe(404);
    expect((await t.as(doctor).get(`reports/${usExamId}/attachments/${id}/presign-url`)).statusCode).toBe(404);
    const rows = await audits('attachment_delete', usExamId);
    expect(rows.map((r) => r.details)).toContainEqual(expect.objectContaining({ attachmentId: id }));
    // The file is gone, so its key cannot be recorded again.
    expect((await record(doctor, usExamId, { key, name: 'gone.pdf' })).json().details).toEqual({ problem: 'missing' });
  });
});

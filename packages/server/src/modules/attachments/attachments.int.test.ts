import { and, eq } from 'drizzle-orm';
import type { ServiceAttachment, UploadCode, UploadPolicy } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { joinOrganization, makeMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { APPROVING, REMOTE_READING, REPORTING, TECHNICIAN } from '../../test/factories-reports.js';

/** Attachments by code: a 24-hour code per exam, the public pages' calls, and the members' list and delete. */
let t: TestApp;
let doctor: string;
let tech: string;
let senior: string;
let teledoctor: string;
let examId: string;
let otherExamId: string;
let usId: string;

const PDF = Buffer.from('%PDF-1.7\n% order form scan\n');
const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 2)]);
const MB = 1024 * 1024;

async function ingest(bucketId: string, patientName: string): Promise<string> {
  const study = generateStudy({
    modality: 'MR',
    instancesPerSeries: 1,
    rows: 8,
    columns: 8,
    patientName,
    charset: 'GB18030',
    studyDate: '20261120',
  });
  return (await t.services.archive.ingest(bucketId, study.instances[0]!.bytes, 'web')).examId;
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // A hospital's radiology and ultrasound: the doctor reports in both, the technician works in
  // radiology, the senior approves there and manages the content of ultrasound; teledoctor
  // reports in another group.
  const rad = await makeOrganization(t, { name: '放射科' });
  const us = await makeOrganization(t, { groupId: rad.groupId, name: '超声科' });
  usId = us.bucketId;
  examId = await ingest(rad.bucketId, '王小东');
  otherExamId = await ingest(rad.bucketId, '李四');
  const doc = await makeMember(t, rad.bucketId, { actions: REPORTING });
  await joinOrganization(t, us.bucketId, doc.accountId, { actions: REPORTING });
  doctor = doc.token;
  tech = (await makeMember(t, rad.bucketId, { actions: TECHNICIAN })).token;
  const sen = await makeMember(t, rad.bucketId, { actions: APPROVING });
  await joinOrganization(t, us.bucketId, sen.accountId, { level: 'contentManager' });
  senior = sen.token;
  teledoctor = (await makeMember(t, (await makeOrganization(t)).bucketId, { actions: REMOTE_READING })).token;
});
afterAll(async () => {
  await t.close();
});

async function issue(kind: 'form' | 'attachment', exam = examId, token = doctor): Promise<UploadCode> {
  const res = await t.as(token).post(`exams/${exam}/attachment-code`, { kind });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UploadCode;
}
function policyCall(code: string, size: number, contentType: string, fileName?: string) {
  const q = new URLSearchParams({ code, size: String(size), contentType, ...(fileName ? { fileName } : {}) });
  return t.call('GET', `service-attachment/policies?${q}`);
}
async function upload(code: string, bytes: Buffer, contentType: string): Promise<string> {
  const res = await policyCall(code, bytes.length, contentType);
  expect(res.statusCode, res.body).toBe(200);
  const p = res.json() as UploadPolicy;
  const sent = await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: bytes });
  expect(sent.statusCode, sent.body).toBe(204);
  return p.key;
}
const record = (code: string, key: string, fileName = 'scan.pdf') =>
  t.call('POST', 'attachments/upload-by-code', { body: { code, key, fileName } });
const describeCode = (code: string) => t.call('GET', `service-attachment?code=${encodeURIComponent(code)}`);

describe('issuing a code', () => {
  it('answers a 24-hour link to the page of its kind', async () => {
    const form = await issue('form');
    expect(form.url).toBe(`/service-orders/upload?code=${encodeURIComponent(form.code)}`);
    expect(form.expiresAt).toBe(Math.floor(t.clock.now().getTime() / 1000) + 24 * 3600);
    expect((await issue('attachment')).url.startsWith('/attachments/upload?code=')).toBe(true);
  });
  it('needs attachment_create in the exam organization', async () => {
    expect((await t.call('POST', `exams/${examId}/attachment-code`, { body: { kind: 'form' } })).statusCode).toBe(401);
    const techRes = await t.as(tech).post(`exams/${examId}/attachment-code`, { kind: 'form' });
    expect(techRes.statusCode).toBe(403);
    expect((await t.as(teledoctor).post(`exams/${examId}/attachment-code`, { kind: 'form' })).statusCode).toBe(404);
    expect((await t.as(doctor).post('exams/nope/attachment-code', { kind: 'form' })).statusCode).toBe(404);
    expect((await t.as(doctor).post(`exams/${examId}/attachment-code`, { kind: 'report' })).json().code).toBe(
      'ValidationError',
    );
  });
});

describe('uploading by code', () => {
  it('shows what the code is for with a masked name, uploads a PDF and lists it', async () => {
    const c = await issue('attachment');
    const info = (await describeCode(c.code)).json() as ServiceAttachment;
    expect(info).toMatchObject({
      kind: 'attachment',
      organizationName: '放射科',
      exam: { modality: 'MR', studyDate: '20261120', patientName: '王*东' },
      maxBytes: 50 * MB,
      maxFiles: 6,
      uploads: [],
    });
    expect(JSON.stringify(info)).not.toContain('王小东');
    const key = await upload(c.code, PDF, 'application/pdf');
    expect(key).toMatch(/^uploads\/attachments\/code-[0-9a-f-]{36}\//);
    const res = await record(c.code, key, '检查单\u0007/1.pdf');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ fileName: '检查单_1.pdf', contentType: 'application/pdf', size: PDF.length });
    // Sending the same key again answers the same file.
    expect((await record(c.code, key)).json().id).toBe(res.json().id);
    expect(((await describeCode(c.code)).json() as ServiceAttachment).uploads).toHaveLength(1);
    // Members see it, with a download URL when they hold attachment_presigned_url.
    const list = await t.as(doctor).get(`exams/${examId}/attachments`);
    expect(list.statusCode).toBe(200);
    const [item] = list.json().attachments;
    expect(item).toMatchObject({ id: res.json().id, kind: 'attachment', source: 'code', uploadedBy: null });
    const file = await t.app.inject({ method: 'GET', url: item.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect(file.headers['content-disposition']).toContain("filename*=UTF-8''");
    const techList = await t.as(tech).get(`exams/${examId}/attachments`);
    expect(techList.json().attachments[0].url).toBeNull();
    const [audit] = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'attachment_upload'), eq(auditLogs.targetId, examId)));
    expect(audit).toMatchObject({ outcome: 'success', actorId: null });
  });

  it('takes order forms by the forms rules', async () => {
    const c = await issue('form');
    expect((await policyCall(c.code, 100, 'application/msword')).json().code).toBe('FileTypeNotAllowed');
    expect((await policyCall(c.code, 20 * MB + 1, 'application/pdf')).json().code).toBe('FileTooLarge');
    const key = await upload(c.code, PDF, 'application/pdf');
    expect((await record(c.code, key)).json()).toMatchObject({ contentType: 'application/pdf' });
    const list = (await t.as(doctor).get(`exams/${examId}/attachments`)).json().attachments as { kind: string }[];
    expect(list.some((a) => a.kind === 'form')).toBe(true);
  });

  it('refuses oversize and wrong types before any URL, and Word/Excel by the file name', async () => {
    const c = await issue('attachment');
    const big = await policyCall(c.code, 50 * MB + 1, 'application/pdf');
    expect(big.statusCode).toBe(400);
    expect(big.json()).toMatchObject({ code: 'FileTooLarge', details: { maxBytes: 50 * MB } });
    expect((await policyCall(c.code, 100, 'text/html')).json().code).toBe('FileTypeNotAllowed');
    expect((await policyCall(c.code, 100, '', 'a.xlsx')).statusCode).toBe(200);
    const key = await upload(c.code, DOCX, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect((await record(c.code, key, 'note.docx')).statusCode).toBe(200);
  });

  it('accepts at most six files per code', async () => {
    const c = await issue('attachment');
    for (let i = 0; i < 6; i++) {
      expect((await record(c.code, await upload(c.code, PDF, 'application/pdf'))).statusCode).toBe(200);
    }
    const policy = await policyCall(c.code, PDF.length, 'application/pdf');
    expect(policy.statusCode).toBe(400);
    expect(policy.json()).toMatchObject({ code: 'TooManyFiles', details: { maxFiles: 6 } });
  });

  it('refuses expired and forged codes, and changes nothing', async () => {
    const c = await issue('attachment');
    const key = await upload(c.code, PDF, 'application/pdf');
    const before = (await t.as(doctor).get(`exams/${examId}/attachments`)).json().attachments.length;
    t.clock.advance(24 * 3600 * 1000 + 1000);
    try {
      for (const res of [
        await describeCode(c.code),
        await record(c.code, key),
        await policyCall(c.code, 9, 'application/pdf'),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 'LinkInvalid', details: { problem: 'expired' } });
      }
    } finally {
      t.clock.advance(-(24 * 3600 * 1000 + 1000));
    }
    for (const forged of [`${c.code.slice(0, -3)}abc`, 'x'.repeat(43)]) {
      expect((await describeCode(forged)).json()).toMatchObject({
        code: 'LinkInvalid',
        details: { problem: 'invalid' },
      });
    }
    expect((await describeCode('short')).json().code).toBe('ValidationError');
    // A signature code is not an attachment code.
    const sig = (await t.as(doctor).post('signature/code')).json() as UploadCode;
    expect((await describeCode(sig.code)).json().details.problem).toBe('invalid');
    expect((await t.as(doctor).get(`exams/${examId}/attachments`)).json().attachments).toHaveLength(before);
  });

  it("cannot reach another exam, nor hand in another code's or an account's upload", async () => {
    const mine = await issue('attachment', examId);
    const other = await issue('attachment', otherExamId);
    const otherKey = await upload(other.code, PDF, 'application/pdf');
    const accountKey = (
      (
        await t.as(doctor).get(`policies/attachments?contentType=application/pdf&size=${PDF.length}`)
      ).json() as UploadPolicy
    ).key;
    for (const key of [otherKey, accountKey, 'uploads/attachments/../../jwt-secret', 'studies/a.dcm']) {
      const res = await record(mine.code, key);
      expect(res.statusCode, key).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'notYours' } });
    }
    // The other code's file goes to its own exam only.
    expect((await record(other.code, otherKey)).statusCode).toBe(200);
    const here = (await t.as(doctor).get(`exams/${examId}/attachments`)).json().attachments as {
      id: string;
      examId: string;
    }[];
    expect(here.every((a) => a.examId === examId)).toBe(true);
    const there = (await t.as(doctor).get(`exams/${otherExamId}/attachments`)).json().attachments;
    expect(there).toHaveLength(1);
    // The code page lists only the code's own uploads.
    expect(((await describeCode(mine.code)).json() as ServiceAttachment).uploads).toEqual([]);
  });

  it('refuses a file whose bytes do not fit its type', async () => {
    const c = await issue('attachment');
    const p = (await policyCall(c.code, 20, 'application/pdf')).json() as UploadPolicy;
    await t.app.inject({
      method: 'PUT',
      url: p.upload.url,
      headers: p.upload.headers,
      payload: Buffer.alloc(20, 0x41),
    });
    expect((await record(c.code, p.key)).json()).toMatchObject({
      code: 'InvalidUpload',
      details: { problem: 'typeMismatch' },
    });
    expect((await record(c.code, (await policyCall(c.code, 20, 'application/pdf')).json().key)).json()).toMatchObject({
      code: 'InvalidUpload',
      details: { problem: 'missing' },
    });
  });
});

describe('listing and deleting', () => {
  it('list needs exam_get in the organization', async () => {
    expect((await t.call('GET', `exams/${examId}/attachments`)).statusCode).toBe(401);
    expect((await t.as(teledoctor).get(`exams/${examId}/attachments`)).statusCode).toBe(404);
    expect((await t.as(doctor).get('exams/nope/attachments')).statusCode).toBe(404);
  });
  it('delete needs attachment_delete, removes the file and is audited', async () => {
    // senior manages the content of 超声科 (contentManager holds attachment_delete); doctor reports there.
    const usExamId = await ingest(usId, '赵六');
    const usOtherId = await ingest(usId, '钱七');
    const c = await issue('attachment', usExamId);
    const key = await upload(c.code, PDF, 'application/pdf');
    const id = (await record(c.code, key)).json().id as string;
    expect((await t.as(doctor).del(`exams/${usExamId}/attachments/${id}`)).statusCode).toBe(403);
    expect((await t.as(teledoctor).del(`exams/${usExamId}/attachments/${id}`)).statusCode).toBe(404);
    // Another exam's id for this attachment answers 404.
    expect((await t.as(senior).del(`exams/${usOtherId}/attachments/${id}`)).statusCode).toBe(404);
    const res = await t.as(senior).del(`exams/${usExamId}/attachments/${id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.blobs.size(key)).toBeNull();
    expect((await t.as(senior).del(`exams/${usExamId}/attachments/${id}`)).statusCode).toBe(404);
    const audits = await t.db.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'attachment_delete'));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.details).toMatchObject({ attachmentId: id });
  });
});

import {
  CONSULTATION_MAX,
  CONSULTATION_STATUS_VALUES,
  type ConsultationDetail,
  type ConsultationFile,
  type UploadPolicy,
} from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, consultationFiles } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { makeConsultation, makeConsultWorld, type ConsultWorld } from './consultation-exams.fixture.js';

/**
 * Case documents and files (issue 25): files go up with the 'consultations' upload policy and are
 * recorded processing, then completed once the server found the blob of that size and type; only
 * the caller's own policy keys, once; deleting takes the blob; a short-lived URL reads it.
 */
let t: TestApp;
let w: ConsultWorld;
const db = () => t.db.database.db;
const PDF = Buffer.from('%PDF-1.7\n% consultation case file\n');
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]);

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeConsultWorld(t);
});
afterAll(async () => {
  await t.close();
});

async function policy(token: string, type: string, size: number, kind = 'consultations'): Promise<UploadPolicy> {
  const res = await t.as(token).get(`policies/${kind}?contentType=${encodeURIComponent(type)}&size=${size}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UploadPolicy;
}
async function put(p: UploadPolicy, bytes: Buffer) {
  const sent = await t.app.inject({ method: 'PUT', url: p.upload.url, headers: p.upload.headers, payload: bytes });
  expect(sent.statusCode, sent.body).toBe(204);
}
async function newCase(token: string, id: string, name = '入院记录'): Promise<string> {
  const res = await t.as(token).post(`consultations/${id}/cases`, { name, type: 'record', note: '外院' });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as ConsultationDetail).cases.find((c) => c.name === name)!.id;
}
const upsert = (token: string, id: string, body: Record<string, unknown>) =>
  t.as(token).post(`consultations/${id}/attachments/upsert`, body);
const pdfBody = (key: string, over: Record<string, unknown> = {}) => ({
  key,
  fileName: 'CT报告.pdf',
  size: PDF.length,
  fileType: 'application/pdf',
  uploadStatus: 'completed',
  ...over,
});

describe('a case file', () => {
  it('is processing, then completed after the check; opened by a short URL; deleted with its blob (audited)', async () => {
    const id = await makeConsultation(t, w);
    const doctor = w.clinic.doctor.token;
    const caseId = await newCase(doctor, id);
    const p = await policy(doctor, 'application/pdf', PDF.length);
    const first = await upsert(doctor, id, pdfBody(p.key, { caseId, uploadStatus: 'processing' }));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ uploadStatus: 'processing', fileType: 'application/pdf', size: PDF.length });
    // Completed before the bytes arrived: refused, still processing.
    const early = await upsert(doctor, id, pdfBody(p.key, { caseId }));
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'missing' } });
    await put(p, PDF);
    const done = await upsert(doctor, id, pdfBody(p.key, { caseId }));
    expect(done.statusCode, done.body).toBe(200);
    const file = done.json() as ConsultationFile;
    expect(file).toMatchObject({ id: (first.json() as ConsultationFile).id, uploadStatus: 'completed' });
    expect(file.createdByName).toBe(w.clinic.doctor.name);

    // Both sides see it; the expert opens it.
    const seen = (await t.as(w.experts.expert.token).get(`consultations/${id}`)).json() as ConsultationDetail;
    expect(seen.cases[0]!.files).toEqual([file]);
    const link = await t.as(w.experts.expert.token).get(`consultations/${id}/attachments/${file.id}/url`);
    expect(link.statusCode, link.body).toBe(200);
    const { url, expiresAt } = link.json() as { url: string; expiresAt: string };
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(t.clock.now().getTime());
    const got = await t.app.inject({ method: 'GET', url });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PDF)).toBe(true);
    for (const token of [w.outsider.doctor.token, w.experts.bystander.token]) {
      expect((await t.as(token).get(`consultations/${id}/attachments/${file.id}/url`)).statusCode).toBe(404);
    }

    // The expert may not delete it; the requester does, and the blob goes.
    expect((await t.as(w.experts.expert.token).del(`consultations/${id}/attachments/${file.id}`)).statusCode).toBe(403);
    const gone = await t.as(doctor).del(`consultations/${id}/attachments/${file.id}`);
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await t.blobs.size(p.key)).toBeNull();
    expect((await t.as(doctor).del(`consultations/${id}/attachments/${file.id}`)).statusCode).toBe(404);
    const audits = await db().select().from(auditLogs).where(eq(auditLogs.targetId, id));
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining(['consultation.file_upload', 'consultation.file_url', 'consultation.file_delete']),
    );
  });

  it('goes with its consultation: deleting a pending request takes its files’ blobs too', async () => {
    const id = await makeConsultation(t, w);
    const doctor = w.clinic.doctor.token;
    const caseId = await newCase(doctor, id, '病理报告');
    const p = await policy(doctor, 'application/pdf', PDF.length);
    await put(p, PDF);
    const done = await upsert(doctor, id, pdfBody(p.key, { caseId }));
    expect(done.statusCode, done.body).toBe(200);
    expect(await t.blobs.size(p.key)).toBe(PDF.length);
    const gone = await t.as(doctor).del(`consultations/${id}`);
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await db().select().from(consultationFiles).where(eq(consultationFiles.key, p.key))).toEqual([]);
    expect(await t.blobs.size(p.key)).toBeNull();
  });

  it('refuses the wrong type, an oversize file, a size that differs, and keys not the caller’s own', async () => {
    const id = await makeConsultation(t, w);
    const doctor = w.clinic.doctor.token;
    const caseId = await newCase(doctor, id);
    const typeRes = await t.as(doctor).get('policies/consultations?contentType=text%2Fhtml&size=10');
    expect(typeRes.json()).toMatchObject({ code: 'FileTypeNotAllowed' });
    const big = await t.as(doctor).get(`policies/consultations?contentType=application%2Fpdf&size=${60 * 1024 * 1024}`);
    expect(big.json()).toMatchObject({ code: 'FileTooLarge' });
    const p = await policy(doctor, 'application/pdf', PDF.length);
    expect((await upsert(doctor, id, pdfBody(p.key, { caseId, size: 60 * 1024 * 1024 }))).json()).toMatchObject({
      code: 'FileTooLarge',
    });
    // A PNG key whose bytes are a PDF, and a claimed type the key does not have.
    const png = await policy(doctor, 'image/png', PDF.length);
    await put(png, PDF);
    const mismatch = await upsert(doctor, id, pdfBody(png.key, { caseId, fileType: 'image/png' }));
    expect(mismatch.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'typeMismatch' } });
    expect((await upsert(doctor, id, pdfBody(p.key, { caseId, fileType: 'image/png' }))).json()).toMatchObject({
      details: { problem: 'typeMismatch' },
    });
    await put(p, PDF);
    expect((await upsert(doctor, id, pdfBody(p.key, { caseId, size: PDF.length - 1 }))).json()).toMatchObject({
      details: { problem: 'sizeMismatch' },
    });
    // Another account's key, another kind's key, a path that is no key.
    const theirs = await policy(w.clinic.reader.token, 'application/pdf', PDF.length);
    const otherKind = await policy(doctor, 'application/pdf', PDF.length, 'attachments');
    for (const key of [theirs.key, otherKind.key, 'uploads/consultations/../../secret', 'studies/a.dcm']) {
      const res = await upsert(doctor, id, pdfBody(key, { caseId }));
      expect(res.statusCode, key).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'notYours' } });
    }
    expect(await db().select().from(consultationFiles).where(eq(consultationFiles.consultationId, id))).toEqual([]);

    // A key recorded once is not recorded again elsewhere.
    expect((await upsert(doctor, id, pdfBody(p.key, { caseId }))).statusCode).toBe(200);
    const other = await makeConsultation(t, w);
    const otherCase = await newCase(doctor, other);
    expect((await upsert(doctor, other, pdfBody(p.key, { caseId: otherCase }))).json()).toMatchObject({
      details: { problem: 'alreadyUsed' },
    });
    expect((await upsert(doctor, id, pdfBody(p.key, { caseId: 'no-such-case' }))).json()).toMatchObject({
      details: { problem: 'alreadyUsed' },
    });
    // An unknown case, another tenant, a caller without addCase.
    const q = await policy(doctor, 'application/pdf', PDF.length);
    expect(
      (await upsert(doctor, id, pdfBody(q.key, { caseId: 'no-such-case', uploadStatus: 'processing' }))).statusCode,
    ).toBe(404);
    expect((await upsert(w.outsider.doctor.token, id, pdfBody(q.key, { caseId }))).statusCode).toBe(404);
    expect((await upsert(w.experts.expert.token, id, pdfBody(q.key, { caseId }))).statusCode).toBe(403);
  });

  it('keeps to the limits of cases and files per case; a case goes with its files and their blobs', async () => {
    const id = await makeConsultation(t, w);
    const doctor = w.clinic.doctor.token;
    const caseId = await newCase(doctor, id);
    const keys: string[] = [];
    for (let i = 0; i < CONSULTATION_MAX.filesPerCase; i++) {
      const p = await policy(doctor, 'image/png', PNG.length);
      await put(p, PNG);
      keys.push(p.key);
      const res = await upsert(doctor, id, {
        key: p.key,
        fileName: `${i}.png`,
        size: PNG.length,
        fileType: '',
        caseId,
        uploadStatus: 'completed',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const extra = await policy(doctor, 'image/png', PNG.length);
    const over = await upsert(doctor, id, {
      key: extra.key,
      fileName: 'x.png',
      size: PNG.length,
      fileType: '',
      caseId,
      uploadStatus: 'processing',
    });
    expect(over.json()).toMatchObject({ code: 'TooManyFiles', details: { maxFiles: CONSULTATION_MAX.filesPerCase } });
    for (let i = 1; i < CONSULTATION_MAX.cases; i++) await newCase(doctor, id, `病历 ${i}`);
    const tooMany = await t.as(doctor).post(`consultations/${id}/cases`, { name: '多余', type: 'other' });
    expect(tooMany.statusCode).toBe(400);
    expect((await t.as(w.clinic.reader.token).del(`consultations/${id}/cases/${caseId}`)).statusCode).toBe(403);
    const removed = await t.as(doctor).del(`consultations/${id}/cases/${caseId}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((removed.json() as ConsultationDetail).cases).toHaveLength(CONSULTATION_MAX.cases - 1);
    for (const key of keys) expect(await t.blobs.size(key)).toBeNull();
    expect((await t.as(doctor).del(`consultations/${id}/cases/${caseId}`)).statusCode).toBe(404);
  });
});

describe('a result attachment', () => {
  it("is the experts' while scheduled: not the requester's, not before", async () => {
    const pending = await makeConsultation(t, w);
    const id = await makeConsultation(t, w, { status: CONSULTATION_STATUS_VALUES.scheduled });
    const expert = w.experts.expert.token;
    const p = await policy(expert, 'application/pdf', PDF.length);
    await put(p, PDF);
    expect((await upsert(expert, pending, pdfBody(p.key))).json()).toMatchObject({ code: 'ConsultationWrongStatus' });
    const res = await upsert(expert, id, pdfBody(p.key));
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json() as ConsultationFile;
    const detail = (await t.as(w.clinic.doctor.token).get(`consultations/${id}`)).json() as ConsultationDetail;
    expect(detail.resultAttachments).toEqual([file]);
    const mine = await policy(w.clinic.doctor.token, 'application/pdf', PDF.length);
    expect((await upsert(w.clinic.doctor.token, id, pdfBody(mine.key))).statusCode).toBe(403);
    expect((await t.as(w.clinic.doctor.token).del(`consultations/${id}/attachments/${file.id}`)).statusCode).toBe(403);
    expect((await t.as(expert).del(`consultations/${id}/attachments/${file.id}`)).statusCode).toBe(204);
    const left = await db()
      .select()
      .from(consultationFiles)
      .where(and(eq(consultationFiles.consultationId, id), eq(consultationFiles.id, file.id)));
    expect(left).toEqual([]);
  });

  it('a file still processing has no URL', async () => {
    const id = await makeConsultation(t, w, { status: CONSULTATION_STATUS_VALUES.scheduled });
    const p = await policy(w.experts.expert.token, 'application/pdf', PDF.length);
    const res = await upsert(w.experts.expert.token, id, pdfBody(p.key, { uploadStatus: 'processing' }));
    const file = res.json() as ConsultationFile;
    const link = await t.as(w.clinic.doctor.token).get(`consultations/${id}/attachments/${file.id}/url`);
    expect(link.statusCode).toBe(400);
    expect(link.json()).toMatchObject({ code: 'InvalidUpload', details: { problem: 'processing' } });
  });
});

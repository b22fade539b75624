import { CONSULTATION_MAX, VIEWER_TOKEN_HEADER, type ConsultationDetail, type ExamPage } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, consultationExams, exams, instances } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { copyExamInto } from '../exams/index.js';
import { clinicExam, makeConsultation, makeConsultWorld, type ConsultWorld } from './consultation-exams.fixture.js';

/**
 * Bound exams (issue 25): an exam of the source organization bound to a consultation is shared at once
 * with the target organization as an exam of its own (its study list, viewer, audited reads), whose
 * report is read-only there; unbinding, completing or cancelling takes the copy back.
 */
let t: TestApp;
let w: ConsultWorld;
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeConsultWorld(t);
});
afterAll(async () => {
  await t.close();
});

const bind = (token: string, id: string, examIds: string[]) =>
  t.as(token).post(`consultations/${id}/exams`, { examIds });
const binding = async (id: string, examId: string) =>
  (
    await db()
      .select()
      .from(consultationExams)
      .where(and(eq(consultationExams.consultationId, id), eq(consultationExams.examId, examId)))
  )[0];
const examRow = async (id: string) => (await db().select().from(exams).where(eq(exams.id, id)))[0];
async function listed(token: string): Promise<string[]> {
  const res = await t.as(token).post('exams/page-query', { filters: [] });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ExamPage).exams.map((e) => e.id);
}
async function detail(token: string, id: string): Promise<ConsultationDetail> {
  const res = await t.as(token).get(`consultations/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ConsultationDetail;
}

describe('binding an exam', () => {
  it("shares it with the target organization's participants: list, exam, viewer (audited), read-only report", async () => {
    const id = await makeConsultation(t, w);
    const examId = await clinicExam(t, w, 'Li^Lei');
    const res = await bind(w.clinic.doctor.token, id, [examId]);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as ConsultationDetail;
    expect(answer.exams).toEqual([
      expect.objectContaining({ examId, name: 'Li Lei', modality: 'CT', openExamId: examId }),
    ]);
    const copyId = (await binding(id, examId))!.sharedExamId!;
    expect(copyId).toBeTruthy();
    expect(copyId).not.toBe(examId);
    expect(await examRow(copyId)).toMatchObject({ bucketId: w.experts.org.bucketId, source: 'consultation' });
    const theirs = await db().select().from(instances).where(eq(instances.examId, copyId));
    const ours = await db().select().from(instances).where(eq(instances.examId, examId));
    expect(theirs.map((i) => i.blobKey).sort()).toEqual(ours.map((i) => i.blobKey).sort());

    // The expert opens the copy; the requester's exam stays the requester's.
    const expert = w.experts.expert.token;
    expect((await detail(expert, id)).exams[0]!.openExamId).toBe(copyId);
    expect(await listed(expert)).toContain(copyId);
    expect(await listed(expert)).not.toContain(examId);
    expect((await t.as(expert).get(`exams/${examId}`)).statusCode).toBe(404);
    expect((await t.as(expert).get(`exams/${copyId}`)).statusCode).toBe(200);
    expect((await t.as(w.clinic.doctor.token).get(`exams/${copyId}`)).statusCode).toBe(404);
    const path = await t.as(expert).post(`viewers/${copyId}/path`, {});
    expect(path.statusCode, path.body).toBe(200);
    const { openpath } = path.json() as { openpath: string };
    const ctx = await t.call('GET', 'viewer/context', { headers: { [VIEWER_TOKEN_HEADER]: openpath } });
    expect(ctx.statusCode, ctx.body).toBe(200);
    const audits = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.targetId, copyId), eq(auditLogs.action, 'exam.view_images')));
    expect(audits.map((a) => a.actorId)).toContain(w.experts.expert.accountId);
    const bound = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.targetId, examId), eq(auditLogs.action, 'consultation.exam_bind')));
    expect(bound).toHaveLength(1);

    // Its report is read-only there: neither locked nor written.
    const lock = await t.as(expert).post(`reports/${copyId}/lock`);
    expect(lock.statusCode).toBe(409);
    expect(lock.json()).toMatchObject({ code: 'ReportNotEditable' });
    const report = await t.as(expert).get(`reports/${copyId}/detail`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({ transitions: [] });
  });

  it('refuses exams of another organization or deleted ones (404), callers without the action (403), past the limit', async () => {
    const id = await makeConsultation(t, w);
    const mine = await clinicExam(t, w);
    const foreign = await clinicExam(t, w, 'Other^Patient', w.outsider.org.bucketId);
    const targets = await clinicExam(t, w, 'Expert^Own', w.experts.org.bucketId);
    for (const examIds of [[foreign], [mine, foreign], [targets], ['no-such-exam']]) {
      const res = await bind(w.clinic.doctor.token, id, examIds);
      expect(res.statusCode, res.body).toBe(404);
    }
    expect(await binding(id, mine)).toBeUndefined();
    const reader = await bind(w.clinic.reader.token, id, [mine]);
    expect(reader.statusCode).toBe(403);
    expect((await bind(w.outsider.doctor.token, id, [mine])).statusCode).toBe(404);
    expect((await bind(w.experts.chief.token, id, [mine])).statusCode).toBe(403);
    expect((await bind(w.clinic.doctor.token, id, [])).statusCode).toBe(400);

    // A deleted exam is not bound either.
    await db().update(exams).set({ deletedTime: t.clock.now() }).where(eq(exams.id, mine));
    expect((await bind(w.clinic.doctor.token, id, [mine])).statusCode).toBe(404);

    // Binding twice binds once; at most CONSULTATION_MAX.exams in all.
    const many = [] as string[];
    for (let i = 0; i < CONSULTATION_MAX.exams; i++) many.push(await clinicExam(t, w, `Many^${i}`));
    expect((await bind(w.clinic.doctor.token, id, many.slice(0, 5))).statusCode).toBe(200);
    const again = await bind(w.clinic.doctor.token, id, many.slice(0, 5));
    expect((again.json() as ConsultationDetail).exams).toHaveLength(5);
    expect((await bind(w.clinic.doctor.token, id, many.slice(5))).statusCode).toBe(200);
    const over = await bind(w.clinic.doctor.token, id, [await clinicExam(t, w, 'One^More')]);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ code: 'ValidationError', details: { limit: CONSULTATION_MAX.exams } });
    expect((await detail(w.clinic.doctor.token, id)).exams).toHaveLength(CONSULTATION_MAX.exams);
  });
});

describe('unbinding and closing', () => {
  it('unbinding takes the copy back (its blobs stay); an exam not bound is 404', async () => {
    const id = await makeConsultation(t, w);
    const examId = await clinicExam(t, w);
    expect((await bind(w.clinic.doctor.token, id, [examId])).statusCode).toBe(200);
    const copyId = (await binding(id, examId))!.sharedExamId!;
    const keys = (await db().select().from(instances).where(eq(instances.examId, examId))).map((i) => i.blobKey);
    const res = await t.as(w.clinic.doctor.token).del(`consultations/${id}/exams/${examId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as ConsultationDetail).exams).toEqual([]);
    expect(await examRow(copyId)).toBeUndefined();
    expect(await db().select().from(instances).where(eq(instances.examId, copyId))).toEqual([]);
    for (const key of keys) expect(await t.blobs.size(key)).toBeGreaterThan(0);
    expect(await examRow(examId)).toBeDefined();
    expect((await t.as(w.experts.expert.token).get(`exams/${copyId}`)).statusCode).toBe(404);
    expect((await t.as(w.clinic.doctor.token).del(`consultations/${id}/exams/${examId}`)).statusCode).toBe(404);
    expect((await t.as(w.clinic.reader.token).del(`consultations/${id}/exams/${examId}`)).statusCode).toBe(403);
  });

  it('a copy two consultations share stays until the last lets go', async () => {
    const [a, b] = [await makeConsultation(t, w), await makeConsultation(t, w)];
    const examId = await clinicExam(t, w);
    expect((await bind(w.clinic.doctor.token, a, [examId])).statusCode).toBe(200);
    expect((await bind(w.clinic.doctor.token, b, [examId])).statusCode).toBe(200);
    const copyId = (await binding(a, examId))!.sharedExamId!;
    expect((await binding(b, examId))!.sharedExamId).toBe(copyId);
    expect((await t.as(w.clinic.doctor.token).del(`consultations/${a}/exams/${examId}`)).statusCode).toBe(200);
    expect(await examRow(copyId)).toBeDefined();
    expect((await t.as(w.clinic.doctor.token).del(`consultations/${b}/exams/${examId}`)).statusCode).toBe(200);
    expect(await examRow(copyId)).toBeUndefined();
  });

  it('completing unshares the bound exams (the snapshot stays); nothing is bound afterwards', async () => {
    const id = await makeConsultation(t, w);
    const examId = await clinicExam(t, w, 'Zhou^Jie');
    expect((await bind(w.clinic.doctor.token, id, [examId])).statusCode).toBe(200);
    const copyId = (await binding(id, examId))!.sharedExamId!;
    const chief = t.as(w.experts.chief.token);
    let version = (await detail(w.experts.chief.token, id)).version;
    const scheduled = await chief.post(`consultations/${id}/status`, { status: 1, version });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    version = (scheduled.json() as ConsultationDetail).version;
    const result = await t
      .as(w.experts.expert.token)
      .put(`consultations/${id}/results`, { result: '良性可能大', version });
    expect(result.statusCode, result.body).toBe(200);
    version = (result.json() as ConsultationDetail).version;
    expect(await listed(w.experts.expert.token)).toContain(copyId);
    const done = await chief.post(`consultations/${id}/status`, { status: 2, version });
    expect(done.statusCode, done.body).toBe(200);
    expect(await examRow(copyId)).toBeUndefined();
    expect(await binding(id, examId)).toMatchObject({ sharedExamId: null, name: 'Zhou Jie', modality: 'CT' });
    expect(await listed(w.experts.expert.token)).not.toContain(copyId);
    expect((await detail(w.experts.expert.token, id)).exams[0]).toMatchObject({ examId, openExamId: null });
    const late = await bind(w.clinic.doctor.token, id, [await clinicExam(t, w)]);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'ConsultationWrongStatus' });
  });

  it('cancelling unshares them too', async () => {
    const id = await makeConsultation(t, w);
    const examId = await clinicExam(t, w);
    expect((await bind(w.clinic.doctor.token, id, [examId])).statusCode).toBe(200);
    const copyId = (await binding(id, examId))!.sharedExamId!;
    const version = (await detail(w.clinic.doctor.token, id)).version;
    const res = await t.as(w.clinic.doctor.token).post(`consultations/${id}/cancel`, { reason: '患者转院', version });
    expect(res.statusCode, res.body).toBe(200);
    expect(await examRow(copyId)).toBeUndefined();
    expect((await binding(id, examId))!.sharedExamId).toBeNull();
  });

  it("a copy a remote read takes over becomes the read's: reportable, and it stays after the close", async () => {
    const id = await makeConsultation(t, w);
    const examId = await clinicExam(t, w);
    expect((await bind(w.clinic.doctor.token, id, [examId])).statusCode).toBe(200);
    const copyId = (await binding(id, examId))!.sharedExamId!;
    // An order of a remote read of the same exam at the same organization shares it there too.
    const ordered = await db().transaction((tx) =>
      copyExamInto(tx, { examId, targetBucketId: w.experts.org.bucketId, source: 'remote', now: t.clock.now() }),
    );
    expect(ordered).toBe(copyId);
    expect(await examRow(copyId)).toMatchObject({ source: 'remote' });
    expect((await t.as(w.experts.expert.token).post(`reports/${copyId}/lock`)).statusCode).toBe(200);
    const version = (await detail(w.clinic.doctor.token, id)).version;
    const res = await t
      .as(w.clinic.doctor.token)
      .post(`consultations/${id}/cancel`, { reason: '改为远程阅片', version });
    expect(res.statusCode, res.body).toBe(200);
    expect(await examRow(copyId)).toMatchObject({ source: 'remote', bucketId: w.experts.org.bucketId });
  });

  it('a request made from an exam binds and shares it at once', async () => {
    const examId = await clinicExam(t, w, 'Sun^Li');
    const res = await t.as(w.clinic.doctor.token).post('consultations', {
      title: '从报告发起的会诊',
      patient: { name: '孙丽' },
      scheduledAt: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
      reason: '疑难病例',
      sourceBucketId: w.clinic.org.bucketId,
      targetBucketId: w.experts.org.bucketId,
      examId,
      experts: [w.experts.expert.accountId],
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as ConsultationDetail;
    expect(created.exams.map((e) => e.examId)).toEqual([examId]);
    const copyId = (await binding(created.id, examId))!.sharedExamId!;
    expect(await examRow(copyId)).toMatchObject({ bucketId: w.experts.org.bucketId, source: 'consultation' });
  });
});

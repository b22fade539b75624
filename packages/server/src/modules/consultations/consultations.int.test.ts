import type { ConsultationDetail } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, consultationTraces, consultations, exams } from '../../db/schema.js';
import {
  consultationAt,
  consultationRequest,
  makeConsultationWorld,
  requestConsultation,
  type ConsultationWorld,
} from '../../test/factories-consultations.js';
import { makeExam, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * A consultation's life through the API (spec 000 §3–§5, spec 001 §7 "Consultations"; issue 25):
 * the request and its rules, the target accepting with a bound exam, the experts' suggestion and
 * result, closing, cancelling with a reason, deleting, the rating (once) and the visit record;
 * version conflicts; other tenants' 404s; the traces and audit rows of every step.
 */
let t: TestApp;
let w: ConsultationWorld;
const db = () => t.db.database.db;
const as = (token: string) => t.as(token);
const json = (res: { json(): unknown }) => res.json() as ConsultationDetail;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeConsultationWorld(t);
});
afterAll(async () => {
  await t.close();
});

describe('request (POST consultations)', () => {
  it('makes a pending consultation with the exam bound and shared, the expert named, traced and audited', async () => {
    const { examId } = await makeExam(t, w.clinic.org.bucketId);
    const c = await requestConsultation(t, w, { examId, reportId: 'r-1' });
    expect(c).toMatchObject({
      status: 0,
      title: '肺部结节会诊',
      patientName: '王小东',
      sourceBucketId: w.clinic.org.bucketId,
      appliedBucketName: '县医院放射科',
      targetBucketId: w.centre.org.bucketId,
      originExamId: examId,
      originReportId: 'r-1',
      roles: ['requester'],
      version: 1,
    });
    expect(c.joinedBuckets).toEqual([
      { bucketId: w.centre.org.bucketId, bucketName: '省影像会诊中心', experts: [w.centre.expert.name] },
    ]);
    expect(c.exams.map((e) => [e.examId, e.openExamId])).toEqual([[examId, examId]]);
    expect(c.can).toEqual(expect.arrayContaining(['update', 'cancel', 'delete', 'bindExam']));
    expect(c.can).not.toContain('schedule');
    // The expert reads it through the target organization's copy of the exam.
    const seen = json(await as(w.centre.expert.token).get(`consultations/${c.id}`));
    expect(seen.roles).toEqual(['expert']);
    const copy = seen.exams[0]!.openExamId!;
    expect(copy).not.toBe(examId);
    const [row] = await db().select({ bucketId: exams.bucketId }).from(exams).where(eq(exams.id, copy));
    expect(row?.bucketId).toBe(w.centre.org.bucketId);
    const traces = await db().select().from(consultationTraces).where(eq(consultationTraces.consultationId, c.id));
    expect(traces.map((r) => r.action)).toEqual(expect.arrayContaining(['create', 'bindExam']));
    const audits = await db().select({ action: auditLogs.action }).from(auditLogs).where(eq(auditLogs.targetId, c.id));
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['consultation.create', 'consultation.read']));
  });

  it('refuses bad input with 400 and writes nothing (start time, reason, target, experts)', async () => {
    const before = await db().select({ id: consultations.id }).from(consultations);
    const doctor = as(w.clinic.doctor.token);
    const { scheduledAt: _, ...noTime } = consultationRequest(t, w);
    expect((await doctor.post('consultations', noTime)).statusCode).toBe(400);
    expect((await doctor.post('consultations', consultationRequest(t, w, { reason: '  ' }))).statusCode).toBe(400);
    const other = await makeOrganization(t);
    const notTarget = await doctor.post('consultations', consultationRequest(t, w, { targetBucketId: other.bucketId }));
    expect(notTarget.statusCode).toBe(400);
    expect(notTarget.json()).toMatchObject({ code: 'ValidationError', details: { field: 'targetBucketId' } });
    const stranger = await doctor.post(
      'consultations',
      consultationRequest(t, w, { experts: [w.outsider.doctor.accountId] }),
    );
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ details: { field: 'experts' } });
    expect(await db().select({ id: consultations.id }).from(consultations)).toHaveLength(before.length);
  });

  it('needs consultation_create in a source the caller sees, an exam of the source, and the group switch', async () => {
    const nurse = await as(w.clinic.nurse.token).post('consultations', consultationRequest(t, w));
    expect(nurse.statusCode).toBe(403);
    const outsider = await as(w.outsider.doctor.token).post('consultations', consultationRequest(t, w));
    expect(outsider.statusCode).toBe(404);
    const foreign = await makeExam(t, w.outsider.org.bucketId);
    const wrongExam = await as(w.clinic.doctor.token).post(
      'consultations',
      consultationRequest(t, w, { examId: foreign.examId }),
    );
    expect(wrongExam.statusCode).toBe(404);
    // The outsider's group has consultations on but no targets: its own request names no valid target.
    const own = await as(w.outsider.doctor.token).post(
      'consultations',
      consultationRequest(t, w, { sourceBucketId: w.outsider.org.bucketId }),
    );
    expect(own.statusCode).toBe(400);
  });
});

describe('a consultation of another tenant', () => {
  it('is 404 on every call, and changes nothing', async () => {
    const c = await requestConsultation(t, w);
    const o = as(w.outsider.doctor.token);
    expect((await o.get(`consultations/${c.id}`)).statusCode).toBe(404);
    expect((await o.put(`consultations/${c.id}`, { title: 'x', version: c.version })).statusCode).toBe(404);
    expect((await o.post(`consultations/${c.id}/cancel`, { reason: 'x', version: c.version })).statusCode).toBe(404);
    expect((await o.del(`consultations/${c.id}`)).statusCode).toBe(404);
    expect((await o.get(`consultations/${c.id}/traces`)).statusCode).toBe(404);
    expect((await o.get('consultations/no-such-id')).statusCode).toBe(404);
    // Staff of the target's organization who is neither named nor its consultation staff sees nothing either.
    expect((await as(w.centre.junior.token).get(`consultations/${c.id}`)).statusCode).toBe(404);
    const [row] = await db().select().from(consultations).where(eq(consultations.id, c.id));
    expect(row).toMatchObject({ status: 0, title: c.title, version: c.version });
  });
});

describe('update (PUT consultations/{id})', () => {
  it("changes the requester's fields at the version read; a stale version is 409 Conflict", async () => {
    const c = await requestConsultation(t, w, { note: '家属陪同', clinicImpression: '肺结节' });
    const doctor = as(w.clinic.doctor.token);
    const changed = await doctor.put(`consultations/${c.id}`, {
      title: '肺结节复核',
      patient: { name: '王小东', age: '57Y', gender: 'M' },
      version: c.version,
    });
    expect(changed.statusCode).toBe(200);
    // Fields not sent keep their values.
    expect(json(changed)).toMatchObject({
      title: '肺结节复核',
      patient: { age: '57Y' },
      note: '家属陪同',
      clinicImpression: '肺结节',
      version: c.version + 1,
    });
    const stale = await doctor.put(`consultations/${c.id}`, { title: '旧的', version: c.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'Conflict' });
    expect((await doctor.put(`consultations/${c.id}`, { scheduledAt: '', version: 2 })).statusCode).toBe(400);
    // The target's side may not edit the requester's fields.
    const byChief = await as(w.centre.chief.token).put(`consultations/${c.id}`, { title: 'x', version: 2 });
    expect(byChief.statusCode).toBe(403);
    expect(json(await doctor.get(`consultations/${c.id}`)).title).toBe('肺结节复核');
  });
});

describe('status (POST consultations/{id}/status)', () => {
  it('scheduling needs an exam bound (409 ConsultationNoExam) and the target staff', async () => {
    const c = await requestConsultation(t, w);
    const chief = as(w.centre.chief.token);
    const noExam = await chief.post(`consultations/${c.id}/status`, { status: 1, version: c.version });
    expect(noExam.statusCode).toBe(409);
    expect(noExam.json()).toMatchObject({ code: 'ConsultationNoExam' });
    const { examId } = await makeExam(t, w.clinic.org.bucketId);
    const bound = await as(w.clinic.doctor.token).post(`consultations/${c.id}/exams`, { examIds: [examId] });
    expect(bound.statusCode).toBe(200);
    const v = json(bound).version;
    const byDoctor = await as(w.clinic.doctor.token).post(`consultations/${c.id}/status`, { status: 1, version: v });
    expect(byDoctor.statusCode).toBe(403);
    const moved = new Date(t.clock.now().getTime() + 7200_000).toISOString();
    const ok = await chief.post(`consultations/${c.id}/status`, { status: 1, scheduledAt: moved, version: v });
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toMatchObject({ status: 1, scheduledAt: moved, roles: ['target'] });
    const again = await chief.post(`consultations/${c.id}/status`, { status: 1, version: json(ok).version });
    expect(again.json()).toMatchObject({ code: 'ConsultationWrongStatus' });
  });

  it('completing needs the result (409 ConsultationNoResult); then it is final and the shared exam goes', async () => {
    const c = await consultationAt(t, w, 'scheduled');
    const copy = json(await as(w.centre.expert.token).get(`consultations/${c.id}`)).exams[0]!.openExamId!;
    const expert = as(w.centre.expert.token);
    const early = await expert.post(`consultations/${c.id}/status`, { status: 2, version: c.version });
    expect(early.json()).toMatchObject({ code: 'ConsultationNoResult' });
    expect((await expert.put(`consultations/${c.id}/results`, { result: '  ', version: c.version })).statusCode).toBe(
      400,
    );
    const written = await expert.put(`consultations/${c.id}/results`, { result: '良性可能大', version: c.version });
    expect(json(written)).toMatchObject({ result: '良性可能大', resultByName: w.centre.expert.name });
    const done = await expert.post(`consultations/${c.id}/status`, { status: 2, version: json(written).version });
    expect(done.statusCode).toBe(200);
    expect(json(done).status).toBe(2);
    expect(json(done).exams[0]!.openExamId).toBeNull();
    expect(await db().select().from(exams).where(eq(exams.id, copy))).toHaveLength(0);
    const v = json(done).version;
    expect(
      (await as(w.clinic.doctor.token).post(`consultations/${c.id}/cancel`, { reason: 'x', version: v })).json(),
    ).toMatchObject({ code: 'ConsultationWrongStatus' });
    expect((await expert.put(`consultations/${c.id}/results`, { result: '改', version: v })).statusCode).toBe(409);
  });
});

describe('the experts write', () => {
  it('suggestion and result only while scheduled, and only a named expert who may write', async () => {
    const pending = await requestConsultation(t, w);
    const expert = as(w.centre.expert.token);
    const tooEarly = await expert.put(`consultations/${pending.id}/suggestion`, {
      suggestion: '建议增强 CT',
      version: pending.version,
    });
    expect(tooEarly.json()).toMatchObject({ code: 'ConsultationWrongStatus' });
    const c = await consultationAt(t, w, 'scheduled');
    const ok = await expert.put(`consultations/${c.id}/suggestion`, {
      suggestion: '建议增强 CT',
      treatmentPlan: '3个月复查',
      version: c.version,
    });
    expect(json(ok)).toMatchObject({ suggestion: '建议增强 CT', treatmentPlan: '3个月复查' });
    const byChief = await as(w.centre.chief.token).put(`consultations/${c.id}/suggestion`, {
      suggestion: 'x',
      version: json(ok).version,
    });
    expect(byChief.statusCode).toBe(403);
    const byDoctor = await as(w.clinic.doctor.token).put(`consultations/${c.id}/results`, {
      result: 'x',
      version: json(ok).version,
    });
    expect(byDoctor.statusCode).toBe(403);
  });
});

describe('cancel (POST consultations/{id}/cancel)', () => {
  it('needs a reason, cannot be undone, and takes the shared exams back', async () => {
    const c = await consultationAt(t, w, 'pending');
    const doctor = as(w.clinic.doctor.token);
    const noReason = await doctor.post(`consultations/${c.id}/cancel`, { reason: ' ', version: c.version });
    expect(noReason.statusCode).toBe(400);
    const done = await doctor.post(`consultations/${c.id}/cancel`, { reason: '患者转院', version: c.version });
    expect(done.statusCode).toBe(200);
    expect(json(done)).toMatchObject({ status: 3, cancelReason: '患者转院' });
    expect(json(done).exams.every((e) => e.openExamId === c.exams[0]!.examId)).toBe(true);
    const seen = json(await as(w.centre.expert.token).get(`consultations/${c.id}`));
    expect(seen.exams[0]!.openExamId).toBeNull();
    const v = json(done).version;
    const again = await doctor.post(`consultations/${c.id}/cancel`, { reason: '再取消', version: v });
    expect(again.json()).toMatchObject({ code: 'ConsultationWrongStatus' });
    const back = await as(w.centre.chief.token).post(`consultations/${c.id}/status`, { status: 1, version: v });
    expect(back.json()).toMatchObject({ code: 'ConsultationWrongStatus' });
    expect((await doctor.put(`consultations/${c.id}`, { title: 'x', version: v })).statusCode).toBe(409);
  });

  it('may be done by the target staff too; a stale version is 409 Conflict', async () => {
    const c = await requestConsultation(t, w);
    const stale = await as(w.centre.chief.token).post(`consultations/${c.id}/cancel`, {
      reason: '无法安排',
      version: c.version + 5,
    });
    expect(stale.json()).toMatchObject({ code: 'Conflict' });
    const ok = await as(w.centre.chief.token).post(`consultations/${c.id}/cancel`, {
      reason: '无法安排',
      version: c.version,
    });
    expect(json(ok).status).toBe(3);
  });
});

describe('delete (DELETE consultations/{id})', () => {
  it('removes a pending or canceled one (consultation_delete), never a scheduled or completed one', async () => {
    const c = await consultationAt(t, w, 'pending');
    const copy = json(await as(w.centre.expert.token).get(`consultations/${c.id}`)).exams[0]!.openExamId!;
    expect((await as(w.centre.chief.token).del(`consultations/${c.id}`)).statusCode).toBe(403);
    const gone = await as(w.clinic.doctor.token).del(`consultations/${c.id}`);
    expect(gone.statusCode).toBe(204);
    expect(await db().select().from(consultations).where(eq(consultations.id, c.id))).toHaveLength(0);
    // The target's copy of the bound exam went with it; the source's exam stays.
    expect(await db().select().from(exams).where(eq(exams.id, copy))).toHaveLength(0);
    expect(await db().select().from(exams).where(eq(exams.id, c.exams[0]!.examId))).toHaveLength(1);
    const s = await consultationAt(t, w, 'scheduled');
    const kept = await as(w.clinic.doctor.token).del(`consultations/${s.id}`);
    expect(kept.json()).toMatchObject({ code: 'ConsultationWrongStatus' });
    const [audit] = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.targetId, c.id), eq(auditLogs.action, 'consultation.delete')));
    expect(audit).toBeDefined();
  });
});

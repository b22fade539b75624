import type { ConsultationDetail, ExamFilter, ExamPage } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consultationExams, exams, instances, series } from '../../db/schema.js';
import { consultationAt, makeConsultationWorld, type ConsultationWorld } from '../../test/factories-consultations.js';
import { makeExam, makeMember } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { copyExamInto } from '../exams/index.js';

/**
 * Issue 25: "bound exams are shared read-only with the target organization's participants for the
 * life of the consultation". A consultation's copy in the target is seen by the consultation's
 * members (experts, joiners) and the target's staff holding consultation_update (the chief), and
 * by nobody else there: the junior gets 404, as another tenant would, on every path naming the
 * exam, and does not find it in the study list, its counts or DICOMweb. A remote read's copy
 * ('remote', orders) is every target reader's, as before.
 */
let t: TestApp;
let w: ConsultationWorld;
let consultation: ConsultationDetail;
let copyId: string;
let studyUid: string;
let namePrefix: string;
let frameUrl: string;
const db = () => t.db.database.db;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeConsultationWorld(t);
  // An exam of the centre's own, so the lists and counts are not empty either way.
  await makeExam(t, w.centre.org.bucketId, { patientName: 'Own^Exam' });
  consultation = await consultationAt(t, w, 'scheduled');
  const [bound] = await db()
    .select()
    .from(consultationExams)
    .where(eq(consultationExams.consultationId, consultation.id));
  copyId = bound!.sharedExamId!;
  const [copy] = await db().select().from(exams).where(eq(exams.id, copyId));
  expect(copy).toMatchObject({ bucketId: w.centre.org.bucketId, source: 'consultation' });
  studyUid = copy!.storeUid;
  namePrefix = copy!.patientName.slice(0, 1);
  const [one] = await db()
    .select({ sop: instances.sopInstanceUid, series: series.seriesUid })
    .from(instances)
    .innerJoin(series, eq(series.id, instances.seriesId))
    .where(eq(instances.examId, copyId))
    .limit(1);
  frameUrl = `/dicom-web/studies/${studyUid}/series/${one!.series}/instances/${one!.sop}/frames/1`;
});
afterAll(async () => {
  await t.close();
});

const status = async (token: string, method: 'get' | 'post', url: string) =>
  (await t.as(token)[method](url)).statusCode;
async function listed(token: string, filters: ExamFilter[] = []): Promise<{ ids: string[]; count: number }> {
  const res = await t.as(token).post('exams/page-query', { filters, limit: 200 });
  expect(res.statusCode, res.body).toBe(200);
  const page = res.json() as ExamPage;
  return { ids: page.exams.map((e) => e.id), count: page.count };
}
async function counted(token: string, filters: ExamFilter[] = []): Promise<number> {
  const res = await t.as(token).post('exams/query/count', { filters });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { count: number }).count;
}
const dicom = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
const qidoUids = async (token: string) => {
  const res = await dicom(token, `/dicom-web/studies?StudyInstanceUID=${studyUid}`);
  if (res.statusCode === 204) return [];
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Record<string, { Value: string[] }>[]).map((s) => s['0020000D']!.Value[0]);
};

/** Every way a reader reaches the exam by its id: detail, viewer path, report, attachments. */
async function examPaths(token: string): Promise<number[]> {
  return [
    await status(token, 'get', `exams/${copyId}`),
    await status(token, 'post', `viewers/${copyId}/path`),
    await status(token, 'get', `reports/${copyId}/detail`),
    await status(token, 'get', `reports/${copyId}/attachments`),
  ];
}

describe("a consultation's copy in the target organization", () => {
  it('is opened by the named expert and by the chief (consultation_update)', async () => {
    for (const who of [w.centre.expert, w.centre.chief]) {
      expect((await examPaths(who.token)).every((s) => s === 200)).toBe(true);
      const { ids, count } = await listed(who.token);
      expect(ids).toContain(copyId);
      expect(count).toBe(ids.length);
      expect(await counted(who.token)).toBe(ids.length);
      expect(await qidoUids(who.token)).toEqual([studyUid]);
      expect((await dicom(who.token, frameUrl)).statusCode).toBe(200);
    }
  });

  it("is another tenant's to the junior: 404 on each path, absent from the list, its counts and DICOMweb", async () => {
    const junior = w.centre.junior.token;
    expect(await examPaths(junior)).toEqual([404, 404, 404, 404]);
    const expert = await listed(w.centre.expert.token);
    const mine = await listed(junior);
    expect(mine.ids).not.toContain(copyId);
    expect(mine.ids.length).toBeGreaterThan(0);
    expect(mine.count).toBe(mine.ids.length);
    expect(mine.count).toBe(expert.count - 1);
    // counted from the counters (no filter, a short name search) and from the exams (a filter)
    expect(await counted(junior)).toBe(mine.count);
    const ct: ExamFilter[] = [{ field: 'modality', operator: 'in', values: ['CT'] }];
    expect((await listed(junior, ct)).ids).not.toContain(copyId);
    expect(await counted(junior, ct)).toBe((await counted(w.centre.expert.token, ct)) - 1);
    const name: ExamFilter[] = [{ field: 'patientName', operator: 'prefix', values: [namePrefix] }];
    const byName = await listed(junior, name);
    expect(byName.ids).not.toContain(copyId);
    expect(byName.count).toBe(byName.ids.length);
    expect(byName.count).toBe((await listed(w.centre.expert.token, name)).count - 1);
    expect(await counted(junior, name)).toBe(byName.count);
    expect(await qidoUids(junior)).toEqual([]);
    expect((await dicom(junior, `/dicom-web/studies/${studyUid}/series`)).statusCode).toBe(404);
    expect((await dicom(junior, `/dicom-web/studies/${studyUid}/metadata`)).statusCode).toBe(404);
    expect((await dicom(junior, frameUrl)).statusCode).toBe(404);
  });

  it('is opened by a joiner named later, and hidden again once the joiner is taken off', async () => {
    const junior = w.centre.junior;
    const members = async (joiners: string[]) => {
      const res = await t.as(w.centre.chief.token).put(`consultations/${consultation.id}/members`, {
        experts: [w.centre.expert.accountId],
        joiners,
        version: consultation.version,
      });
      expect(res.statusCode, res.body).toBe(200);
      consultation = res.json() as ConsultationDetail;
    };
    await members([junior.accountId]);
    expect((await examPaths(junior.token)).every((s) => s === 200)).toBe(true);
    expect((await listed(junior.token)).ids).toContain(copyId);
    expect(await qidoUids(junior.token)).toEqual([studyUid]);
    await members([]);
    expect(await status(junior.token, 'get', `exams/${copyId}`)).toBe(404);
    expect((await listed(junior.token)).ids).not.toContain(copyId);
  });

  it('is not reached by study UID or as another exam of a call: download link, print status, merge, co-exams', async () => {
    // a clerk of the centre who may do all of it, with an exam of its own of the same patient
    const clerk = await makeMember(t, w.centre.org.bucketId, {
      actions: ['exam_get', 'exam_update', 'study_package', 'report_co_exam'],
    });
    const [copy] = await db().select().from(exams).where(eq(exams.id, copyId));
    const { examId: own } = await makeExam(t, w.centre.org.bucketId, { patientId: copy!.patientId });
    const download = `studies/download-token?bucketId=${w.centre.org.bucketId}&storeUid=${studyUid}`;
    expect(await status(clerk.token, 'get', download)).toBe(404);
    const print = await t.as(clerk.token).post('exams/modify-print-status', { storeUids: [studyUid], printed: true });
    expect(print.statusCode, print.body).toBe(404);
    expect(await status(clerk.token, 'post', `exams/${own}/merge-study/${copyId}`)).toBe(404);
    const co = await t.as(clerk.token).post(`reports/${own}/co-exams/add`, { examIds: [copyId] });
    expect(co.statusCode, co.body).toBe(404);
    const [after] = await db().select().from(exams).where(eq(exams.id, copyId));
    expect(after).toMatchObject({ studyPrinted: false, deletedTime: null });
    // a participant gets the download link
    expect(await status(w.centre.chief.token, 'get', download)).toBe(200);
  });

  it("leaves a remote read's copy to every reader of the target", async () => {
    const { examId } = await makeExam(t, w.clinic.org.bucketId, { patientName: 'Remote^Read' });
    const remote = await copyExamInto(db(), {
      examId,
      targetBucketId: w.centre.org.bucketId,
      source: 'remote',
      now: t.clock.now(),
    });
    const junior = w.centre.junior.token;
    expect(await status(junior, 'get', `exams/${remote}`)).toBe(200);
    expect((await listed(junior)).ids).toContain(remote);
    // the consultation's copy is still hidden from the junior beside it
    const [copy] = await db()
      .select({ id: exams.id })
      .from(exams)
      .where(and(eq(exams.id, copyId), eq(exams.source, 'consultation')));
    expect(copy).toBeDefined();
    expect((await listed(junior)).ids).not.toContain(copyId);
  });
});

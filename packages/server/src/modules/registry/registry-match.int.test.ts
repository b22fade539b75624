import type { MatchCandidate, Registration } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLogs,
  buckets,
  exams,
  groups,
  instances,
  reportImages,
  reports,
  scheduledExams,
} from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { makeMember, type BuiltMember } from '../../test/factories.js';
import { makeDesk, makeDevice, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Image binding (issue 22; contracts binding.ts): a study stored without its scheduled exam's keys
 * is matched by the desk (POST exams/{id}/schedules/{scheduledId}) or bound by an admin, replacing
 * the images of the exam a scheduled exam holds (POST exams/{id}/match/{scheduledId}, confirmed by
 * the accession number). Spec 000 §4 "binding images deletes associated data", §5, §6 exam_bind.
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let admin: BuiltMember;
const db = () => t.db.database.db;

/** A study stored with no scheduled keys: it lands as an unscheduled exam. */
async function unscheduled(bucketId: string, instancesPerSeries = 1, patientId = 'HEADER-PID'): Promise<string> {
  const study = generateStudy({ modality: 'CT', instancesPerSeries, rows: 16, columns: 16, patientId });
  let examId = '';
  for (const i of study.instances) examId = (await t.services.archive.ingest(bucketId, i.bytes, 'dimse')).examId;
  await t.services.registryDicom.whenIdle();
  return examId;
}
const scheduledRow = async (id: string) =>
  (await db().select().from(scheduledExams).where(eq(scheduledExams.id, id)))[0]!;
const examRow = async (id: string) => (await db().select().from(exams).where(eq(exams.id, id)))[0];
const audits = (action: string) => db().select().from(auditLogs).where(eq(auditLogs.action, action));

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t);
  admin = await makeMember(t, desk.org.bucketId, { level: 'admin' });
});
afterAll(async () => {
  await t.close();
});

describe('matching an unscheduled exam (the desk)', () => {
  let reg: Registration;
  let examId: string;
  it('lists the organization’s scheduled exams, searchable, and ties the exam to one: Performed, registration taken', async () => {
    reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }], {
      patient: { name: '李^登记', gender: 'F', birthDate: '19700102', patientId: 'REG-PID-1' },
      outpatientId: 'MZ-77',
    });
    await register(t, other.registrar.token, other.org.bucketId, [{ modality: 'CT' }]);
    examId = await unscheduled(desk.org.bucketId);
    const scheduled = reg.exams[0]!;
    const registrar = t.as(desk.registrar.token);

    const all = await registrar.get(`exams/${examId}/schedules`);
    expect(all.statusCode).toBe(200);
    const ids = (all.json() as MatchCandidate[]).map((c) => c.id);
    expect(ids).toContain(scheduled.id);
    // Another organization's scheduled exams are never candidates (spec 000 §5).
    expect(ids).toHaveLength(1);
    const found = await registrar.get(`exams/${examId}/schedules?q=${encodeURIComponent(scheduled.accessionNumber)}`);
    expect(found.json()).toEqual([
      expect.objectContaining({
        id: scheduled.id,
        status: 'Scheduled',
        patientName: '李^登记',
        patientId: 'REG-PID-1',
        examId: null,
        instanceCount: 0,
      }),
    ]);
    expect((await registrar.get(`exams/${examId}/schedules?q=nobody`)).json()).toEqual([]);

    const res = await registrar.post(`exams/${examId}/schedules/${scheduled.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      examId,
      scheduledId: scheduled.id,
      status: 'Performed',
      accessionNumber: scheduled.accessionNumber,
      instanceCount: 1,
      replacedInstances: 0,
    });
    expect(await scheduledRow(scheduled.id)).toMatchObject({ status: 'Performed', examId });
    expect(await examRow(examId)).toMatchObject({
      patientName: '李^登记',
      patientNamePinyin: 'ldj',
      patientId: 'REG-PID-1',
      patientDob: '19700102',
      accessionNumber: scheduled.accessionNumber,
      outpatientId: 'MZ-77',
      patientSource: 'O',
    });
    expect(await audits('registry.match')).toEqual([
      expect.objectContaining({ targetId: scheduled.id, actorId: desk.registrar.accountId }),
    ]);
  });

  it('refuses a scheduled exam that holds images (bind replaces), and an exam tied already', async () => {
    const scheduled = reg.exams[0]!;
    const second = await unscheduled(desk.org.bucketId);
    const registrar = t.as(desk.registrar.token);
    expect((await registrar.post(`exams/${second}/schedules/${scheduled.id}`)).statusCode).toBe(409);
    const next = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    // The first exam is the first scheduled exam's: it is not matched to a second one.
    expect((await registrar.post(`exams/${examId}/schedules/${next.exams[0]!.id}`)).statusCode).toBe(409);
    expect(await scheduledRow(next.exams[0]!.id)).toMatchObject({ status: 'Scheduled', examId: null });
    // A rebind candidate shows the images it would replace.
    const listed = (await registrar.get(`exams/${second}/schedules`)).json() as MatchCandidate[];
    expect(listed.find((c) => c.id === scheduled.id)).toMatchObject({ examId, instanceCount: 1 });
  });

  it('ties one exam to one scheduled exam when two desks match it at once', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }, { modality: 'CT' }]);
    const examId = await unscheduled(desk.org.bucketId);
    const answers = await Promise.all(
      reg.exams.map((s) => t.as(desk.registrar.token).post(`exams/${examId}/schedules/${s.id}`)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const tied = await db().select().from(scheduledExams).where(eq(scheduledExams.examId, examId));
    expect(tied).toHaveLength(1);
  });

  it('ties images to a scheduled exam confirmed Performed by hand, which stays Performed', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }], { arrive: true });
    const scheduled = reg.exams[0]!;
    const registrar = t.as(desk.registrar.token);
    expect((await registrar.post('registry/exam/confirm', { ids: [scheduled.id] })).statusCode).toBe(200);
    const examId = await unscheduled(desk.org.bucketId);
    const res = await registrar.post(`exams/${examId}/schedules/${scheduled.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ examId, status: 'Performed' });
    expect(await scheduledRow(scheduled.id)).toMatchObject({ status: 'Performed', examId });
  });
});

describe('binding images (admins, confirmed by typing)', () => {
  it('replaces the images of the scheduled exam’s exam and what was derived from them, keeps its report', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    const scheduled = reg.exams[0]!;
    const targetId = await unscheduled(desk.org.bucketId, 1, 'WRONG-STUDY');
    expect((await t.as(desk.registrar.token).post(`exams/${targetId}/schedules/${scheduled.id}`)).statusCode).toBe(200);
    // Derived data of the target's images: a key image, an AI result, a study package; and its report.
    await t.blobs.put('report-images/key.png', new Uint8Array([1, 2, 3]));
    await db().insert(reportImages).values({
      id: 'key-image-1',
      reportId: targetId,
      bucketId: desk.org.bucketId,
      blobKey: 'report-images/key.png',
      contentType: 'image/png',
      size: 3,
      position: 0,
    });
    await db()
      .update(exams)
      .set({ aiStatus: 'done', aiResult: { nodules: 2 } })
      .where(eq(exams.id, targetId));
    await db()
      .insert(reports)
      .values({ id: targetId, bucketId: desk.org.bucketId, status: 'draft', content: {} as never });
    const oldKeys = (await db().select().from(instances).where(eq(instances.examId, targetId))).map((r) => r.blobKey);
    const fromId = await unscheduled(desk.org.bucketId, 3, 'RIGHT-STUDY');
    const fromUid = (await examRow(fromId))!.storeUid;
    const as = t.as(admin.token);

    const candidates = (await as.get(`exams/${fromId}/schedules?q=${scheduled.accessionNumber}`)).json();
    expect(candidates).toEqual([expect.objectContaining({ id: scheduled.id, examId: targetId, instanceCount: 1 })]);
    // A wrong confirmation changes nothing and is a security event.
    const wrong = await as.post(`exams/${fromId}/match/${scheduled.id}`, { confirm: 'A000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'ValidationError', details: { field: 'confirm' } });
    expect((await as.post(`exams/${fromId}/match/${scheduled.id}`, {})).statusCode).toBe(400);
    expect(await examRow(fromId)).toBeDefined();
    expect((await examRow(targetId))!.instanceCount).toBe(1);
    expect(await audits('exam.bind.refused')).toEqual([
      expect.objectContaining({ targetId: fromId, outcome: 'denied' }),
    ]);

    const res = await as.post(`exams/${fromId}/match/${scheduled.id}`, { confirm: ` ${scheduled.accessionNumber} ` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      examId: targetId,
      scheduledId: scheduled.id,
      status: 'Performed',
      accessionNumber: scheduled.accessionNumber,
      storeUid: fromUid,
      seriesCount: 1,
      instanceCount: 3,
      replacedInstances: 1,
    });
    expect(await examRow(fromId)).toBeUndefined();
    expect(await examRow(targetId)).toMatchObject({
      storeUid: fromUid,
      instanceCount: 3,
      accessionNumber: scheduled.accessionNumber,
      patientName: '王^小东',
      aiStatus: '',
      aiResult: null,
    });
    expect(await scheduledRow(scheduled.id)).toMatchObject({ status: 'Performed', examId: targetId });
    for (const key of [...oldKeys, 'report-images/key.png']) expect(await t.blobs.size(key)).toBeNull();
    expect(await db().select().from(reportImages).where(eq(reportImages.reportId, targetId))).toEqual([]);
    expect(await db().select().from(reports).where(eq(reports.id, targetId))).toHaveLength(1);
    expect(await audits('exam.bind')).toEqual([expect.objectContaining({ targetId, actorId: admin.accountId })]);
    expect(await audits('exam.bind.replaced')).toEqual([expect.objectContaining({ targetId, outcome: 'success' })]);
  });

  it('ties the exam as match does when the scheduled exam holds none, without a desk role', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    const scheduled = reg.exams[0]!;
    const examId = await unscheduled(desk.org.bucketId);
    const res = await t
      .as(admin.token)
      .post(`exams/${examId}/match/${scheduled.id}`, { confirm: scheduled.accessionNumber });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ examId, status: 'Performed', replacedInstances: 0 });
    expect(await scheduledRow(scheduled.id)).toMatchObject({ status: 'Performed', examId });
    expect(await audits('registry.bind')).toHaveLength(1);
  });
});

describe('refusals change nothing', () => {
  it('a cancelled scheduled exam, another organization’s, an exam without permission', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    const scheduled = reg.exams[0]!;
    const examId = await unscheduled(desk.org.bucketId);
    const before = await examRow(examId);
    const confirm = { confirm: scheduled.accessionNumber };
    // No permission: the reporting doctor holds no desk action, the registrar is no admin.
    const doctor = t.as(desk.doctor.token);
    expect((await doctor.get(`exams/${examId}/schedules`)).statusCode).toBe(403);
    expect((await doctor.post(`exams/${examId}/schedules/${scheduled.id}`)).statusCode).toBe(403);
    expect((await doctor.post(`exams/${examId}/match/${scheduled.id}`, confirm)).statusCode).toBe(403);
    expect((await t.as(desk.registrar.token).post(`exams/${examId}/match/${scheduled.id}`, confirm)).statusCode).toBe(
      403,
    );
    const denied = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'permission.denied'), eq(auditLogs.actorId, desk.doctor.accountId)));
    expect(denied.length).toBeGreaterThanOrEqual(3);
    // Another organization's scheduled exam is not there; another organization's caller sees nothing.
    const elsewhere = (await register(t, other.registrar.token, other.org.bucketId, [{ modality: 'CT' }])).exams[0]!;
    const registrar = t.as(desk.registrar.token);
    expect((await registrar.post(`exams/${examId}/schedules/${elsewhere.id}`)).statusCode).toBe(404);
    expect(
      (await t.as(admin.token).post(`exams/${examId}/match/${elsewhere.id}`, { confirm: elsewhere.accessionNumber }))
        .statusCode,
    ).toBe(404);
    expect((await t.as(other.registrar.token).post(`exams/${examId}/schedules/${elsewhere.id}`)).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).get(`exams/${examId}/schedules`)).statusCode).toBe(404);
    // Cancelled: not a candidate, refused by match and bind.
    expect((await registrar.post(`scheduled-exams/${scheduled.id}/revoke`, { reason: '患者取消' })).statusCode).toBe(
      200,
    );
    expect(
      ((await registrar.get(`exams/${examId}/schedules`)).json() as MatchCandidate[]).map((c) => c.id),
    ).not.toContain(scheduled.id);
    expect((await registrar.post(`exams/${examId}/schedules/${scheduled.id}`)).statusCode).toBe(409);
    expect((await t.as(admin.token).post(`exams/${examId}/match/${scheduled.id}`, confirm)).statusCode).toBe(409);
    // Nothing changed.
    expect(await examRow(examId)).toEqual(before);
    expect(await scheduledRow(scheduled.id)).toMatchObject({ status: 'Cancelled', examId: null });
    expect(await scheduledRow(elsewhere.id)).toMatchObject({ status: 'Scheduled', examId: null });
  });
});

describe('binding keeps reports', () => {
  it('refuses to bind an exam that has a report of its own (binding would delete it)', async () => {
    const scheduled = (await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }])).exams[0]!;
    const held = await unscheduled(desk.org.bucketId);
    expect((await t.as(desk.registrar.token).post(`exams/${held}/schedules/${scheduled.id}`)).statusCode).toBe(200);
    const reported = await unscheduled(desk.org.bucketId);
    await db().update(exams).set({ reportStatus: 'draft' }).where(eq(exams.id, reported));
    const res = await t
      .as(admin.token)
      .post(`exams/${reported}/match/${scheduled.id}`, { confirm: scheduled.accessionNumber });
    expect(res.statusCode).toBe(409);
    expect(await examRow(reported)).toBeDefined();
    expect(await scheduledRow(scheduled.id)).toMatchObject({ examId: held });
  });
});

describe('the group setting enableRegistry', () => {
  it('closes the desk’s matching, not an admin’s binding', async () => {
    const scheduled = (await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }])).exams[0]!;
    const examId = await unscheduled(desk.org.bucketId);
    const [group] = await db().select().from(groups).where(eq(groups.id, desk.org.groupId));
    await db()
      .update(groups)
      .set({ settings: { ...group!.settings, enableRegistry: false } })
      .where(eq(groups.id, desk.org.groupId));
    try {
      const registrar = t.as(desk.registrar.token);
      const listed = await registrar.get(`exams/${examId}/schedules`);
      expect(listed.statusCode).toBe(403);
      expect(listed.json()).toMatchObject({ details: { action: 'enableRegistry' } });
      expect((await registrar.post(`exams/${examId}/schedules/${scheduled.id}`)).statusCode).toBe(403);
      expect(await scheduledRow(scheduled.id)).toMatchObject({ status: 'Scheduled', examId: null });
      expect((await t.as(admin.token).get(`exams/${examId}/schedules`)).statusCode).toBe(200);
    } finally {
      await db().update(groups).set({ settings: group!.settings }).where(eq(groups.id, desk.org.groupId));
    }
  });
});

describe('GET buckets/{id}/bind-code', () => {
  it('tells admins how studies reach the organization to be bound; refused to the desk', async () => {
    await db().update(buckets).set({ code: 'RAD-BIND' }).where(eq(buckets.id, desk.org.bucketId));
    await makeDevice(t, desk.org.bucketId, { aeTitle: 'CT_ROOM9', modality: 'CT' });
    const res = await t.as(admin.token).get(`buckets/${desk.org.bucketId}/bind-code`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      bucketId: desk.org.bucketId,
      code: 'RAD-BIND',
      calledAeTitle: expect.any(String),
      deviceAeTitles: ['CT_ROOM9'],
      uploadPath: null,
    });
    expect((await t.as(desk.registrar.token).get(`buckets/${desk.org.bucketId}/bind-code`)).statusCode).toBe(403);
    expect((await t.as(other.registrar.token).get(`buckets/${desk.org.bucketId}/bind-code`)).statusCode).toBe(404);
  });
});

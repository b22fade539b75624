import {
  EMPTY_REPORT_CONTENT,
  VIEWER_TOKEN_HEADER,
  type ExamDetail,
  type ExamItem,
  type ExamPage,
} from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, exams } from '../../db/schema.js';
import { makePrivacyWorld, PRIVACY_READERS, privacyStudy, type PrivacyWorld } from '../../test/factories-privacy.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * Issue 20 items 1 and 2 (test/factories-privacy.ts): who sees whom (spec 000 §6, the group flag
 * enablePrivacy and view_privacy, by contracts privateFieldsMasked) and the note-taker's reach.
 * The hospital keeps privacy off; the teleradiology group turns it on.
 */
let t: TestApp;
let world: PrivacyWorld;
const tok: Record<string, string> = {};
let rad = '';
let tele = '';
let hospitalExam = '';
let confidentialExam = '';
let teleExam = '';

async function ingest(bucketId: string, patientName: string, patientId: string, accessionNumber: string) {
  const study = privacyStudy(patientName, patientId, { accessionNumber, patientBirthDate: '19680312' });
  return (await t.services.archive.ingest(bucketId, study.instances[0]!.bytes, 'web')).examId;
}

async function listed(who: string, patientId: string): Promise<ExamItem | undefined> {
  const res = await t.as(tok[who]!).post('exams/page-query', {
    filters: [{ field: 'patientId', operator: 'eq', values: [patientId] }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ExamPage).exams[0];
}

async function viewerContext(who: string, examId: string) {
  const path = await t.call('POST', `viewers/${examId}/path`, { token: tok[who]!, body: { reportId: examId } });
  expect(path.statusCode, path.body).toBe(200);
  const res = await t.call('GET', 'viewer/context', {
    headers: { [VIEWER_TOKEN_HEADER]: (path.json() as { openpath: string }).openpath },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { masked: boolean; patientName: string; patientId: string };
}

const audits = (username: string, action: string) =>
  t.db.database.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.actorUsername, username), eq(auditLogs.action, action)));

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const db = t.db.database.db;
  world = await makePrivacyWorld(t, PRIVACY_READERS);
  [rad, tele] = [world.hospital.org.bucketId, world.tele.org.bucketId];
  hospitalExam = await ingest(rad, '张^伟', 'PRV-0001', 'ACC-PRV-0001');
  confidentialExam = await ingest(rad, '李^秘', 'PRV-0002', 'ACC-PRV-0002');
  await db.update(exams).set({ isPrivacy: true }).where(eq(exams.id, confidentialExam));
  teleExam = await ingest(tele, '赵^磊', 'PRV-0003', 'ACC-PRV-0003');
  Object.assign(tok, world.tok);
});
afterAll(async () => {
  await t.close();
});

describe('privacy off (the hospital group): readers see whom they read', () => {
  it('shows the doctor (报告医生) name and ids in the list, the exam, its detail and the viewer', async () => {
    const shown = { patientName: '张^伟', patientId: 'PRV-0001', accessionNumber: 'ACC-PRV-0001', masked: false };
    expect(await listed('doctor', 'PRV-0001')).toMatchObject({ ...shown, patientDob: '19680312' });
    expect((await t.as(tok.doctor!).get(`exams/${hospitalExam}`)).json()).toMatchObject(shown);
    const detail = (await t.as(tok.doctor!).get(`exams/${hospitalExam}/detail`)).json() as ExamDetail;
    expect(detail).toMatchObject(shown);
    expect(await viewerContext('doctor', hospitalExam)).toMatchObject({
      masked: false,
      patientName: '张^伟',
      patientId: 'PRV-0001',
    });
  });

  it('shows them to a reader without view_privacy too (登记员), audited as PHI disclosed', async () => {
    expect(await listed('registrar', 'PRV-0001')).toMatchObject({ patientName: '张^伟', masked: false });
    const rows = await audits(world.hospital.registrar.username, 'exam.list');
    const shown = rows.filter((r) => (r.details as { examIds: string[] }).examIds.includes(hospitalExam));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ outcome: 'success', targetId: hospitalExam, patientId: 'PRV-0001' });
  });

  it('keeps a confidential exam masked without view_privacy, and shows it with view_privacy', async () => {
    expect(await listed('registrar', 'PRV-0002')).toMatchObject({
      isPrivacy: true,
      masked: true,
      patientName: '李*',
      patientDob: '',
    });
    expect((await listed('registrar', 'PRV-0002'))!.patientId).not.toContain('0002');
    expect(await listed('doctor', 'PRV-0002')).toMatchObject({ isPrivacy: true, masked: false, patientName: '李^秘' });
  });
});

describe('editing private fields follows what the caller sees', () => {
  it('lets a technician (exam_update, no view_privacy) correct a name it sees, never one it sees masked', async () => {
    const tech = t.as(tok.tech!);
    const fixed = await tech.post(`exams/${hospitalExam}`, { patientName: '张^伟伟' });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({ patientName: '张^伟伟', masked: false });
    await tech.post(`exams/${hospitalExam}`, { patientName: '张^伟' });
    // The confidential exam shows masked to it: its name cannot be changed, and is not.
    expect((await tech.post(`exams/${confidentialExam}`, { patientName: 'X' })).statusCode).toBe(403);
    const [row] = await t.db.database.db.select().from(exams).where(eq(exams.id, confidentialExam));
    expect(row!.patientName).toBe('李^秘');
  });
});

describe('privacy on (the teleradiology group)', () => {
  it('masks everything for a member without view_privacy (远程阅片医生): list, exam, detail, viewer', async () => {
    expect(await listed('teledoctor', 'PRV-0003')).toMatchObject({ masked: true, patientName: '赵*', patientDob: '' });
    const one = (await t.as(tok.teledoctor!).get(`exams/${teleExam}`)).json() as ExamItem;
    expect(one).toMatchObject({ masked: true, patientName: '赵*' });
    expect(one.patientId).not.toContain('0003');
    expect(one.accessionNumber).not.toContain('0003');
    const detail = (await t.as(tok.teledoctor!).get(`exams/${teleExam}/detail`)).json() as ExamDetail;
    expect(detail).toMatchObject({ masked: true, patientName: '赵*' });
    const viewer = await viewerContext('teledoctor', teleExam);
    expect(viewer).toMatchObject({ masked: true, patientName: '赵*' });
    expect(viewer.patientId).not.toContain('0003');
    // Nothing was disclosed, so nothing is audited as PHI for the list.
    expect(await audits(world.tele.teledoctor.username, 'exam.list')).toEqual([]);
  });

  it('shows them to a member holding view_privacy (审核医生)', async () => {
    expect(await listed('expert', 'PRV-0003')).toMatchObject({ masked: false, patientName: '赵^磊' });
  });

  it('follows the group admin turning the flag on and off again', async () => {
    const groupadmin = t.as(tok.groupadmin!);
    const groupId = world.hospital.org.groupId;
    const on = await groupadmin.post(`groups/${groupId}/update`, { settings: { enablePrivacy: true } });
    expect(on.statusCode, on.body).toBe(200);
    expect(await listed('registrar', 'PRV-0001')).toMatchObject({ masked: true, patientName: '张*' });
    // The reporting doctor holds view_privacy: unchanged.
    expect(await listed('doctor', 'PRV-0001')).toMatchObject({ masked: false });
    const off = await groupadmin.post(`groups/${groupId}/update`, { settings: { enablePrivacy: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect(await listed('registrar', 'PRV-0001')).toMatchObject({ masked: false, patientName: '张^伟' });
  });
});

describe('the note-taker (organization collaborator with report rights only)', () => {
  it('lists the exams of the organization it writes reports for, opens the exam, its images and saves a report', async () => {
    const nt = t.as(tok.notetaker!);
    expect(await listed('notetaker', 'PRV-0001')).toMatchObject({ id: hospitalExam, bucketId: rad });
    // Only organizations where it writes reports: none of the teleradiology group's.
    expect(await listed('notetaker', 'PRV-0003')).toBeUndefined();
    expect((await nt.get(`exams/${hospitalExam}`)).statusCode).toBe(200);
    const detail = await nt.get(`exams/${hospitalExam}/detail`);
    expect(detail.statusCode, detail.body).toBe(200);
    // What it may do to the exam: nothing of the exam category beyond reading.
    expect((detail.json() as ExamDetail).actions).not.toContain('exam_update');
    expect((detail.json() as ExamDetail).actions).not.toContain('exam_delete');
    expect(await viewerContext('notetaker', hospitalExam)).toMatchObject({ masked: false });

    const lock = await nt.post(`reports/${hospitalExam}/lock`);
    expect(lock.statusCode, lock.body).toBe(200);
    const saved = await nt.post(`reports/${hospitalExam}/save`, {
      version: (lock.json() as { version: number }).version,
      content: { ...EMPTY_REPORT_CONTENT, findings: '两肺纹理清晰。', conclusion: '胸部 CT 未见异常。' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const content = (await nt.get(`reports/${hospitalExam}/content`)).json() as {
      content: { findings: string };
    };
    expect(content.content.findings).toBe('两肺纹理清晰。');
  });

  it('cannot delete, export, upload, package, share or change the exam, and nothing changes', async () => {
    const nt = t.as(tok.notetaker!);
    const [before] = await t.db.database.db.select().from(exams).where(eq(exams.id, hospitalExam));
    const refused = [
      await nt.del(`exams/${hospitalExam}/delete`),
      await nt.post(`exams/${hospitalExam}`, { applyDept: '骨科' }),
      await nt.post(`exams/${hospitalExam}`, { patientName: 'X' }),
      await nt.post(`reports/${hospitalExam}/tags`, { tagId: 'x' }),
      await nt.post('exports/exams', { filters: [] }),
      await nt.post(`buckets/${rad}/studies/upload`, {}),
      await nt.get(`exams/${hospitalExam}/study-package`),
      await nt.post(`viewers/${hospitalExam}/share-path`, {}),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual(refused.map(() => 403));
    const [after] = await t.db.database.db.select().from(exams).where(eq(exams.id, hospitalExam));
    expect(after).toMatchObject({
      deletedTime: null,
      applyDept: before!.applyDept,
      patientName: before!.patientName,
    });
  });
});

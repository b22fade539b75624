import type { DiffTrace, ReportState, ReportTraceItem } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLogs, reports, reportTraces } from '../../db/schema.js';
import {
  act,
  as,
  content,
  detail,
  examStatus,
  nameOf,
  newExam,
  nextPatientId,
  ok,
  radiology,
  t,
  signInAgain,
  tok,
  useReportsFixture,
} from './reports.fixture.js';

useReportsFixture();

const auditCount = async (reportId: string) =>
  (await t.db.database.db.select().from(auditLogs).where(eq(auditLogs.targetId, reportId))).length;

describe('report lifecycle', () => {
  it('goes write → submit → reject (reason) → fix → submit → approve → recall (reason) → approve, traced', async () => {
    const id = await newExam();
    let r = await detail('doctor', id);
    expect(r).toMatchObject({ id, status: 'none', version: 0, creator: null, lock: null });
    expect(r.transitions).toEqual(['save', 'submit', 'advise']);

    r = await ok('doctor', id, 'lock');
    expect(r.status).toBe('locked');
    expect(r.lock).toMatchObject({ mine: true, lockedBy: { name: expect.any(String) } });
    expect(await examStatus(id)).toBe('locked');

    r = await ok('doctor', id, 'save', { version: 0, content: content('右肺上叶见结节。', '') });
    expect(r).toMatchObject({ status: 'partial', version: 1, creator: { name: r.creator?.name } });
    expect(r.lock?.mine).toBe(true);
    r = await ok('doctor', id, 'submit', { version: 1, content: content('右肺上叶见结节。', '右肺结节') });
    expect(r).toMatchObject({ status: 'final', version: 2, lock: null });
    expect(r.transitions).toEqual(['cancelSubmit']);
    expect(await examStatus(id)).toBe('final');

    // The approving doctor sees it pending approval.
    expect((await detail('senior', id)).transitions).toEqual(['approve', 'approveAndPrint', 'reject']);
    const missing = await act('senior', id, 'reject', { reason: '  ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'ValidationError', details: { field: 'reason' } });
    // Reject answers only the state fields (spec 000 §4).
    const rejected = await ok<ReportState & { content?: unknown }>('senior', id, 'reject', {
      reason: '结论需写明大小',
    });
    expect(rejected).toMatchObject({ status: 'hold', rejectReason: '结论需写明大小' });
    expect(Object.keys(rejected).sort()).toEqual(
      ['creator', 'id', 'issuer', 'lastUpdater', 'recallReason', 'rejectReason', 'status', 'transitions'].sort(),
    );

    r = await detail('doctor', id);
    expect(r).toMatchObject({ status: 'hold', rejectReason: '结论需写明大小', version: 3 });
    r = await ok('doctor', id, 'submit', { version: 3, content: content('右肺上叶见结节。', '右肺上叶结节，约8mm') });
    expect(r).toMatchObject({ status: 'final', rejectReason: '' });
    r = await ok('senior', id, 'approve', { version: r.version, content: r.content });
    expect(r).toMatchObject({ status: 'corrected', approver: { name: expect.any(String) } });
    expect(r.approvedAt).not.toBeNull();
    expect(r.transitions).toEqual(['recall']);
    expect((await detail('doctor', id)).transitions).toEqual([]);

    expect((await act('senior', id, 'recall', {})).statusCode).toBe(400);
    const recalled = await ok<ReportState>('senior', id, 'recall', { reason: '补充既往史' });
    expect(recalled).toMatchObject({ status: 'cancelled', recallReason: '补充既往史' });
    r = await detail('doctor', id);
    expect((await ok('doctor', id, 'submit', { version: r.version, content: r.content })).status).toBe('final');
    r = await ok('senior', id, 'approve', {});
    expect(r.status).toBe('corrected');
    expect(await examStatus(id)).toBe('corrected');

    const trail = (await as('senior').get(`reports/${id}/report-trace`)).json() as { traces: ReportTraceItem[] };
    expect(trail.traces.map((s) => `${s.action}:${s.statusFrom}>${s.statusTo}`)).toEqual([
      'save:locked>partial',
      'submit:partial>final',
      'reject:final>hold',
      'submit:hold>final',
      'approve:final>corrected',
      'recall:corrected>cancelled',
      'submit:cancelled>final',
      'approve:final>corrected',
    ]);
    expect(trail.traces[2]!.reason).toBe('结论需写明大小');
    expect(new Set(trail.traces.map((s) => s.actor?.name)).size).toBe(2);
  });

  it('refuses what the transitions do not allow, and writes nothing', async () => {
    const id = await newExam();
    // A technician holds no report action.
    const tech = await act('tech', id, 'save', { version: 0, content: content('x', '') });
    expect(tech.statusCode).toBe(403);
    expect(tech.json()).toMatchObject({ code: 'NoPermissionToEdit' });
    // Approving nothing submitted, as the doctor (no report_approval): not editable that way.
    await ok('doctor', id, 'save', { version: 0, content: content('所见', '') });
    const approve = await act('doctor', id, 'approve', {});
    expect(approve.statusCode).toBe(409);
    expect(approve.json()).toMatchObject({ code: 'ReportNotEditable', details: { status: 'partial' } });
    // Only the creator edits: the senior may not save the doctor's draft.
    expect((await act('senior', id, 'save', { version: 1, content: content('改写', '') })).json()).toMatchObject({
      code: 'ReportNotEditable',
    });
    // Submitting without findings or conclusion.
    const empty = await act('doctor', id, 'submit', { version: 1, content: content(' ', '') });
    expect(empty.statusCode).toBe(400);
    // A body part count over 100 and a note over 256 characters are refused by the contract.
    expect(
      (await act('doctor', id, 'save', { version: 1, content: content('a', '', { bodyPartCount: 101 }) })).statusCode,
    ).toBe(400);
    expect(
      (await act('doctor', id, 'save', { version: 1, content: content('a', '', { note: 'n'.repeat(257) }) }))
        .statusCode,
    ).toBe(400);
    const r = await detail('doctor', id);
    expect(r).toMatchObject({ status: 'partial', version: 1, content: { findings: '所见' } });
    const steps = await t.db.database.db.select().from(reportTraces).where(eq(reportTraces.reportId, id));
    expect(steps).toHaveLength(1);
  });

  it('says "Report locked by …" to another user while it is edited, and lets the lock lapse', async () => {
    const id = await newExam();
    await ok('senior', id, 'lock');
    const other = await act('doctor', id, 'lock');
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'ReportLocked', details: { lockedBy: { name: nameOf('senior') } } });
    expect(other.json().message).toBe(`Report locked by ${nameOf('senior')}`);
    expect((await act('doctor', id, 'save', { version: 0, content: content('x', '') })).json()).toMatchObject({
      code: 'ReportLocked',
    });
    const seen = await detail('doctor', id);
    expect(seen).toMatchObject({ status: 'locked', transitions: [], lock: { mine: false } });
    // Key images follow the lock too.
    expect((await as('doctor').post(`reports/${id}/image-order`, { imageIds: ['x'] })).statusCode).toBe(409);

    // Renewed by the editor's heartbeat, it holds; left alone past its lifetime, it lapses.
    t.clock.advance(200_000);
    const sync = await as('senior').post(`reports/${id}/sync`);
    expect(sync.json()).toMatchObject({ status: 'locked', lock: { mine: true } });
    t.clock.advance(200_000);
    expect((await act('doctor', id, 'lock')).statusCode).toBe(409);
    t.clock.advance(301_000);
    for (const u of Object.keys(tok)) tok[u] = await signInAgain(u);
    expect((await detail('doctor', id)).status).toBe('none');
    const taken = await ok('doctor', id, 'lock');
    expect(taken.lock?.mine).toBe(true);

    // Unlock by its holder; force-unlock by an admin.
    expect((await ok('doctor', id, 'unlock')).lock).toBeNull();
    await ok('doctor', id, 'lock');
    expect((await act('doctor', id, 'force-unlock')).statusCode).toBe(403);
    const forced = await ok('groupadmin', id, 'force-unlock');
    expect(forced.lock).toBeNull();
    // Taking, giving back and clearing the lock change nothing in the report: no trace steps.
    const trail = (await as('senior').get(`reports/${id}/report-trace`)).json() as { traces: ReportTraceItem[] };
    expect(trail.traces).toEqual([]);
    expect(await examStatus(id)).toBe('none');
  });

  it('opening a report to read it takes no lock and writes no trace; the first edit locks, leaving frees it', async () => {
    const id = await newExam();
    const before = await auditCount(id);
    // Opening the editor: the report, its content, trail, worklist and the heartbeat.
    expect(await detail('doctor', id)).toMatchObject({ status: 'none', lock: null });
    expect((await as('doctor').get(`reports/${id}/content`)).statusCode).toBe(200);
    expect((await as('doctor').get(`reports/${id}/report-trace`)).statusCode).toBe(200);
    expect((await as('doctor').get(`reports/${id}/worklist`)).statusCode).toBe(200);
    expect((await as('doctor').post(`reports/${id}/sync`)).json()).toMatchObject({ status: 'none', lock: null });
    const row = async () => (await t.db.database.db.select().from(reports).where(eq(reports.id, id)))[0];
    const steps = async () =>
      (await t.db.database.db.select().from(reportTraces).where(eq(reportTraces.reportId, id))).map((s) => s.action);
    expect((await row())?.lockedBy ?? null).toBeNull();
    expect(await steps()).toEqual([]);
    expect(await examStatus(id)).toBe('none');
    // Reading stays audited (PHI access), in the audit log and not in the trail.
    expect(await auditCount(id)).toBeGreaterThan(before);

    // The first edit takes the lock: still no trace step; the list shows it being edited.
    expect((await ok('doctor', id, 'lock')).lock?.mine).toBe(true);
    expect((await row())?.lockedBy).toBeTruthy();
    expect(await examStatus(id)).toBe('locked');
    expect(await steps()).toEqual([]);
    // Someone else opening it reads it, held by the doctor.
    expect(await detail('senior', id)).toMatchObject({ status: 'locked', lock: { mine: false } });
    // The save is a step; leaving gives the lock back without one.
    await ok('doctor', id, 'save', { version: 0, content: content('所见', '') });
    expect((await ok('doctor', id, 'unlock')).lock).toBeNull();
    expect((await row())?.lockedBy ?? null).toBeNull();
    expect(await steps()).toEqual(['save']);
    expect(await examStatus(id)).toBe('partial');

    // Opened, locked and left without typing: the report is as it was, with no step.
    const untouched = await newExam();
    await ok('doctor', untouched, 'lock');
    expect((await ok('doctor', untouched, 'unlock')).status).toBe('none');
    expect(await examStatus(untouched)).toBe('none');
    expect(await t.db.database.db.select().from(reportTraces).where(eq(reportTraces.reportId, untouched))).toHaveLength(
      0,
    );
  });

  it('refuses a save based on an old version and hands the refused text back', async () => {
    const id = await newExam();
    await ok('doctor', id, 'save', { version: 0, content: content('第一版', '') });
    await ok('doctor', id, 'save', { version: 1, content: content('第二版', '') });
    const stale = await act('doctor', id, 'save', { version: 1, content: content('旧标签页里的文字', '') });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'ReportVersionConflict',
      details: {
        currentVersion: 2,
        rejected: { findings: '旧标签页里的文字' },
        current: { findings: '第二版' },
      },
    });
    expect((await act('doctor', id, 'save', { content: content('无版本', '') })).statusCode).toBe(400);
    expect((await detail('doctor', id)).content.findings).toBe('第二版');
  });

  it('diffs two steps of the trail word by word, Chinese by character', async () => {
    const id = await newExam();
    const a = await ok('doctor', id, 'save', { version: 0, content: content('右肺上叶结节。', 'No effusion') });
    await ok('doctor', id, 'save', { version: a.version, content: content('左肺上叶结节。', 'Small effusion') });
    const trail = (await as('doctor').get(`reports/${id}/report-trace`)).json() as { traces: ReportTraceItem[] };
    expect(trail.traces.every((s) => s.changed)).toBe(true);
    const [first, second] = trail.traces;
    const res = await as('doctor').get(`reports/${id}/diff-trace?from=${first!.id}&to=${second!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const diff = res.json() as DiffTrace;
    expect(diff.fields.find((f) => f.field === 'findings')!.parts).toEqual([
      { op: 'delete', text: '右' },
      { op: 'insert', text: '左' },
      { op: 'equal', text: '肺上叶结节。' },
    ]);
    expect(diff.fields.find((f) => f.field === 'conclusion')!.parts).toEqual([
      { op: 'delete', text: 'No' },
      { op: 'insert', text: 'Small' },
      { op: 'equal', text: ' effusion' },
    ]);
    const one = await as('doctor').get(`reports/${id}/traces/${second!.id}`);
    expect(one.json()).toMatchObject({ action: 'save', content: { findings: '左肺上叶结节。' } });
    // The trail needs report_trace: the technician has none.
    expect((await as('tech').get(`reports/${id}/report-trace`)).statusCode).toBe(403);
  });

  it('writes co-written exams in one report, and refuses an exam combined elsewhere', async () => {
    const patient = nextPatientId('RPT-CO');
    const primary = await newExam(radiology, patient);
    const second = await newExam(radiology, patient);
    const third = await newExam(radiology, patient);
    const add = await as('doctor').post(`reports/${primary}/co-exams/add`, { examIds: [second] });
    expect(add.statusCode, add.body).toBe(200);
    expect((await as('doctor').post(`reports/${primary}/co-exams/add`, { examIds: [] })).statusCode).toBe(400);
    const conflict = await as('doctor').post(`reports/${third}/co-exams/add`, { examIds: [second] });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ code: 'CoExamConflict', details: { examIds: [second] } });

    // The report offers the patient's other exams of the day that nobody reported or combined yet.
    const offered = await detail('doctor', primary);
    expect(offered.autoCheckCombineReport).toBe(true);
    expect(offered.combinable.map((c) => c.examId)).toEqual([third]);
    // Opening the co-written exam opens the primary's report; its status shows on both rows.
    const r = await ok('doctor', second, 'save', { version: 0, content: content('合并书写', '') });
    expect(r).toMatchObject({ id: primary, examIds: [primary, second] });
    expect(await examStatus(primary)).toBe('partial');
    expect(await examStatus(second)).toBe('partial');
    expect(await examStatus(third)).toBe('none');
    // A written report or a combined exam is offered to no one.
    expect((await detail('doctor', third)).combinable).toEqual([]);
    expect((await detail('senior', primary)).autoCheckCombineReport).toBe(false);
  });

  it('asks chosen experts for advice; then only they edit, and the writer may withdraw', async () => {
    const id = await newExam();
    const experts = (await as('doctor').get(`reports/${id}/advice-experts`)).json() as { id: string; name: string }[];
    const senior = experts.find((e) => e.name === nameOf('senior'));
    expect(senior).toBeDefined();
    const bad = await act('doctor', id, 'advise', {
      version: 0,
      content: content('请会诊', ''),
      expertIds: ['nobody'],
    });
    expect(bad.statusCode).toBe(400);
    const r = await ok('doctor', id, 'advise', { version: 0, content: content('请会诊', ''), expertIds: [senior!.id] });
    expect(r).toMatchObject({ status: 'advised', adviceExperts: [{ id: senior!.id }], transitions: ['cancelSubmit'] });
    const s = await detail('senior', id);
    expect(s.transitions).toEqual(['save', 'submit', 'approve', 'approveAndPrint']);
    const advised = await ok('senior', id, 'save', {
      version: s.version,
      content: { ...s.content, advice: '建议增强扫描' },
    });
    expect(advised).toMatchObject({ status: 'advised', content: { advice: '建议增强扫描' } });
    const back = await ok<ReportState>('doctor', id, 'cancelSubmit');
    expect(back.status).toBe('partial');
  });

  it('resets a never-submitted draft, and issues a preliminary report', async () => {
    const id = await newExam();
    await ok('doctor', id, 'save', { version: 0, content: content('草稿', '') });
    const reset = await ok('doctor', id, 'reset');
    expect(reset).toMatchObject({ status: 'none', creator: null, content: { findings: '' } });
    const p = await ok('senior', id, 'preliminaryIssue', { version: reset.version, content: content('急诊', '气胸') });
    expect(p).toMatchObject({ status: 'preliminary', issuer: { name: nameOf('senior') } });
    expect((await act('senior', id, 'reset')).statusCode).toBe(409);
  });

  it('answers another group 404 and keeps its data out', async () => {
    const id = await newExam();
    await ok('doctor', id, 'save', { version: 0, content: content('机密所见', '') });
    for (const path of ['detail', 'report-trace', 'worklist']) {
      const res = await as('teleadmin').get(`reports/${id}/${path}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('机密所见');
    }
    expect((await act('teleadmin', id, 'save', { version: 1, content: content('x', '') })).statusCode).toBe(404);
  });

  it('lists the next exams to read, without the one open', async () => {
    const a = await newExam();
    const b = await newExam();
    const res = await as('doctor').get(`reports/${a}/worklist`);
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json() as { items: { examId: string; patientName: string }[] }).items.map((i) => i.examId);
    expect(ids).toContain(b);
    expect(ids).not.toContain(a);
    // The doctor lacks view_privacy: names are masked.
    const item = (res.json() as { items: { examId: string; patientName: string }[] }).items.find((i) => i.examId === b);
    expect(item!.patientName).toBe('张*');
  });
});

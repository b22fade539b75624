import type { ExamDetail, Reporter } from '@yyp/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, assignRules, auditLogs, bucketDictionary, exams } from '../../db/schema.js';
import { openAssignments } from './exams.manage.store.js';
import { bucket, find, fx, id, ingest, login, page, tok, useExamListFixture } from './exams.list.fixture.js';

useExamListFixture();

const db = () => fx.t.db.database.db;
const accountId = async (username: string) =>
  (await db().select({ id: accounts.id }).from(accounts).where(eq(accounts.username, username)))[0]!.id;
const tagOf = async (code: string, name: string) =>
  (
    await db()
      .select({ id: bucketDictionary.id })
      .from(bucketDictionary)
      .where(
        and(
          eq(bucketDictionary.bucketId, bucket[code]!),
          eq(bucketDictionary.kind, 'tags'),
          eq(bucketDictionary.name, name),
        ),
      )
  )[0]?.id;
const auditActions = async (action: string) => db().select().from(auditLogs).where(eq(auditLogs.action, action));

describe('exam detail and edit', () => {
  it('shows every field with view_privacy and audits it; masks them without', async () => {
    await fx.t.services.autoAssign.whenIdle();
    const senior = await fx.t.as(tok.senior!).get(`exams/${id.A}/detail`);
    expect(senior.statusCode, senior.body).toBe(200);
    const d = senior.json() as ExamDetail;
    expect(d).toMatchObject({ id: id.A, patientName: '王^小东', patientId: 'PID-A001', masked: false });
    expect(d.series.map((s) => s.modality).sort()).toEqual(['CT', 'MR']);
    expect(d.actions).toContain('report_assign');
    expect((await auditActions('exam.detail')).some((a) => a.targetId === id.A)).toBe(true);

    const doctor = (await fx.t.as(tok.doctor!).get(`exams/${id.A}/detail`)).json() as ExamDetail;
    expect(doctor).toMatchObject({ patientName: '王*东', masked: true, patientDob: '' });
    expect(doctor.actions).not.toContain('view_privacy');
  });

  it("answers 404 for another organization's exam", async () => {
    expect((await fx.t.as(tok.doctor!).get(`exams/${id.F}/detail`)).statusCode).toBe(404);
    expect((await fx.t.as(tok.doctor!).post(`exams/${id.F}`, { urgentFlag: true })).statusCode).toBe(404);
  });

  it('edits the registration fields, keeping only the identifiers of the patient source', async () => {
    const res = await fx.t.as(tok.senior!).post(`exams/${id.B}`, {
      patientSource: 'I',
      inpatientId: 'ZY-778',
      bedNum: '12',
      outpatientId: 'MZ-1',
      applyDept: '神经内科',
      orderPlacer: '李医生',
      urgentFlag: true,
      weight: 61.5,
      clinicImpression: '头痛三天',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      patientSource: 'I',
      inpatientId: 'ZY-778',
      bedNum: '12',
      outpatientId: '',
      applyDept: '神经内科',
      urgentFlag: true,
      weight: 61.5,
      clinicImpression: '头痛三天',
    });
    // Switching to an outpatient clears the inpatient identifiers.
    const out = (await fx.t.as(tok.senior!).post(`exams/${id.B}`, { patientSource: 'O', outpatientId: 'MZ-9' })).json();
    expect(out).toMatchObject({ inpatientId: '', bedNum: '', outpatientId: 'MZ-9' });
    const audit = await auditActions('exam.update');
    expect(audit.at(-1)?.details).toMatchObject({ fields: expect.arrayContaining(['patientSource', 'outpatientId']) });
    // The list now filters by the new fields.
    expect(await find([{ field: 'patientSource', operator: 'eq', values: ['O'] }])).toEqual(['B']);
    expect(await find([{ field: 'urgentFlag', operator: 'eq', values: ['true'] }])).toEqual(['B']);
    expect(await find([{ field: 'applyDept', operator: 'prefix', values: ['神经'] }])).toEqual(['B']);
  });

  it('refuses bad values and changes nothing', async () => {
    const before = (await fx.t.as(tok.senior!).get(`exams/${id.B}/detail`)).json() as ExamDetail;
    for (const body of [
      { patientGender: 'X' },
      { patientDob: '20261340' },
      { bodyPartCount: 101 },
      { weight: 0 },
      { patientSource: 'Z' },
      { studyDesc: 'x'.repeat(65) },
      { unknownField: 1 },
      { urgentFlag: true, patientName: '' },
    ]) {
      const res = await fx.t.as(tok.senior!).post(`exams/${id.B}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
    const after = (await fx.t.as(tok.senior!).get(`exams/${id.B}/detail`)).json() as ExamDetail;
    expect(after).toEqual({ ...before });
  });

  it('lets only callers with view_privacy change private fields', async () => {
    const res = await fx.t.as(tok.doctor!).post(`exams/${id.B}`, { patientName: 'DOE^JOHN' });
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toEqual({ action: 'view_privacy' });
    const ok = await fx.t.as(tok.doctor!).post(`exams/${id.B}`, { studyDesc: 'MR HEAD' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ studyDesc: 'MR HEAD', patientName: 'D*E' });
  });

  it('keeps the pinyin search true after a rename', async () => {
    const res = await fx.t.as(tok.senior!).post(`exams/${id.C}`, { patientName: '赵^云' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await find([{ field: 'keyword', operator: 'prefix', values: ['zy'] }])).toEqual(['C']);
    await fx.t.as(tok.senior!).post(`exams/${id.C}`, { patientName: 'SMITH^JOHN' });
  });

  it('checks extension values against the organization extension configs', async () => {
    const cfg = await fx.t.as(await login('groupadmin')).post(`buckets/${bucket['RH-RAD']}/extension-configs`, {
      name: 'contrast',
      data: { label: '造影剂', type: 'select', options: ['碘', '钆'], required: false },
    });
    expect(cfg.statusCode, cfg.body).toBe(201);
    const cfgId = cfg.json().id as string;
    const bad = await fx.t.as(tok.senior!).post(`exams/${id.B}`, { extensions: { [cfgId]: '铁' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.extensions).toHaveProperty(cfgId);
    const unknown = await fx.t.as(tok.senior!).post(`exams/${id.B}`, { extensions: { nope: 'x' } });
    expect(unknown.statusCode).toBe(400);
    const good = await fx.t.as(tok.senior!).post(`exams/${id.B}`, { extensions: { [cfgId]: '碘' } });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().extensions).toEqual({ [cfgId]: '碘' });
  });
});

describe('confidential exams', () => {
  // Issue 20 item 1: view_privacy shows a confidential exam in the list as in the detail (it used
  // to stay masked in lists); without it the exam stays masked (exams.privacy.int.test.ts).
  it('show to a caller with view_privacy in the list and in the detail alike', async () => {
    await fx.t.as(tok.senior!).post(`exams/${id.B}`, { isPrivacy: true });
    const listed = (await page('senior', { filters: [{ field: 'patientId', operator: 'eq', values: ['PID-B002'] }] }))
      .exams[0]!;
    expect(listed).toMatchObject({ isPrivacy: true, masked: false, patientName: 'DOE^JANE', patientId: 'PID-B002' });
    const detail = (await fx.t.as(tok.senior!).get(`exams/${id.B}/detail`)).json() as ExamDetail;
    expect(detail).toMatchObject({ patientName: 'DOE^JANE', masked: false });
    await fx.t.as(tok.senior!).post(`exams/${id.B}`, { isPrivacy: false });
  });
});

describe('assignment', () => {
  it('looks up reporters of the asked organizations the caller sees', async () => {
    const res = await fx.t
      .as(tok.senior!)
      .get(`buckets/accounts/report_save?bucketIds=${bucket['RH-RAD']}&bucketIds=${bucket['XH-TELE']}`);
    expect(res.statusCode, res.body).toBe(200);
    const reporters = res.json() as Reporter[];
    const names = reporters.map((r) => r.username).sort();
    expect(names).toEqual(expect.arrayContaining(['doctor', 'senior', 'notetaker']));
    expect(names).not.toContain('tech');
    expect(names).not.toContain('teledoctor');
    expect(reporters.every((r) => r.bucketIds.every((b) => b === bucket['RH-RAD']))).toBe(true);
  });

  it('assigns to a reporter, refuses others, and removes the assignment', async () => {
    const doctorId = await accountId('doctor');
    const res = await fx.t.as(tok.senior!).post(`reports/${id.B}/assign`, { accountId: doctorId });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: id.B, assigneeId: doctorId });
    expect(await find([{ field: 'assigneeId', operator: 'eq', values: [doctorId] }])).toContain('B');
    const row = (await page('senior', { filters: [{ field: 'patientId', operator: 'eq', values: ['PID-B002'] }] }))
      .exams[0]!;
    expect(row.assigneeName).toBeTruthy();

    const tech = await fx.t.as(tok.senior!).post(`reports/${id.B}/assign`, { accountId: await accountId('tech') });
    expect(tech.statusCode).toBe(400);
    const tele = await fx.t
      .as(tok.senior!)
      .post(`reports/${id.B}/assign`, { accountId: await accountId('teledoctor') });
    expect(tele.statusCode).toBe(400);
    // The doctor does not hold report_assign.
    expect((await fx.t.as(tok.doctor!).post(`reports/${id.B}/assign-remove`)).statusCode).toBe(403);

    const removed = await fx.t.as(tok.senior!).post(`reports/${id.B}/assign-remove`);
    expect(removed.json()).toMatchObject({ assigneeId: null, assigneeName: null });
    expect(await find([{ field: 'assigneeId', operator: 'eq', values: ['none'] }])).toContain('B');
    expect((await auditActions('exam.assign')).length).toBeGreaterThan(0);
  });

  it('applies the group assign rules to new exams, never overriding a choice', async () => {
    const doctorId = await accountId('doctor');
    const seniorId = await accountId('senior');
    // The demo rule: CT in 放射科 goes to the doctor.
    const ct = await ingest(bucket['RH-RAD']!, { modality: 'CT', patientName: 'RULE^CT', patientId: 'R-1' });
    const mr = await ingest(bucket['RH-RAD']!, { modality: 'MR', patientName: 'RULE^MR', patientId: 'R-2' });
    await fx.t.services.autoAssign.whenIdle();
    const assignee = async (examId: string) =>
      (await db().select({ a: exams.assigneeId }).from(exams).where(eq(exams.id, examId)))[0]!.a;
    expect(await assignee(ct)).toBe(doctorId);
    expect(await assignee(mr)).toBeNull();
    expect((await auditActions('exam.auto_assign')).some((a) => a.targetId === ct)).toBe(true);

    // A members rule picks the reporter with fewer open exams; a non-reporter member is skipped.
    const groupId = (await fx.t.as(tok.senior!).get(`buckets/${bucket['RH-RAD']}`)).json().groupId as string;
    await db()
      .insert(assignRules)
      .values({
        id: 'rule-mr',
        groupId,
        name: 'MR',
        bucketIds: [],
        doctorId: null,
        modality: 'MR',
        memberIds: [await accountId('tech'), doctorId, seniorId],
        priority: 5,
      });
    const mr2 = await ingest(bucket['RH-RAD']!, { modality: 'MR', patientName: 'RULE^MR2', patientId: 'R-3' });
    await fx.t.services.autoAssign.whenIdle();
    expect(await assignee(mr2)).toBe(seniorId);
    // Already assigned: the rules leave it.
    expect(await fx.t.services.autoAssign.assign(ct)).toBeNull();
    expect(await assignee(ct)).toBe(doctorId);

    // A burst of new exams is assigned as a batch: each goes to the reporter with fewer open exams
    // counting those chosen before it in the batch (a tie to the one listed first), a CT by its own rule.
    const burst: string[] = [];
    for (let n = 0; n < 6; n++) {
      const modality = n === 3 ? 'CT' : 'MR';
      burst.push(await ingest(bucket['RH-RAD']!, { modality, patientName: `RULE^B${n}`, patientId: `R-B${n}` }));
    }
    await fx.t.services.autoAssign.whenIdle();
    await db().update(exams).set({ assigneeId: null, assignedAt: null }).where(inArray(exams.id, burst));
    // One taken by hand in the meantime keeps its assignee.
    await db().update(exams).set({ assigneeId: seniorId }).where(eq(exams.id, burst[5]!));
    const load = await openAssignments(db(), [doctorId, seniorId]);
    const expected = new Map<string, string>();
    for (const [n, examId] of burst.slice(0, 5).entries()) {
      if (n === 3) {
        expected.set(examId, doctorId);
        continue;
      }
      const [d, s] = [load.get(doctorId) ?? 0, load.get(seniorId) ?? 0];
      const who = s < d ? seniorId : doctorId;
      load.set(who, (who === doctorId ? d : s) + 1);
      expected.set(examId, who);
    }
    const chosen = await fx.t.services.autoAssign.assignMany(burst);
    expect(chosen).toEqual(expected);
    for (const [examId, who] of expected) expect(await assignee(examId)).toBe(who);
    expect(await assignee(burst[5]!)).toBe(seniorId);
    expect(new Set(expected.values())).toEqual(new Set([doctorId, seniorId]));
  });
});

describe('tags', () => {
  it("adds and removes the organization's tags; others are refused", async () => {
    const tagId = (await fx.t.as(tok.senior!).get(`buckets/${bucket['RH-RAD']}/tags`)).json()[0].id as string;
    const added = await fx.t.as(tok.senior!).post(`reports/${id.A}/tags`, { tagId });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().map((t: { id: string }) => t.id)).toEqual([tagId]);
    // Twice is once.
    expect((await fx.t.as(tok.senior!).post(`reports/${id.A}/tags`, { tagId })).json()).toHaveLength(1);
    expect(await find([{ field: 'tagId', operator: 'eq', values: [tagId] }])).toEqual(['A']);
    const listed = (await page('senior', { filters: [{ field: 'tagId', operator: 'in', values: [tagId] }] })).exams[0]!;
    expect(listed.tags.map((t) => t.id)).toEqual([tagId]);

    const foreign = await tagOf(
      'RH-US',
      (await fx.t.as(tok.senior!).get(`buckets/${bucket['RH-US']}/tags`)).json()[0].name,
    );
    expect((await fx.t.as(tok.senior!).post(`reports/${id.A}/tags`, { tagId: foreign })).statusCode).toBe(400);

    const removed = await fx.t.as(tok.senior!).del(`reports/${id.A}/tags/${tagId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual([]);
    expect((await fx.t.as(tok.senior!).del(`reports/${id.A}/tags/${tagId}`)).statusCode).toBe(404);
  });
});

describe('co-written exams', () => {
  it('joins exams of the same patient for good and answers the set to each of them', async () => {
    const second = await ingest(bucket['RH-RAD']!, {
      modality: 'DX',
      patientName: '王^小东',
      charset: 'GB18030',
      patientId: 'PID-A001',
    });
    const alone = (await fx.t.as(tok.senior!).get(`exams/${id.A}/co-exams`)).json();
    expect(alone).toMatchObject({ primaryExamId: id.A });
    expect(alone.exams.map((e: { id: string }) => e.id)).toEqual([id.A]);

    const res = await fx.t.as(tok.senior!).post(`reports/${id.A}/co-exams/add`, { examIds: [second] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().exams.map((e: { id: string }) => e.id)).toEqual([id.A, second]);
    const fromSecond = (await fx.t.as(tok.senior!).get(`exams/${second}/co-exams`)).json();
    expect(fromSecond.primaryExamId).toBe(id.A);
    expect(((await fx.t.as(tok.senior!).get(`exams/${second}/detail`)).json() as ExamDetail).coExamIds).toEqual([id.A]);

    // Combined already: a conflict naming it; another patient, the exam itself, nothing: refused.
    const again = await fx.t.as(tok.senior!).post(`reports/${id.C}/co-exams/add`, { examIds: [second] });
    expect(again.statusCode).toBe(400);
    const third = await ingest(bucket['RH-RAD']!, {
      modality: 'US',
      patientName: '王^小东',
      charset: 'GB18030',
      patientId: 'PID-A001',
    });
    const conflict = await fx.t.as(tok.senior!).post(`reports/${third}/co-exams/add`, { examIds: [second] });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ code: 'CoExamConflict', details: { examIds: [second] } });
    expect((await fx.t.as(tok.senior!).post(`reports/${id.A}/co-exams/add`, { examIds: [id.A] })).statusCode).toBe(400);
    expect((await fx.t.as(tok.senior!).post(`reports/${id.A}/co-exams/add`, { examIds: [] })).statusCode).toBe(400);
    expect((await fx.t.as(tok.senior!).post(`reports/${id.A}/co-exams/add`, { examIds: [id.E] })).statusCode).toBe(404);
  });
});

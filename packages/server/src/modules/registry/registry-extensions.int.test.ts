import type { ExamExtensionConfig, ExtensionOrg, ProcedureStep, ScheduledExamExtension } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, bucketDictionary, exams, procedures, scheduledExams } from '../../db/schema.js';
import { makeExam, makeMember, type BuiltMember } from '../../test/factories.js';
import { linkExam, makeDesk, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** Exam extension fields of the desk (issue 22): bucket-extensions, extends/orgs, scheduled exam values, steps. */
let t: TestApp;
let desk: Desk;
let other: Desk;
let admin: BuiltMember;
let otherAdmin: BuiltMember;
const cfg: Record<'note' | 'dose' | 'contrast' | 'due', ExamExtensionConfig> = {} as never;
let reportScopeId: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t);
  admin = await makeMember(t, desk.org.bucketId, { level: 'admin', groupLevel: 1 });
  otherAdmin = await makeMember(t, other.org.bucketId, { level: 'admin', groupLevel: 1 });
  const add = async (body: Record<string, unknown>) => {
    const res = await t.as(admin.token).post('bucket-extensions', { bucketId: desk.org.bucketId, ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ExamExtensionConfig;
  };
  cfg.note = await add({ name: 'history', label: '病史', type: 'text', required: true, sort: 1 });
  cfg.dose = await add({ name: 'dose', label: '剂量', type: 'number', sort: 2 });
  cfg.contrast = await add({ name: 'contrast', label: '造影剂', type: 'select', options: ['碘海醇', '钆'], sort: 3 });
  cfg.due = await add({ name: 'due', type: 'date', sort: 4 });
  // A report-scope field of the same dictionary: not an exam field.
  const report = await t.as(admin.token).post(`buckets/${desk.org.bucketId}/extension-configs`, {
    name: 'report-only',
    data: { label: '报告字段', type: 'text', scope: 'report' },
  });
  expect(report.statusCode, report.body).toBe(201);
  reportScopeId = (report.json() as { id: string }).id;
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.database.db;
const dictionaryRows = async () =>
  (await db().select().from(bucketDictionary).where(eq(bucketDictionary.kind, 'extension-configs'))).length;
const valuesOf = async (id: string) =>
  (await db().select().from(scheduledExams).where(eq(scheduledExams.id, id)))[0]!.extensions;

describe('POST bucket-extensions, GET buckets/{id}/extensions, GET extends/orgs', () => {
  it('creates exam fields in the extension-configs dictionary and lists them (never the report ones)', async () => {
    expect(cfg.contrast).toMatchObject({
      bucketId: desk.org.bucketId,
      name: 'contrast',
      label: '造影剂',
      type: 'select',
      options: ['碘海醇', '钆'],
      required: false,
    });
    expect(cfg.due.label).toBe('due');
    const list = await t.as(desk.registrar.token).get(`buckets/${desk.org.bucketId}/extensions`);
    expect(list.statusCode).toBe(200);
    expect((list.json() as ExamExtensionConfig[]).map((c) => c.name)).toEqual(['history', 'dose', 'contrast', 'due']);
    // The organization's dictionary holds them, scope exam.
    const dictionary = (await t.as(admin.token).get(`buckets/${desk.org.bucketId}/extension-configs`)).json() as {
      id: string;
      data: Record<string, unknown>;
    }[];
    expect(dictionary.find((d) => d.id === cfg.dose.id)!.data).toMatchObject({ type: 'number', scope: 'exam' });
  });

  it('changes one by id', async () => {
    const res = await t.as(admin.token).post('bucket-extensions', {
      bucketId: desk.org.bucketId,
      id: cfg.dose.id,
      name: 'dose',
      label: '剂量 (mGy)',
      type: 'number',
      sort: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: cfg.dose.id, label: '剂量 (mGy)' });
  });

  it('refuses bad fields 400, a taken name 409, a report field 404, non-admins 403, other groups 404; nothing written', async () => {
    const before = await dictionaryRows();
    const body = (extra: Record<string, unknown>) => ({
      bucketId: desk.org.bucketId,
      name: 'new',
      type: 'text',
      ...extra,
    });
    const cases: [string, Record<string, unknown>, number][] = [
      [admin.token, body({ type: 'select' }), 400],
      [admin.token, body({ options: ['a'] }), 400],
      [admin.token, body({ type: 'select', options: ['a', 'a'] }), 400],
      [admin.token, body({ type: 'color' }), 400],
      [admin.token, body({ name: '' }), 400],
      [admin.token, body({ name: 'x'.repeat(65) }), 400],
      [admin.token, body({ type: 'select', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }), 400],
      [admin.token, body({ name: 'history' }), 409],
      [admin.token, body({ id: reportScopeId }), 404],
      [admin.token, body({ id: 'no-such-field' }), 404],
      [desk.registrar.token, body({}), 403],
      [otherAdmin.token, body({}), 404],
    ];
    for (const [token, b, status] of cases) {
      const res = await t.as(token).post('bucket-extensions', b);
      expect([JSON.stringify(b), res.statusCode]).toEqual([JSON.stringify(b), status]);
    }
    expect(await dictionaryRows()).toBe(before);
    expect((await t.as(otherAdmin.token).get(`buckets/${desk.org.bucketId}/extensions`)).statusCode).toBe(404);
  });

  it('answers the organizations the caller sees that have exam fields, with them', async () => {
    const mine = (await t.as(desk.registrar.token).get('extends/orgs')).json() as ExtensionOrg[];
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ bucketId: desk.org.bucketId, bucketName: '放射科', groupId: desk.org.groupId });
    expect(mine[0]!.configs.map((c) => c.name)).toEqual(['history', 'dose', 'contrast', 'due']);
    // The other group's staff see none of them; their organization has no fields.
    expect((await t.as(other.registrar.token).get('extends/orgs')).json()).toEqual([]);
  });
});

describe('scheduled exam extension values', () => {
  const upsert = (token: string, id: string, configId: string, value: unknown) =>
    t.as(token).post(`scheduled-exams/${id}/upsert-extension`, { configId, value });

  it('reads the values with the fields, sets each type, clears and deletes; audited', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    const id = reg.exams[0]!.id;
    const empty = (
      await t.as(desk.tech.token).get(`scheduled-exams/${id}/exam-extension`)
    ).json() as ScheduledExamExtension;
    expect(empty).toMatchObject({ scheduledExamId: id, values: {} });
    expect(empty.configs.map((c) => c.id)).toEqual([cfg.note.id, cfg.dose.id, cfg.contrast.id, cfg.due.id]);
    for (const [configId, value] of [
      [cfg.note.id, '  高血压  '],
      [cfg.dose.id, 12.5],
      [cfg.contrast.id, '钆'],
      [cfg.due.id, '2026-12-01'],
    ] as const) {
      const res = await upsert(desk.registrar.token, id, configId, value);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await valuesOf(id)).toEqual({
      [cfg.note.id]: '高血压',
      [cfg.dose.id]: 12.5,
      [cfg.contrast.id]: '钆',
      [cfg.due.id]: '2026-12-01',
    });
    // '' clears an optional value; DELETE removes one.
    expect((await upsert(desk.registrar.token, id, cfg.due.id, '')).json().values).not.toHaveProperty(cfg.due.id);
    const removed = await t.as(desk.registrar.token).del(`scheduled-exams/${id}/extensions/${cfg.dose.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((removed.json() as ScheduledExamExtension).values).toEqual({
      [cfg.note.id]: '高血压',
      [cfg.contrast.id]: '钆',
    });
    const audits = await db().select().from(auditLogs).where(eq(auditLogs.action, 'registry.extension'));
    expect(audits.filter((a) => a.targetId === id)).toHaveLength(6);
  });

  it('refuses values that do not fit (400), wrong callers (403/404) and finished exams (409); nothing changes', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }, { modality: 'MR' }]);
    const [a, b] = [reg.exams[0]!.id, reg.exams[1]!.id];
    await upsert(desk.registrar.token, a, cfg.note.id, '糖尿病');
    const cases: [string, string, string, unknown, number][] = [
      [desk.registrar.token, a, cfg.dose.id, 'abc', 400],
      [desk.registrar.token, a, cfg.dose.id, '12', 400],
      [desk.registrar.token, a, cfg.contrast.id, '泛影葡胺', 400],
      [desk.registrar.token, a, cfg.due.id, '2026-02-30', 400],
      [desk.registrar.token, a, cfg.due.id, '20261201', 400],
      [desk.registrar.token, a, cfg.note.id, 5, 400],
      [desk.registrar.token, a, cfg.note.id, 'x'.repeat(257), 400],
      [desk.registrar.token, a, cfg.note.id, '', 400],
      [desk.registrar.token, a, cfg.note.id, null, 400],
      [desk.registrar.token, a, reportScopeId, 'x', 400],
      [desk.registrar.token, a, 'no-such-field', 'x', 400],
      [desk.tech.token, a, cfg.dose.id, 1, 403],
      [desk.doctor.token, a, cfg.dose.id, 1, 403],
      [other.registrar.token, a, cfg.dose.id, 1, 404],
      [desk.registrar.token, 'no-such-exam', cfg.dose.id, 1, 404],
    ];
    for (const [token, id, configId, value, status] of cases) {
      const res = await upsert(token, id, configId, value);
      expect([configId, value, res.statusCode]).toEqual([configId, value, status]);
    }
    // A required value is not deleted; one never set is not found.
    expect((await t.as(desk.registrar.token).del(`scheduled-exams/${a}/extensions/${cfg.note.id}`)).statusCode).toBe(
      400,
    );
    expect((await t.as(desk.registrar.token).del(`scheduled-exams/${a}/extensions/${cfg.dose.id}`)).statusCode).toBe(
      404,
    );
    expect((await t.as(other.registrar.token).get(`scheduled-exams/${a}/exam-extension`)).statusCode).toBe(404);
    expect((await t.as(desk.doctor.token).get(`scheduled-exams/${a}/exam-extension`)).statusCode).toBe(403);
    expect(await valuesOf(a)).toEqual({ [cfg.note.id]: '糖尿病' });
    // Cancelled: the machine refuses an edit; once it has its exam the exam's fields are the record.
    expect(
      (await t.as(desk.registrar.token).post(`scheduled-exams/${b}/revoke`, { reason: '患者取消' })).statusCode,
    ).toBe(200);
    expect((await upsert(desk.registrar.token, b, cfg.dose.id, 1)).statusCode).toBe(409);
    const stored = await makeExam(t, desk.org.bucketId);
    await t.services.registryDicom.whenIdle();
    await linkExam(t, a, stored.examId);
    expect((await upsert(desk.registrar.token, a, cfg.dose.id, 1)).statusCode).toBe(409);
    expect(await valuesOf(a)).toEqual({ [cfg.note.id]: '糖尿病' });
    expect(await valuesOf(b)).toEqual({});
  });

  it("go onto the exam's extensions when its study is stored (Performed)", async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    const scheduled = reg.exams[0]!;
    await upsert(desk.registrar.token, scheduled.id, cfg.note.id, '术后复查');
    await upsert(desk.registrar.token, scheduled.id, cfg.contrast.id, '碘海醇');
    const { examId } = await makeExam(t, desk.org.bucketId, { accessionNumber: scheduled.accessionNumber });
    await t.services.registryDicom.whenIdle();
    const [row] = await db().select().from(scheduledExams).where(eq(scheduledExams.id, scheduled.id));
    expect(row).toMatchObject({ status: 'Performed', examId });
    const [exam] = await db().select().from(exams).where(eq(exams.id, examId));
    expect(exam!.extensions).toEqual({ [cfg.note.id]: '术后复查', [cfg.contrast.id]: '碘海醇' });
    const detail = await t.as(desk.doctor.token).get(`exams/${examId}/detail`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().extensions).toEqual({ [cfg.note.id]: '术后复查', [cfg.contrast.id]: '碘海醇' });
  });
});

describe('GET buckets/{id}/steps', () => {
  it("answers the organization's procedure steps flattened in the procedures' order; other groups 404", async () => {
    const head = await makeProcedure(t, desk.org.bucketId, { modality: 'CT', name: '头颅CT', code: 'CT-HEAD' });
    const chest = await makeProcedure(t, desk.org.bucketId, { modality: 'DX', name: '胸片', code: 'DX-CHEST' });
    await db()
      .update(procedures)
      .set({ steps: ['定位像', '平扫'], sort: 1 })
      .where(eq(procedures.id, head));
    await db()
      .update(procedures)
      .set({ steps: ['正位'], sort: 2 })
      .where(eq(procedures.id, chest));
    const res = await t.as(desk.registrar.token).get(`buckets/${desk.org.bucketId}/steps`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as ProcedureStep[]).map((s) => [s.procedureCode, s.index, s.name, s.modality])).toEqual([
      ['CT-HEAD', 0, '定位像', 'CT'],
      ['CT-HEAD', 1, '平扫', 'CT'],
      ['DX-CHEST', 0, '正位', 'DX'],
    ]);
    expect((await t.as(other.registrar.token).get(`buckets/${desk.org.bucketId}/steps`)).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).get(`buckets/${other.org.bucketId}/steps`)).json()).toEqual([]);
  });
});

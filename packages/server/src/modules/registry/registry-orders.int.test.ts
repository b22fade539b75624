import type { RegistryPage, ServiceOrderResult } from '@yyp/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, registrations, scheduledExams } from '../../db/schema.js';
import { dayFromNow, makeCtDesks, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { sheetOf } from '../../test/sheets.js';

/** The desk's schedule export and external orders (issue 22: exports/schedules, service-order). */
let t: TestApp;
let desk: Desk;
let other: Desk;
let ct: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ desk, other, ct } = await makeCtDesks(t));
});
afterAll(async () => {
  await t.close();
});

const db = () => t.db.database.db;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const audits = async (action: string) => db().select().from(auditLogs).where(eq(auditLogs.action, action));
const registrationCount = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(registrations)
  )[0]!.n;

const order = (orderId: string, extra: Record<string, unknown> = {}) => ({
  bucketId: desk.org.bucketId,
  orderId,
  patient: { name: '赵^六', gender: 'F', birthDate: '19700102', patientId: `HIS-${orderId}` },
  patientSource: 'I',
  inpatientId: 'ZY-9',
  bedNum: '12',
  applyDept: '内科',
  orderPlacer: '钱医生',
  exams: [{ procedureId: ct }, { modality: 'MR', bodyPart: '头部' }],
  ...extra,
});

describe('POST service-order', () => {
  it('makes a registration from outside: source external, exams Registered with no appointment', async () => {
    const res = await t.as(desk.registrar.token).post('service-order', order('HIS-1001'));
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as ServiceOrderResult;
    expect(answer).toMatchObject({ created: true, orderId: 'HIS-1001' });
    expect(answer.registration).toMatchObject({
      source: 'external',
      patientSource: 'I',
      inpatientId: 'ZY-9',
      bedNum: '12',
      applyDept: '内科',
      patient: { name: '赵^六', patientId: 'HIS-HIS-1001' },
    });
    const exams = [...answer.registration.exams].sort((a, b) => a.modality.localeCompare(b.modality));
    expect(exams.map((e) => [e.status, e.modality, e.scheduledDate, e.procedureName])).toEqual([
      ['Registered', 'CT', '', '胸部CT平扫'],
      ['Registered', 'MR', '', ''],
    ]);
    expect(exams[0]!.accessionNumber).toMatch(/^\d{12}$/);
    // The desk finds it among the external orders, not among its own.
    const page = (
      await t.as(desk.registrar.token).post(`buckets/${desk.org.bucketId}/registry/query`, { source: 'external' })
    ).json() as RegistryPage;
    expect(page.items.map((i) => i.registrationId)).toContain(answer.registration.id);
    const audit = (await audits('registry.service_order')).at(-1)!;
    expect(audit).toMatchObject({ bucketId: desk.org.bucketId, patientId: 'HIS-HIS-1001' });
    expect(audit.details).toMatchObject({ orderId: 'HIS-1001' });
  });

  it('is idempotent on its orderId: the same order again answers the first registration, twice at once too', async () => {
    const first = (
      await t.as(desk.registrar.token).post('service-order', order('HIS-2002'))
    ).json() as ServiceOrderResult;
    const before = await registrationCount();
    const again = await t.as(desk.registrar.token).post('service-order', order('HIS-2002', { applyDept: '外科' }));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      created: false,
      registration: { id: first.registration.id, applyDept: '内科' },
    });
    const racing = await Promise.all(
      [1, 2, 3].map(() => t.as(desk.registrar.token).post('service-order', order('HIS-3003'))),
    );
    const answers = racing.map((r) => r.json() as ServiceOrderResult);
    expect(new Set(answers.map((a) => a.registration.id)).size).toBe(1);
    expect(answers.filter((a) => a.created)).toHaveLength(1);
    expect(await registrationCount()).toBe(before + 1);
    // The same order id at another organization is another order.
    const elsewhere = await t
      .as(other.registrar.token)
      .post('service-order', order('HIS-2002', { bucketId: other.org.bucketId, exams: [{ modality: 'CT' }] }));
    expect(elsewhere.json()).toMatchObject({ created: true });

    // GET registry/findbyorderid finds each desk its own order under the placing system's id.
    const mine = await t.as(desk.registrar.token).get('registry/findbyorderid?orderId=HIS-2002');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ id: first.registration.id, orderId: 'HIS-2002', source: 'external' });
    const theirs = await t.as(other.registrar.token).get('registry/findbyorderid?orderId=HIS-2002');
    expect(theirs.json()).toMatchObject({ id: (elsewhere.json() as ServiceOrderResult).registration.id });
    expect((await t.as(desk.doctor.token).get('registry/findbyorderid?orderId=HIS-2002')).statusCode).toBe(404);
  });

  it('then the desk schedules it (PUT registry): Registered → Scheduled', async () => {
    const made = (
      await t.as(desk.registrar.token).post('service-order', order('HIS-4004'))
    ).json() as ServiceOrderResult;
    const r = made.registration;
    const res = await t.as(desk.registrar.token).put('registry', {
      id: r.id,
      version: r.version,
      patient: { id: r.patient.id, name: r.patient.name, gender: r.patient.gender, patientId: r.patient.patientId },
      patientSource: 'I',
      exams: r.exams.map((e) => ({
        id: e.id,
        procedureId: e.procedureId,
        modality: e.modality,
        scheduledDate: dayFromNow(t, 2),
      })),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().exams.map((e: { status: string }) => e.status)).toEqual(['Scheduled', 'Scheduled']);
  });

  it('refuses bad orders with 400, callers without registry_create with 403, other groups with 404; nothing made', async () => {
    const before = await registrationCount();
    const cases: [string, Record<string, unknown>, number][] = [
      [desk.registrar.token, order(''), 400],
      [desk.registrar.token, order('X'.repeat(65)), 400],
      [desk.registrar.token, order('B1', { exams: [] }), 400],
      [desk.registrar.token, order('B2', { exams: Array.from({ length: 6 }, () => ({ modality: 'CT' })) }), 400],
      [desk.registrar.token, order('B3', { exams: [{ bodyPart: '头部' }] }), 400],
      [desk.registrar.token, order('B4', { exams: [{ procedureId: 'no-such-procedure' }] }), 400],
      [desk.registrar.token, order('B5', { scheduledDate: dayFromNow(t, 1) }), 400],
      [desk.tech.token, order('B6'), 403],
      [desk.doctor.token, order('B7'), 403],
      [other.registrar.token, order('B8'), 404],
    ];
    for (const [token, body, status] of cases) {
      const res = await t.as(token).post('service-order', body);
      expect([body.orderId, res.statusCode]).toEqual([body.orderId, status]);
    }
    // Another organization's procedure is not one of this organization's.
    const theirs = await makeProcedure(t, other.org.bucketId, { modality: 'CT' });
    expect(
      (await t.as(desk.registrar.token).post('service-order', order('B9', { exams: [{ procedureId: theirs }] })))
        .statusCode,
    ).toBe(400);
    expect(await registrationCount()).toBe(before);
  });
});

describe('POST exports/schedules', () => {
  const exportAs = (token: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/yyp/api/v1/exports/schedules',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ bucketId: desk.org.bucketId, ...body }),
    });

  it("exports the organization's scheduled exams the query's filters pick, headers in the caller's language", async () => {
    const reg = await register(
      t,
      desk.registrar.token,
      desk.org.bucketId,
      [
        { procedureId: ct, scheduledTime: '08:15' },
        { modality: 'DX', scheduledDate: dayFromNow(t, 3) },
      ],
      { patient: { name: '孙^七', gender: 'M', birthDate: '19900101', patientId: 'EXP-1' }, urgent: true },
    );
    await register(t, other.registrar.token, other.org.bucketId, [{ modality: 'CT' }], {
      patient: { name: '别家^病人', gender: 'M', patientId: 'OTHER-1' },
    });
    const res = await exportAs(desk.registrar.token, {
      q: 'EXP-1',
      sort: { field: 'scheduledDate', direction: 'asc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="schedules-\d{8}\.xlsx"/);
    expect(res.headers['x-export-count']).toBe('2');
    const rows = await sheetOf(res.rawPayload);
    expect(rows[0]!.slice(0, 5)).toEqual(['检查号', '状态', '姓名', '患者编号', '性别']);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[4], r[8], r[11], r[15]])).toEqual([
      [reg.exams[0]!.accessionNumber, '已预约', '孙七', 'EXP-1', '男', '胸部CT平扫', `${dayFromNow(t, 1)} 08:15`, '是'],
      [reg.exams[1]!.accessionNumber, '已预约', '孙七', 'EXP-1', '男', '', dayFromNow(t, 3), '是'],
    ]);
    const en = await sheetOf(
      (await exportAs(desk.registrar.token, { q: 'EXP-1', language: 'en', modality: 'DX' })).rawPayload,
    );
    expect(en).toHaveLength(2);
    expect(en[0]!.slice(0, 3)).toEqual(['Accession number', 'Status', 'Patient name']);
    expect([en[1]![1], en[1]![3], en[1]![4]]).toEqual(['Scheduled', 'EXP-1', 'Male']);
    const tib = await sheetOf((await exportAs(desk.registrar.token, { q: 'EXP-1', language: 'tib' })).rawPayload);
    expect(tib[0]![0]).toBe('ཞིབ་བཤེར་ཨང་།');
    // Another organization's patients never come, whatever the filter.
    const theirs = await sheetOf((await exportAs(desk.registrar.token, { q: 'OTHER-1', source: 'all' })).rawPayload);
    expect(theirs).toHaveLength(1);
    const audit = (await audits('registry.export')).at(-1)!;
    expect(audit).toMatchObject({
      bucketId: desk.org.bucketId,
      actorUsername: desk.registrar.username,
    });
  });

  it('refuses callers without a desk action (403), other groups (404) and bad filters (400), unaudited', async () => {
    const before = (await audits('registry.export')).length;
    expect((await exportAs(desk.doctor.token, {})).statusCode).toBe(403);
    expect((await exportAs(other.registrar.token, {})).statusCode).toBe(404);
    expect((await exportAs(desk.registrar.token, { statuses: ['Lost'] })).statusCode).toBe(400);
    expect((await exportAs(desk.registrar.token, { from: '2026-02-30' })).statusCode).toBe(400);
    expect((await exportAs(desk.registrar.token, { limit: 5 })).statusCode).toBe(400);
    expect((await exportAs(desk.registrar.token, { language: 'fr' })).statusCode).toBe(400);
    expect((await audits('registry.export')).length).toBe(before);
  });

  it('refuses more than 3,000 scheduled exams with the count and builds nothing; a narrower filter exports', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'US' }], {
      patient: { name: '批量^病人', gender: 'F', patientId: 'BULK-ORIGIN' },
    });
    await db().execute(sql`
      insert into scheduled_exams (id, registration_id, bucket_id, status, modality, scheduled_date, accession_number,
        study_instance_uid, requested_procedure_id, sps_id)
      select 'bulk-' || g, registration_id, bucket_id, case when g < 3000 then 'Scheduled' else 'Registered' end, 'US', scheduled_date, 'BULK' || g,
        '2.25.' || g, 'BULK' || g, 'SBULK' || g
      from scheduled_exams, generate_series(1, 3000) g where id = ${reg.exams[0]!.id}`);
    const before = (await audits('registry.export')).length;
    const res = await exportAs(desk.registrar.token, { q: 'BULK-ORIGIN' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ExportLimitExceeded', details: { count: 3001, limit: 3000 } });
    expect((await audits('registry.export')).length).toBe(before);
    // The original and 2,999 copies are Scheduled: 3,000, the most an export holds.
    const narrowed = await exportAs(desk.registrar.token, { statuses: ['Scheduled'], q: 'BULK-ORIGIN' });
    expect(narrowed.statusCode).toBe(200);
    expect(await sheetOf(narrowed.rawPayload)).toHaveLength(3001);
    await db()
      .delete(scheduledExams)
      .where(sql`${scheduledExams.id} like 'bulk-%'`);
  });
});

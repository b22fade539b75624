import type { Registration, RegistryPage, ScheduledExam } from '@yyp/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, exams, registrations, scheduledExams } from '../../db/schema.js';
import { makeExam, makeMember } from '../../test/factories.js';
import {
  dayFromNow,
  linkExam,
  makeDesk,
  makeDevice,
  makeProcedure,
  register,
  type Desk,
} from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** The front desk (issue 22): registration, the desk list, arrival and the status machine, patients. */
let t: TestApp;
let desk: Desk;
let other: Desk;
let ct: string;
let xray: string;
let device: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t);
  ct = await makeProcedure(t, desk.org.bucketId, { modality: 'CT', name: '胸部CT平扫', code: 'CT001' });
  xray = await makeProcedure(t, desk.org.bucketId, {
    modality: 'DX',
    name: '胸片',
    code: 'DX001',
    imagingOptional: true,
  });
  device = await makeDevice(t, desk.org.bucketId, { aeTitle: 'CT_ROOM1', modality: 'CT', name: 'CT 1 号机' });
});
afterAll(async () => {
  await t.close();
});

const query = async (token: string, body: unknown = {}, bucketId = desk.org.bucketId) => {
  const res = await t.as(token).post(`buckets/${bucketId}/registry/query`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RegistryPage;
};
const count = async () => (await query(desk.registrar.token, { source: 'all' })).count;
const status = (token: string, id: string, action: string, reason?: string) =>
  t.as(token).post('registry/exam/status', { id, action, ...(reason ? { reason } : {}) });

describe('POST registry', () => {
  it('registers an outpatient for two procedures: Scheduled, with accession numbers, UIDs and a pass code', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [
      { procedureId: ct, deviceId: device, scheduledTime: '09:30' },
      { modality: 'MR', bodyPart: '头部' },
    ]);
    expect(reg.patient).toMatchObject({ name: '王^小东', gender: 'M', birthDate: '19810615' });
    expect(reg.patient.patientId).toMatch(/^P\d{12}$/);
    expect(reg.passCode).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
    expect(reg).toMatchObject({
      source: 'internal',
      patientSource: 'O',
      outpatientId: 'MZ-1',
      inpatientId: '',
      version: 0,
    });
    expect(reg.exams).toHaveLength(2);
    const [a, b] = reg.exams as [ScheduledExam, ScheduledExam];
    expect(a).toMatchObject({
      status: 'Scheduled',
      procedureName: '胸部CT平扫',
      procedureCode: 'CT001',
      modality: 'CT',
      deviceName: 'CT 1 号机',
      stationAeTitle: 'CT_ROOM1',
      scheduledDate: dayFromNow(t, 1),
      scheduledTime: '09:30',
      studyDesc: '胸部CT平扫',
    });
    expect(b).toMatchObject({ status: 'Scheduled', modality: 'MR', procedureId: null, bodyPart: '头部' });
    for (const e of reg.exams) {
      expect(e.accessionNumber).toMatch(/^\d{12}$/);
      expect(e.studyInstanceUid).toMatch(/^2\.25\.\d{10,39}$/);
    }
    expect(a.accessionNumber).not.toBe(b.accessionNumber);
    const audit = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'registry.create'), eq(auditLogs.targetId, reg.id)));
    expect(audit[0]).toMatchObject({
      patientId: reg.patient.patientId,
      bucketId: desk.org.bucketId,
      outcome: 'success',
    });
  });

  it('refuses what spec 000 §5 refuses, with a 400 and nothing written', async () => {
    const before = await count();
    const bad = [
      { exams: [] },
      { exams: Array(6).fill({ modality: 'CT', scheduledDate: dayFromNow(t, 1) }) },
      { exams: [{ scheduledDate: dayFromNow(t, 1) }] },
      { exams: [{ modality: 'CT', scheduledDate: dayFromNow(t, -1) }] },
      { exams: [{ modality: 'CT' }] },
      { exams: [{ modality: 'CT', scheduledDate: '2026-02-30' }] },
      { exams: [{ procedureId: 'no-such', scheduledDate: dayFromNow(t, 1) }] },
      { exams: [{ modality: 'CT', deviceId: 'no-such', scheduledDate: dayFromNow(t, 1) }] },
      { patient: { name: '', gender: 'M' } },
      { patient: { name: 'A', gender: 'X' } },
      { patient: { name: 'A', gender: 'MS' } },
      { patient: { name: 'A', gender: 'M', animal: { species: '犬', breed: '', owner: '', diseaseHistory: '' } } },
      { patient: { name: 'A', gender: 'M', birthDate: '19991399' } },
      { note: 'x'.repeat(257) },
      { unknownField: 1 },
    ];
    for (const change of bad) {
      const res = await t.as(desk.registrar.token).post('registry', {
        bucketId: desk.org.bucketId,
        patient: { name: '李^四', gender: 'F' },
        exams: [{ modality: 'CT', scheduledDate: dayFromNow(t, 1) }],
        ...change,
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
    // Another organization's device is not this one's.
    const foreign = await makeDevice(t, other.org.bucketId, { aeTitle: 'OTHER_CT' });
    const res = await t.as(desk.registrar.token).post('registry', {
      bucketId: desk.org.bucketId,
      patient: { name: '李^四', gender: 'F' },
      exams: [{ modality: 'CT', deviceId: foreign, scheduledDate: dayFromNow(t, 1) }],
    });
    expect(res.statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it('takes today, and registers a walk-in as arrived at once', async () => {
    const reg = await register(
      t,
      desk.registrar.token,
      desk.org.bucketId,
      [{ modality: 'CT', scheduledDate: dayFromNow(t) }],
      {
        arrive: true,
      },
    );
    expect(reg.exams[0]).toMatchObject({ status: 'Arrived', arriverName: desk.registrar.name });
    expect(reg.exams[0]!.arrivedAt).toBe(t.clock.now().toISOString());
  });

  it('is for the organization’s desk: 403 without registry_create, 404 elsewhere', async () => {
    const body = {
      bucketId: desk.org.bucketId,
      patient: { name: 'A', gender: 'M' },
      exams: [{ modality: 'CT', scheduledDate: dayFromNow(t, 1) }],
    };
    expect((await t.as(desk.tech.token).post('registry', body)).statusCode).toBe(403);
    expect((await t.as(desk.doctor.token).post('registry', body)).statusCode).toBe(403);
    expect((await t.as(other.registrar.token).post('registry', body)).statusCode).toBe(404);
    // A walk-in's arrival needs registry_arrive too.
    const creator = await makeMember(t, desk.org.bucketId, { actions: ['registry_create'] });
    expect((await t.as(creator.token).post('registry', { ...body, arrive: true })).statusCode).toBe(403);
    expect((await t.as(creator.token).post('registry', body)).statusCode).toBe(201);
  });
});

describe('the desk list', () => {
  it('pages newest first by 10, filters by status, search, dates, modality and source', async () => {
    const list = await query(desk.registrar.token);
    expect(list.count).toBeGreaterThanOrEqual(3);
    expect(list.items.length).toBeLessThanOrEqual(10);
    const created = list.items.map((i) => i.created);
    expect([...created].sort().reverse()).toEqual(created);
    expect(list.items[0]!.patient.name).toBeTruthy();

    const byName = await query(desk.registrar.token, { q: 'wxd' });
    expect(byName.items.every((i) => i.patient.name === '王^小东')).toBe(true);
    expect(byName.count).toBeGreaterThan(0);
    const acc = byName.items[0]!.accessionNumber;
    expect((await query(desk.registrar.token, { q: acc })).items.map((i) => i.accessionNumber)).toEqual([acc]);
    const pass = byName.items[0]!.passCode;
    expect((await query(desk.registrar.token, { q: pass.toLowerCase() })).items.every((i) => i.passCode === pass)).toBe(
      true,
    );

    const arrived = await query(desk.registrar.token, { statuses: ['Arrived'] });
    expect(arrived.items.every((i) => i.status === 'Arrived')).toBe(true);
    expect(arrived.count).toBeGreaterThan(0);
    const mr = await query(desk.registrar.token, { modality: 'MR' });
    expect(mr.items.every((i) => i.modality === 'MR')).toBe(true);
    const tomorrow = dayFromNow(t, 1);
    const range = await query(desk.registrar.token, { from: tomorrow, to: tomorrow });
    expect(range.items.every((i) => i.scheduledDate === tomorrow)).toBe(true);
    expect((await query(desk.registrar.token, { from: dayFromNow(t, 30) })).count).toBe(0);
    expect((await query(desk.registrar.token, { source: 'external' })).count).toBe(0);
    const sorted = await query(desk.registrar.token, {
      sort: { field: 'accessionNumber', direction: 'asc' },
      limit: 100,
    });
    const accs = sorted.items.map((i) => i.accessionNumber);
    expect([...accs].sort()).toEqual(accs);
  });

  it('refuses bad queries with a 400 and other organizations with a 404', async () => {
    for (const body of [
      { limit: 0 },
      { limit: 101 },
      { skip: -1 },
      { statuses: ['Nope'] },
      { from: '2026-13-01' },
      { sort: { field: 'password', direction: 'asc' } },
    ]) {
      const res = await t.as(desk.registrar.token).post(`buckets/${desk.org.bucketId}/registry/query`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.as(other.registrar.token).post(`buckets/${desk.org.bucketId}/registry/query`, {})).statusCode).toBe(
      404,
    );
    expect((await t.as(desk.doctor.token).post(`buckets/${desk.org.bucketId}/registry/query`, {})).statusCode).toBe(
      403,
    );
    // The technician (registry_arrive) sees the list to record arrivals.
    expect((await query(desk.tech.token)).count).toBeGreaterThan(0);
  });

  it('lists the organizations where the caller works at the desk', async () => {
    const res = await t.as(desk.registrar.token).get('registry-buckets');
    expect(res.json()).toEqual([
      expect.objectContaining({
        id: desk.org.bucketId,
        actions: ['registry_arrive', 'registry_create', 'registry_delete', 'registry_update'],
      }),
    ]);
    expect((await t.as(desk.doctor.token).get('registry-buckets')).json()).toEqual([]);
  });
});

describe('the status machine at the desk', () => {
  let reg: Registration;
  beforeAll(async () => {
    reg = await register(t, desk.registrar.token, desk.org.bucketId, [
      { procedureId: ct },
      { procedureId: xray },
      { modality: 'US' },
    ]);
  });

  it('arrives, refuses a second arrival, confirms performed; Performed is not revoked', async () => {
    const id = reg.exams[0]!.id;
    const arrived = await t.as(desk.tech.token).post('registry/arrive', { ids: [id] });
    expect(arrived.statusCode, arrived.body).toBe(200);
    expect(arrived.json()[0]).toMatchObject({ status: 'Arrived', arriverName: desk.tech.name });
    const again = await t.as(desk.tech.token).post('registry/arrive', { ids: [id] });
    expect(again.statusCode).toBe(409);
    expect((await t.as(desk.tech.token).post(`scheduled-exams/${id}/confirm`)).json()).toMatchObject({
      status: 'Performed',
    });
    expect(
      (await t.as(desk.registrar.token).post(`scheduled-exams/${id}/revoke`, { reason: '患者取消' })).statusCode,
    ).toBe(409);
    expect((await t.as(desk.registrar.token).del(`scheduled-exams/${id}`)).statusCode).toBe(409);
  });

  it('makes a procedure whose imaging is optional Performed on arrival', async () => {
    const res = await status(desk.tech.token, reg.exams[1]!.id, 'arrive');
    expect(res.json()).toMatchObject({ status: 'Performed' });
    expect(res.json().performedAt).toBeTruthy();
  });

  it("cancels a Performed exam's arrival only with exam_delete, deleting its exam and report", async () => {
    const id = reg.exams[0]!.id;
    const { examId } = await makeExam(t, desk.org.bucketId, { modality: 'CT' });
    await linkExam(t, id, examId);
    // The technician holds registry_arrive but not exam_delete.
    expect((await status(desk.tech.token, id, 'cancelArrival')).statusCode).toBe(403);
    const admin = await makeMember(t, desk.org.bucketId, { actions: ['registry_arrive', 'exam_delete'] });
    const res = await status(admin.token, id, 'cancelArrival');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'Scheduled', examId: null, arrivedAt: null, performedAt: null });
    const [exam] = await t.db.database.db.select().from(exams).where(eq(exams.id, examId));
    expect(exam!.deletedTime).not.toBeNull();
  });

  it('revokes with a reason, then deletes; the registration goes with its last exam', async () => {
    const id = reg.exams[2]!.id;
    expect((await status(desk.registrar.token, id, 'revoke')).statusCode).toBe(400);
    expect((await t.as(desk.registrar.token).post(`scheduled-exams/${id}/revoke`, {})).statusCode).toBe(400);
    const revoked = await t.as(desk.registrar.token).post(`scheduled-exams/${id}/revoke`, { reason: '患者取消' });
    expect(revoked.json()).toMatchObject({ status: 'Cancelled', cancelReason: '患者取消' });
    expect((await status(desk.tech.token, id, 'arrive')).statusCode).toBe(409);
    // The technician does not delete; the registrar does.
    expect((await t.as(desk.tech.token).del(`scheduled-exams/${id}`)).statusCode).toBe(403);
    expect((await t.as(desk.registrar.token).del(`scheduled-exams/${id}`)).statusCode).toBe(204);
    expect((await t.as(desk.registrar.token).del(`scheduled-exams/${id}`)).statusCode).toBe(404);

    const single = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    expect((await t.as(desk.registrar.token).del(`scheduled-exams/${single.exams[0]!.id}`)).statusCode).toBe(204);
    const left = await t.db.database.db.select().from(registrations).where(eq(registrations.id, single.id));
    expect(left).toEqual([]);
  });

  it('confirms at most 15 at once, all or none, and hides other organizations', async () => {
    const many = await register(t, desk.registrar.token, desk.org.bucketId, Array(5).fill({ modality: 'CT' }), {
      arrive: true,
    });
    const ids = many.exams.map((e) => e.id);
    expect(
      (await t.as(desk.tech.token).post('registry/exam/confirm', { ids: Array(16).fill(ids[0]) })).statusCode,
    ).toBe(400);
    // One of them not Arrived: nothing is confirmed.
    const scheduled = (await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }])).exams[0]!.id;
    expect((await t.as(desk.tech.token).post('registry/exam/confirm', { ids: [...ids, scheduled] })).statusCode).toBe(
      409,
    );
    const rows = await t.db.database.db.select().from(scheduledExams).where(eq(scheduledExams.registrationId, many.id));
    expect(rows.every((r) => r.status === 'Arrived')).toBe(true);
    const done = await t.as(desk.tech.token).post('registry/exam/confirm', { ids });
    expect(done.json().map((e: ScheduledExam) => e.status)).toEqual(Array(5).fill('Performed'));

    expect((await status(other.registrar.token, scheduled, 'arrive')).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).post('registry/arrive', { ids: [scheduled] })).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).get(`registry/findbyorderid?orderId=${many.id}`)).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).get(`pass-codes/${many.passCode}`)).statusCode).toBe(404);
    expect((await t.as(desk.registrar.token).get(`pass-codes/${many.passCode}`)).json().id).toBe(many.id);
    expect(
      (await t.as(desk.registrar.token).get(`registry/findbyorderid?orderId=${many.id}`)).json().exams,
    ).toHaveLength(5);
  });
});

describe('PUT registry', () => {
  it('reschedules at the version read, refuses a stale version, keeps arrived exams', async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }, { modality: 'MR' }]);
    const edit = {
      id: reg.id,
      version: reg.version,
      patient: { name: '王^小东', gender: 'M', birthDate: '19810615', phone: '13900000000' },
      patientSource: 'I',
      inpatientId: 'ZY-7',
      bedNum: '12',
      outpatientId: 'MZ-1',
      exams: [
        { id: reg.exams[0]!.id, modality: 'CT', scheduledDate: dayFromNow(t, 2), scheduledTime: '14:00' },
        { id: reg.exams[1]!.id, modality: 'MR', scheduledDate: reg.exams[1]!.scheduledDate },
      ],
    };
    const res = await t.as(desk.registrar.token).put('registry', edit);
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json() as Registration;
    expect(updated).toMatchObject({
      version: 1,
      patientSource: 'I',
      inpatientId: 'ZY-7',
      bedNum: '12',
      outpatientId: '',
    });
    expect(updated.patient.phone).toBe('13900000000');
    expect(updated.exams[0]).toMatchObject({
      scheduledDate: dayFromNow(t, 2),
      scheduledTime: '14:00',
      accessionNumber: reg.exams[0]!.accessionNumber,
    });
    expect((await t.as(desk.registrar.token).put('registry', edit)).statusCode).toBe(409);

    // An arrived exam cannot be left out (deleted) nor rescheduled.
    await status(desk.tech.token, reg.exams[1]!.id, 'arrive');
    const drop = { ...edit, version: 1, exams: [edit.exams[0]] };
    expect((await t.as(desk.registrar.token).put('registry', drop)).statusCode).toBe(409);
    const move = { ...edit, version: 1, exams: [edit.exams[0], { ...edit.exams[1], scheduledDate: dayFromNow(t, 5) }] };
    expect((await t.as(desk.registrar.token).put('registry', move)).statusCode).toBe(409);
    // Another registration's exam, or someone without registry_update: refused.
    const foreign = {
      ...edit,
      version: 1,
      exams: [{ id: 'elsewhere', modality: 'CT', scheduledDate: dayFromNow(t, 1) }],
    };
    expect((await t.as(desk.registrar.token).put('registry', foreign)).statusCode).toBe(400);
    expect((await t.as(desk.tech.token).put('registry', { ...edit, version: 1 })).statusCode).toBe(403);
    expect((await t.as(other.registrar.token).put('registry', { ...edit, version: 1 })).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { EMPTY_REPORT_CONTENT, type StatInterval } from '@yyp/contracts';
import { exams, modalities, registrations, reports, scheduledExams } from '../../db/schema.js';
import { makeExam } from '../../test/factories.js';
import { makeDesk, makeDevice, makeProcedure, register } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { prng } from './stat-rollup.fixture.js';
import { reportSources } from './sources.reports.js';
import { deviceWorkloadRaw, type DeviceKey } from './stat-reports.store.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { dayRequest, shape, writeWithRefreshes } from './stat-oracle.fixture.js';

/**
 * The device workload's rollup oracle (issue 26): exams received, bound to scheduled exams and
 * unbound, bindings moved, devices changed and renamed, rooms changed, devices deleted, exams
 * deleted and their modality or time changed, reports' body-part counts set, written straight to
 * the tables (the triggers see every writer), with refreshes between; then statistics/modality from
 * the rollups (ex rows under the device, k1) must answer what the direct count (deviceWorkloadRaw)
 * answers, by every dimension, interval and modality filter.
 */
let t: TestApp;
let a: string;
let b: string;
let devices: string[];
let examTemplate: typeof exams.$inferSelect;
let regTemplate: typeof registrations.$inferSelect;
let seTemplate: typeof scheduledExams.$inferSelect;
const db = () => t.db.database.db;
const modality = reportSources.modality!;

const DAY0 = Date.parse('2026-10-25T00:00:00Z');
const SPAN_MS = 40 * 86_400_000;
const MODALITIES = ['CT', 'MR', 'CT\\SR', 'DX', ''];
const ROOMS = ['CT room 1', 'MR room', ''];
/** the writes, inserts weighted so the tables grow */
const OPS = [0, 0, 0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
let serial = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const desk = await makeDesk(t);
  a = desk.org.bucketId;
  b = (await makeDesk(t, { groupId: desk.org.groupId })).org.bucketId;
  devices = [];
  for (const [i, bucketId] of [a, a, b].entries()) {
    devices.push(await makeDevice(t, bucketId, { aeTitle: `DEV${i}`, modality: 'CT', name: `设备 ${i}` }));
  }
  const ct = await makeProcedure(t, a, { modality: 'CT' });
  const reg = await register(t, desk.registrar.token, a, [{ procedureId: ct }]);
  regTemplate = (await db().select().from(registrations).where(eq(registrations.id, reg.id)))[0]!;
  seTemplate = (await db().select().from(scheduledExams).where(eq(scheduledExams.registrationId, reg.id)))[0]!;
  const { examId } = await makeExam(t, a);
  examTemplate = (await db().select().from(exams).where(eq(exams.id, examId)))[0]!;
  await db().delete(exams).where(eq(exams.id, examId));
}, 90_000);

afterAll(async () => {
  await t?.close();
});

const idsOf = async (table: typeof exams | typeof scheduledExams) =>
  (
    await db()
      .select({ id: table.id })
      .from(table)
      .where(inArray(table.bucketId, [a, b]))
  ).map((x) => x.id);

/** A random write of the kinds the oracle names, straight to the tables. */
async function randomWrite(rnd: ReturnType<typeof prng>): Promise<void> {
  const at = () => new Date(DAY0 + rnd.int(SPAN_MS));
  const examIds = await idsOf(exams);
  const seIds = await idsOf(scheduledExams);
  const op = examIds.length < 5 ? 0 : seIds.length < 3 ? 1 : rnd.pick(OPS);
  const examId = examIds.length ? rnd.pick(examIds) : '';
  // bindings go half the time to a few exams, so some exam has scheduled exams on several devices
  const boundTo = () => (rnd.int(2) === 0 ? rnd.pick(examIds.slice(0, 4)) : examId);
  const seId = seIds.length ? rnd.pick(seIds) : '';
  const device = () => (rnd.int(5) === 0 ? null : rnd.pick(devices));
  serial += 1;
  switch (op) {
    case 0: {
      const id = `device-oracle-e${serial}`;
      const bucketId = rnd.pick([a, a, b]);
      await db()
        .insert(exams)
        .values({
          ...examTemplate,
          id,
          bucketId,
          storeUid: `1.2.826.0.3.${serial}`,
          modality: rnd.pick(MODALITIES),
          bodyPartCount: rnd.int(3) === 0 ? null : 1 + rnd.int(3),
          created: at(),
          deletedTime: null,
        });
      return;
    }
    case 1: {
      // a scheduled exam, bound to an exam or not yet, registered at some time
      const id = `device-oracle-s${serial}`;
      const regId = `device-oracle-r${serial}`;
      await db()
        .insert(registrations)
        .values({ ...regTemplate, id: regId, bucketId: a, orderId: null, passCode: regId, created: at() });
      await db()
        .insert(scheduledExams)
        .values({
          ...seTemplate,
          id,
          registrationId: regId,
          bucketId: a,
          accessionNumber: id,
          studyInstanceUid: `1.4.${serial}`,
          requestedProcedureId: id,
          spsId: id,
          deviceId: device(),
          examId: rnd.int(4) === 0 ? null : boundTo(),
          created: at(),
          arrivedAt: null,
          arrivedBy: null,
        });
      return;
    }
    case 2:
      // a binding made or moved, or undone
      await db()
        .update(scheduledExams)
        .set({ examId: rnd.int(4) === 0 ? null : boundTo() })
        .where(eq(scheduledExams.id, seId));
      return;
    case 3:
      await db().update(scheduledExams).set({ deviceId: device() }).where(eq(scheduledExams.id, seId));
      return;
    case 4:
      // which of two scheduled exams was registered first
      await db().update(scheduledExams).set({ created: at() }).where(eq(scheduledExams.id, seId));
      return;
    case 5:
      await db().delete(scheduledExams).where(eq(scheduledExams.id, seId));
      return;
    case 6:
      await db()
        .update(modalities)
        .set({ room: rnd.pick(ROOMS), name: `设备 ${serial}` })
        .where(eq(modalities.id, rnd.pick(devices)));
      return;
    case 7:
      await db().update(exams).set({ deletedTime: at() }).where(eq(exams.id, examId));
      return;
    case 8:
      await db()
        .update(exams)
        .set({ modality: rnd.pick(MODALITIES) })
        .where(eq(exams.id, examId));
      return;
    case 9:
      await db().update(exams).set({ created: at() }).where(eq(exams.id, examId));
      return;
    case 10: {
      const [exam] = await db().select().from(exams).where(eq(exams.id, examId));
      await db()
        .insert(reports)
        .values({
          id: examId,
          bucketId: exam!.bucketId,
          status: 'final',
          content: { ...EMPTY_REPORT_CONTENT, bodyPartCount: 1 + rnd.int(4) },
        })
        .onConflictDoUpdate({ target: reports.id, set: { content: { ...EMPTY_REPORT_CONTENT, bodyPartCount: 2 } } });
      return;
    }
    default:
      await db().delete(exams).where(eq(exams.id, examId));
  }
}

function request(by: DeviceKey, interval: StatInterval, from: string, to: string, m?: string): StatRequest {
  return dayRequest({ kind: 'modality', by, interval, from, to, bucketIds: [a, b], modality: m });
}

/** The direct count, as the statistic answers it. */
async function direct(req: StatRequest): Promise<StatResult> {
  const lines = await deviceWorkloadRaw(db(), { ...req, by: req.by as DeviceKey });
  const rows = lines
    .filter((l) => l.what === 'row')
    .map((l) => ({ key: l.key, label: l.label, values: { exams: l.exams, bodyParts: l.bodyParts } }));
  const periods = lines
    .filter((l) => l.what === 'period')
    .map((l) => ({ period: l.period, values: { exams: l.exams, bodyParts: l.bodyParts } }));
  const sum = (f: 'exams' | 'bodyParts') => rows.reduce((n, r) => n + r.values[f], 0);
  return {
    columns: ['exams', 'bodyParts'],
    rows,
    periods,
    totals: { exams: sum('exams'), bodyParts: sum('bodyParts') },
  };
}

async function checkAll(from: string, to: string): Promise<number> {
  let compared = 0;
  for (const by of ['modality', 'device', 'room', 'bucket'] as const) {
    for (const interval of ['day', 'week', 'month'] as const) {
      for (const m of [undefined, 'CT']) {
        const req = request(by, interval, from, to, m);
        const what = `modality by ${by} per ${interval} modality ${m ?? 'all'} ${from}..${to}`;
        expect(shape(await modality(db(), req)), what).toEqual(shape(await direct(req)));
        compared += 1;
      }
    }
  }
  return compared;
}

describe('device workload rollups: the oracle', () => {
  it('after random writes with refreshes between, statistics/modality from the rollups equals the direct count', async () => {
    for (const seed of [20261128, 5]) {
      const rnd = prng(seed);
      await writeWithRefreshes(db(), [a, b], rnd, 150, randomWrite);
      const bound = await db().execute(
        sql`select count(*)::int as n from scheduled_exams where bucket_id = ${a} and exam_id is not null and device_id is not null`,
      );
      expect(
        (bound as unknown as { rows: { n: number }[] }).rows[0]!.n,
        `seed ${seed}: exams on devices`,
      ).toBeGreaterThan(5);
      // a whole month and days around it, and days inside one month
      expect(await checkAll('2026-10-24', '2026-12-05')).toBe(24);
      await checkAll('2026-11-03', '2026-11-17');
    }
  }, 240_000);

  it('notices a missing trigger: without scheduled_exams_stat_update a binding moved leaves the rollup stale', async () => {
    const req = request('device', 'day', '2026-10-24', '2026-12-05');
    expect(shape(await modality(db(), req))).toEqual(shape(await direct(req)));
    await db().execute(sql`drop trigger scheduled_exams_stat_update on scheduled_exams`);
    await db()
      .update(scheduledExams)
      .set({ deviceId: null })
      .where(sql`${scheduledExams.bucketId} = ${a} and ${scheduledExams.examId} is not null`);
    expect(shape(await modality(db(), req))).not.toEqual(shape(await direct(req)));
  });
});

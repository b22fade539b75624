import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { StatDimension, StatInterval } from '@yyp/contracts';
import { accounts, registrations, scheduledExams, statDaily } from '../../db/schema.js';
import { makeAccount } from '../../test/factories.js';
import { makeDesk, makeProcedure, register } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { prng } from './stat-rollup.fixture.js';
import { arriverStats, registrarStats } from './sources.desk-rollup.js';
import { arriverStatsRaw, registrarStatsRaw } from './stat-desk.store.js';
import { refreshRollups } from './stat-rollup.store.js';
import type { StatRequest } from './stat-source.js';
import { dayRequest, shape, writeWithRefreshes } from './stat-oracle.fixture.js';

/**
 * The front desk's rollup oracle (issue 26): random registrations, scheduled exams added and
 * removed, arrivals set and undone, modality changes, re-registrations (day, clerk, organization),
 * exams moved between registrations and deletes, written straight to the tables (the triggers see
 * every writer), with refreshes in between; then registrar and arriver served by the rollups
 * (rg, rm, ar) must answer what the raw count (stat-desk.store.ts) answers, for every dimension,
 * interval and modality filter, over ranges with and without whole months.
 */
let t: TestApp;
let a: string;
let b: string;
let people: string[];
let regTemplate: typeof registrations.$inferSelect;
let exTemplate: typeof scheduledExams.$inferSelect;
const db = () => t.db.database.db;

const DAY0 = Date.parse('2026-10-20T00:00:00Z');
const SPAN_MS = 50 * 86_400_000;
const MODALITIES = ['CT', 'MR', 'US', ''];
/** the writes, inserts weighted so the tables grow */
const OPS = [0, 0, 0, 0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 7, 8, 9, 10];
let serial = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const desk = await makeDesk(t);
  a = desk.org.bucketId;
  b = (await makeDesk(t, { groupId: desk.org.groupId })).org.bucketId;
  people = [];
  for (let i = 0; i < 3; i++) people.push((await makeAccount(t, { signIn: false })).accountId);
  // one labelled by its username (no name)
  await db().update(accounts).set({ name: '' }).where(eq(accounts.id, people[0]!));
  const ct = await makeProcedure(t, a, { modality: 'CT' });
  const reg = await register(t, desk.registrar.token, a, [{ procedureId: ct }]);
  const [r] = await db().select().from(registrations).where(eq(registrations.id, reg.id));
  const [s] = await db().select().from(scheduledExams).where(eq(scheduledExams.registrationId, reg.id));
  regTemplate = r!;
  exTemplate = s!;
  await db().delete(registrations).where(eq(registrations.id, reg.id));
}, 90_000);

afterAll(async () => {
  await t?.close();
});

const ids = async (table: typeof registrations | typeof scheduledExams) =>
  (
    await db()
      .select({ id: table.id })
      .from(table)
      .where(inArray(table.bucketId, [a, b]))
  ).map((x) => x.id);

async function addExam(registrationId: string, bucketId: string, modality: string): Promise<void> {
  serial += 1;
  const id = `desk-oracle-x${serial}`;
  await db()
    .insert(scheduledExams)
    .values({
      ...exTemplate,
      id,
      registrationId,
      bucketId,
      modality,
      accessionNumber: id,
      studyInstanceUid: `1.2.${serial}`,
      requestedProcedureId: id,
      spsId: id,
      examId: null,
      arrivedAt: null,
      arrivedBy: null,
    });
}

/** A random write of the kinds the brief names, straight to the tables. */
async function randomWrite(rnd: ReturnType<typeof prng>): Promise<void> {
  const at = () => new Date(DAY0 + rnd.int(SPAN_MS));
  const person = () => (rnd.int(4) === 0 ? null : rnd.pick(people));
  const regIds = await ids(registrations);
  const exIds = await ids(scheduledExams);
  const op = regIds.length < 6 ? 0 : rnd.pick(OPS);
  const regId = regIds.length ? rnd.pick(regIds) : '';
  const exId = exIds.length ? rnd.pick(exIds) : '';
  const regOf = async (id: string) => (await db().select().from(registrations).where(eq(registrations.id, id)))[0]!;
  switch (op) {
    case 0: {
      serial += 1;
      const id = `desk-oracle-r${serial}`;
      const bucketId = rnd.pick([a, b]);
      await db()
        .insert(registrations)
        .values({ ...regTemplate, id, bucketId, orderId: null, passCode: id, created: at(), createdBy: person() });
      for (let i = rnd.int(3); i > 0; i--) await addExam(id, bucketId, rnd.pick(MODALITIES));
      return;
    }
    case 1: {
      const r = await regOf(regId);
      await addExam(r.id, r.bucketId, rnd.pick(MODALITIES));
      return;
    }
    case 2:
      if (exId) await db().delete(scheduledExams).where(eq(scheduledExams.id, exId));
      return;
    case 3:
    case 4:
      // an arrival (or a second one, another day or clerk)
      if (exId) {
        await db()
          .update(scheduledExams)
          .set({ arrivedAt: at(), arrivedBy: person() })
          .where(eq(scheduledExams.id, exId));
      }
      return;
    case 5:
      // an arrival undone
      if (exId) {
        await db().update(scheduledExams).set({ arrivedAt: null, arrivedBy: null }).where(eq(scheduledExams.id, exId));
      }
      return;
    case 6:
      if (exId) {
        await db()
          .update(scheduledExams)
          .set({ modality: rnd.pick(MODALITIES) })
          .where(eq(scheduledExams.id, exId));
      }
      return;
    case 7:
      // a re-registration: another day, clerk, or organization
      await db()
        .update(registrations)
        .set(rnd.pick([{ created: at() }, { createdBy: person() }, { bucketId: rnd.pick([a, b]) }]))
        .where(eq(registrations.id, regId));
      return;
    case 8:
      // an exam moved to another registration
      if (exId) await db().update(scheduledExams).set({ registrationId: regId }).where(eq(scheduledExams.id, exId));
      return;
    case 9:
      // a registration's clerk removed (as ON DELETE SET NULL does)
      await db()
        .update(registrations)
        .set({ createdBy: null })
        .where(sql`${registrations.id} = ${regId}`);
      return;
    default:
      await db().delete(registrations).where(eq(registrations.id, regId));
  }
}

function request(by: StatDimension, interval: StatInterval, from: string, to: string, modality?: string): StatRequest {
  const kind = by === 'arriver' ? 'arriver' : 'registrar';
  return dayRequest({ kind, by, interval, from, to, bucketIds: [a, b], modality });
}

async function checkAll(from: string, to: string): Promise<number> {
  let compared = 0;
  for (const [served, raw, dims] of [
    [registrarStats, registrarStatsRaw, ['registrar', 'bucket']],
    [arriverStats, arriverStatsRaw, ['arriver', 'bucket']],
  ] as const) {
    for (const by of dims) {
      for (const interval of ['day', 'week', 'month', 'year'] as const) {
        for (const modality of [undefined, 'CT', 'US']) {
          const req = request(by, interval, from, to, modality);
          const got = await served(db(), req);
          const want = await raw(db(), req);
          const what = `${req.kind} by ${by} per ${interval} modality ${modality ?? 'all'} ${from}..${to}`;
          expect(shape(got), what).toEqual(shape(want));
          // the order: the first column, then the label
          const first = got.columns[0]!;
          for (let i = 1; i < got.rows.length; i++) {
            const [p, q] = [got.rows[i - 1]!, got.rows[i]!];
            const ordered = p.values[first]! > q.values[first]! || p.label.localeCompare(q.label) <= 0;
            expect(ordered, what).toBe(true);
          }
          compared += 1;
        }
      }
    }
  }
  return compared;
}

describe('front desk rollups: the oracle', () => {
  it('after random writes with refreshes between, registrar and arriver from the rollups equal the raw count', async () => {
    for (const seed of [20261128, 11]) {
      const rnd = prng(seed);
      await writeWithRefreshes(db(), [a, b], rnd, 160, randomWrite);
      await refreshRollups(db(), [a, b]);
      const kinds = await db()
        .select({ kind: statDaily.kind, n: sql<number>`count(*)::int` })
        .from(statDaily)
        .where(inArray(statDaily.bucketId, [a, b]))
        .groupBy(statDaily.kind);
      const count = Object.fromEntries(kinds.map((k) => [k.kind, k.n]));
      expect(count.rg, `seed ${seed}: rows to serve from`).toBeGreaterThan(10);
      expect(count.rm).toBeGreaterThan(10);
      expect(count.ar).toBeGreaterThan(5);
      // the whole span (with whole months), and days inside one month
      expect(await checkAll('2026-10-19', '2026-12-10')).toBe(48);
      await checkAll('2026-11-03', '2026-11-17');
    }
  }, 240_000);

  it('notices a missing trigger: without scheduled_exams_stat_update an arrival undone leaves the rollup stale', async () => {
    await refreshRollups(db(), [a, b]);
    const req = request('arriver', 'day', '2026-10-19', '2026-12-10');
    expect(shape(await arriverStats(db(), req))).toEqual(shape(await arriverStatsRaw(db(), req)));
    await db().execute(sql`drop trigger scheduled_exams_stat_update on scheduled_exams`);
    await db()
      .update(scheduledExams)
      .set({ arrivedAt: null, arrivedBy: null })
      .where(sql`${scheduledExams.bucketId} in (${a}, ${b}) and ${scheduledExams.arrivedAt} is not null`);
    expect(shape(await arriverStats(db(), req))).not.toEqual(shape(await arriverStatsRaw(db(), req)));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { EMPTY_REPORT_CONTENT, type StatOverview, type StatTable } from '@yyp/contracts';
import { exams, reports, statDaily, statDirty } from '../../db/schema.js';
import { joinOrganization, makeAccount, makeExam, makeMember, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import {
  expectedCells,
  expectedOverview,
  expectedTable,
  hospitalDay,
  prng,
  sortCells,
  type Cell,
  type RawExam,
  type RawReport,
} from './stat-rollup.fixture.js';
import { refreshMarked, refreshRollups } from './stat-rollup.store.js';

/**
 * The rollup oracle (issue 26): random inserts, updates, deletes, modality changes, reassignments,
 * recalls and moves between organizations, written straight to exams and reports (the triggers
 * see every writer), with statistics read in between; then stat_daily and every rollup-served
 * statistic must equal a direct count over the raw rows (stat-rollup.fixture.ts).
 */
let t: TestApp;
let a: string;
let b: string;
let viewer: string;
let people: string[];
let template: typeof exams.$inferSelect;
const db = () => t.db.database.db;

const DAY0 = Date.parse('2026-11-10T00:00:00Z');
const SPAN_MS = 10 * 86_400_000;
const MODALITIES = ['CT', 'MR', 'CT\\SR', 'DX', 'MR\\PR'];
const PARTS = ['CHEST', 'HEAD', ''];
/** the writes, inserts weighted so the tables grow */
const OPS = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 10, 11, 12, 13];
const STATUSES = ['none', 'partial', 'final', 'corrected', 'printed', 'cancelled'];

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const orgA = await makeOrganization(t);
  a = orgA.bucketId;
  b = (await makeOrganization(t, { groupId: orgA.groupId })).bucketId;
  const actions = [
    'physician_workload_stats',
    'positive_rate_stats',
    'note_taker_stats',
    'org_workload_stats',
  ] as const;
  // the overview counts the group's organizations once its allowOverview is on
  await db()
    .execute(sql`update groups set settings = coalesce(settings, '{}'::jsonb) || '{"allowOverview": true}'::jsonb
    where id = ${orgA.groupId}`);
  const member = await makeMember(t, a, { actions: [...actions] });
  await joinOrganization(t, b, member.accountId, { actions: [...actions] });
  viewer = member.token;
  people = [];
  for (let i = 0; i < 3; i++) people.push((await makeAccount(t, { signIn: false })).accountId);
  const { examId } = await makeExam(t, a);
  const [row] = await db().select().from(exams).where(eq(exams.id, examId));
  template = row!;
  await db().delete(exams).where(eq(exams.id, examId));
}, 90_000);

afterAll(async () => {
  await t?.close();
});

let serial = 0;

async function rawRows(): Promise<{ exams: RawExam[]; reports: RawReport[] }> {
  const e = await db()
    .select({
      id: exams.id,
      bucketId: exams.bucketId,
      modality: exams.modality,
      bodyPart: exams.bodyPart,
      bodyPartCount: exams.bodyPartCount,
      created: exams.created,
      deletedTime: exams.deletedTime,
    })
    .from(exams)
    .where(inArray(exams.bucketId, [a, b]));
  const r = await db()
    .select({
      id: reports.id,
      bucketId: reports.bucketId,
      status: reports.status,
      approvedAt: reports.approvedAt,
      creatorId: reports.creatorId,
      approverId: reports.approverId,
      noteTakerId: reports.noteTakerId,
      content: reports.content,
    })
    .from(reports)
    .where(inArray(reports.bucketId, [a, b]));
  return { exams: e, reports: r as RawReport[] };
}

async function rollupCells(): Promise<Cell[]> {
  await refreshRollups(db(), [a, b]);
  const rows = await db()
    .select()
    .from(statDaily)
    .where(inArray(statDaily.bucketId, [a, b]));
  return sortCells(rows.map((r) => ({ ...r, n: Number(r.n), s: Number(r.s) })));
}

/** A random write of the kinds the issue names, straight to the tables. */
async function randomWrite(rnd: ReturnType<typeof prng>): Promise<void> {
  const at = () => new Date(DAY0 + rnd.int(SPAN_MS));
  const ids = (
    await db()
      .select({ id: exams.id })
      .from(exams)
      .where(inArray(exams.bucketId, [a, b]))
  ).map((x) => x.id);
  const reportIds = (
    await db()
      .select({ id: reports.id })
      .from(reports)
      .where(inArray(reports.bucketId, [a, b]))
  ).map((x) => x.id);
  const op = ids.length < 8 ? 0 : rnd.pick(OPS);
  const examId = ids.length ? rnd.pick(ids) : '';
  const reportId = reportIds.length ? rnd.pick(reportIds) : '';
  const person = () => (rnd.int(5) === 0 ? null : rnd.pick(people));
  const content = () => ({
    ...EMPTY_REPORT_CONTENT,
    positive: rnd.pick([true, false, null]),
    bodyPartCount: rnd.pick([null, 1, 2, 3]),
  });
  switch (op) {
    case 0: {
      serial += 1;
      const id = `oracle-${serial}-${rnd.int(1e9)}`;
      await db()
        .insert(exams)
        .values({
          ...template,
          id,
          storeUid: `1.2.826.0.1.${serial}.${rnd.int(1e9)}`,
          bucketId: rnd.pick([a, b]),
          modality: rnd.pick(MODALITIES),
          bodyPart: rnd.pick(PARTS),
          bodyPartCount: rnd.pick([null, 1, 2]),
          created: at(),
          deletedTime: null,
        });
      return;
    }
    case 1:
      await db().delete(exams).where(eq(exams.id, examId));
      return;
    case 2:
      await db()
        .update(exams)
        .set({ deletedTime: rnd.int(2) ? at() : null })
        .where(eq(exams.id, examId));
      return;
    case 3:
      await db()
        .update(exams)
        .set({ modality: rnd.pick(MODALITIES) })
        .where(eq(exams.id, examId));
      return;
    case 4:
      await db()
        .update(exams)
        .set({ bodyPart: rnd.pick(PARTS), bodyPartCount: rnd.pick([null, 1, 4]) })
        .where(eq(exams.id, examId));
      return;
    case 5: {
      // a move between organizations: the exam alone, or with its report
      const to = rnd.pick([a, b]);
      await db().transaction(async (tx) => {
        await tx.update(exams).set({ bucketId: to }).where(eq(exams.id, examId));
        if (rnd.int(2)) await tx.update(reports).set({ bucketId: to }).where(eq(reports.id, examId));
      });
      return;
    }
    case 6:
    case 7: {
      const [exam] = await db().select().from(exams).where(eq(exams.id, examId));
      if (!exam || reportIds.includes(examId)) return;
      const status = rnd.pick(STATUSES);
      const approved = ['corrected', 'printed', 'cancelled'].includes(status);
      await db()
        .insert(reports)
        .values({
          id: examId,
          bucketId: exam.bucketId,
          status,
          content: content(),
          creatorId: person(),
          approverId: approved ? person() : null,
          noteTakerId: rnd.int(3) === 0 ? person() : null,
          approvedAt: approved ? at() : null,
        });
      return;
    }
    case 8:
      // an approval (or a second one, later)
      await db()
        .update(reports)
        .set({ status: 'corrected', approverId: person(), approvedAt: at() })
        .where(eq(reports.id, reportId));
      return;
    case 9:
      // a recall
      await db().update(reports).set({ status: 'cancelled' }).where(eq(reports.id, reportId));
      return;
    case 10:
      // a reassignment of its creator, approver or note-taker
      await db()
        .update(reports)
        .set(rnd.pick([{ creatorId: person() }, { approverId: person() }, { noteTakerId: person() }]))
        .where(eq(reports.id, reportId));
      return;
    case 11:
      await db().update(reports).set({ content: content() }).where(eq(reports.id, reportId));
      return;
    case 12:
      await db().update(reports).set({ status: 'printed' }).where(eq(reports.id, reportId));
      return;
    default:
      await db().delete(reports).where(eq(reports.id, reportId));
  }
}

async function statistic(kind: string, by: string, from: string, to: string): Promise<StatTable> {
  const res = await t.as(viewer).get(`statistics/${kind}?from=${from}&to=${to}&by=${by}&bucketIds=${a},${b}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StatTable;
}

const SERVED = [
  ['report', ['doctor', 'modality', 'bucket']],
  ['report-positive', ['modality', 'doctor', 'bodyPart', 'bucket']],
  ['note-taker', ['noteTaker', 'bucket']],
  ['study', ['bucket', 'modality']],
] as const;

/** Every rollup-served statistic by every dimension equals the direct count, over the range. */
async function checkStatistics(cells: Cell[], from: string, to: string): Promise<void> {
  for (const [kind, dims] of SERVED) {
    for (const by of dims) {
      const table = await statistic(kind, by, from, to);
      const want = expectedTable(cells, kind, by, { from, to });
      const got = Object.fromEntries(table.rows.map((r) => [r.key, r.values]));
      expect(got, `${kind} by ${by}`).toEqual(want.rows);
      expect(table.totals, `${kind} totals`).toEqual(want.totals);
    }
  }
}

/** The overview (total by day, bucket, user; all and one modality) equals the direct count. */
async function checkOverview(cells: Cell[], from: string, to: string): Promise<void> {
  for (const modality of [undefined, 'CT']) {
    const want = expectedOverview(cells, { from, to, modality });
    const get = async (kind: string) => {
      const m = modality ? `&modality=${modality}` : '';
      const res = await t
        .as(viewer)
        .get(`statistics/overview/${kind}?from=${from}&to=${to}&interval=day&bucketIds=${a},${b}${m}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as StatOverview;
    };
    const nonZero = <V extends Record<string, number | null>>(o: StatOverview) =>
      Object.fromEntries(
        o.rows.filter((r) => Object.values(r.values).some((v) => v !== 0)).map((r) => [r.key, r.values as V]),
      );
    const total = await get('total');
    expect(total.totals, `overview totals ${modality ?? ''}`).toEqual({ ...want.totals, buckets: 2 });
    expect(nonZero(total), 'overview by day').toEqual(want.byDay);
    expect(nonZero(await get('bucket')), 'overview by organization').toEqual(want.byBucket);
    expect(nonZero(await get('user')), 'overview by person').toEqual(want.byUser);
  }
}

/** The report detail's total (summed from rw and ra) equals the direct count, for all and per person. */
async function checkDetailTotals(cells: Cell[], from: string, to: string): Promise<void> {
  const inRange = cells.filter((c) => c.day >= from && c.day <= to);
  const sum = (kind: string, k1?: string, k2?: string) =>
    inRange
      .filter((c) => c.kind === kind && (k1 === undefined || c.k1 === k1) && (k2 === undefined || c.k2 === k2))
      .reduce((n, c) => n + c.n, 0);
  const total = async (q: string) => {
    const res = await t
      .as(viewer)
      .get(`statistics/report-detail?from=${from}&to=${to}&bucketIds=${a},${b}&skip=0&limit=1${q}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { total: number }).total;
  };
  expect(await total(''), 'report-detail total').toBe(sum('rw'));
  expect(await total('&modality=CT'), 'report-detail total of CT').toBe(sum('rw', undefined, 'CT'));
  for (const p of people) {
    expect(await total(`&doctorId=${p}&role=written`), 'written by one doctor').toBe(sum('rw', p));
    expect(await total(`&doctorId=${p}&role=approved`), 'approved by one doctor').toBe(sum('ra', p));
  }
}

describe('statistics rollups: the oracle', () => {
  it('after random writes with reads between, stat_daily and every rollup statistic equal a direct count', async () => {
    for (const seed of [20261126, 7]) {
      const rnd = prng(seed);
      for (let i = 0; i < 200; i++) {
        await randomWrite(rnd);
        // reads in between: the refresh recounts only the days marked since
        if (i % 23 === 22) await refreshRollups(db(), [a, b]);
        // and the background's steps (a few days of any organization)
        if (i % 17 === 16) await refreshMarked(db(), 3);
      }
      // the background, run to its end, leaves no mark
      if (seed === 7) {
        while ((await refreshMarked(db(), 5)) > 0);
        expect(
          await db()
            .select()
            .from(statDirty)
            .where(inArray(statDirty.bucketId, [a, b])),
        ).toEqual([]);
      }
      const raw = await rawRows();
      const want = expectedCells(raw.exams, raw.reports);
      expect(want.length, `seed ${seed}: the writes left rows to count`).toBeGreaterThan(20);
      expect(await rollupCells(), `seed ${seed}`).toEqual(want);
      // the whole span, and a part of it (days at both ends left out)
      await checkStatistics(want, '2026-11-09', '2026-11-21');
      await checkStatistics(want, hospitalDay(new Date(DAY0 + 3 * 86_400_000)), '2026-11-16');
      await checkOverview(want, '2026-11-09', '2026-11-21');
      await checkOverview(want, hospitalDay(new Date(DAY0 + 3 * 86_400_000)), '2026-11-16');
      await checkDetailTotals(want, '2026-11-09', '2026-11-21');
    }
  }, 240_000);

  // PostgreSQL only: PGlite has one connection, so no writer is ever in flight beside a reader.
  it('a refresh waits for a writer in flight and then counts its change; the background passes over it', async () => {
    if (t.db.kind !== 'postgres') {
      expect(t.db.kind).toBe('pglite');
      return;
    }
    const { default: pg } = await import('pg');
    const live = new Set((await rawRows()).exams.filter((e) => e.deletedTime === null).map((e) => e.id));
    const [target] = (
      await db()
        .select({ id: reports.id, bucketId: reports.bucketId, approvedAt: reports.approvedAt })
        .from(reports)
        .where(sql`status in ('corrected', 'printed') and approved_at is not null`)
    ).filter((r) => live.has(r.id));
    expect(target).toBeDefined();
    // the day is marked and committed (another write to it earlier), and the writer marks it again
    await db().execute(
      sql`insert into stat_dirty (bucket_id, day) values (${target!.bucketId}, ${hospitalDay(target!.approvedAt!)}::date)
        on conflict do nothing`,
    );
    const writer = new pg.Client({ connectionString: t.db.url });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query(`update reports set status = 'cancelled' where id = $1`, [target!.id]);
      // the background passes over the mark the writer holds, and leaves it for later
      await refreshMarked(db(), 10_000);
      const held = await db().execute(
        sql`select 1 from stat_dirty where bucket_id = ${target!.bucketId} and day = ${hospitalDay(target!.approvedAt!)}::date`,
      );
      expect((held as unknown as { rows: unknown[] }).rows, 'the held mark stays').toHaveLength(1);
      let done = false;
      const refresh = refreshRollups(db(), [a, b]).then(() => (done = true));
      await new Promise((r) => setTimeout(r, 400));
      expect(done, 'the refresh waits for the writer').toBe(false);
      await writer.query('commit');
      await refresh;
    } finally {
      await writer.end();
    }
    const raw = await rawRows();
    expect(await rollupCells()).toEqual(expectedCells(raw.exams, raw.reports));
  });

  it('notices a missing trigger: without reports_stat_update a recall leaves the rollup stale', async () => {
    const ids = (
      await db()
        .select({ id: reports.id })
        .from(reports)
        .where(sql`status in ('corrected', 'printed') and approved_at is not null`)
    ).map((x) => x.id);
    const live = (await rawRows()).exams.filter((e) => e.deletedTime === null).map((e) => e.id);
    const target = ids.find((id) => live.includes(id));
    expect(target).toBeDefined();
    expect(await rollupCells()).toEqual(expectedCells((await rawRows()).exams, (await rawRows()).reports));
    await db().execute(sql`drop trigger reports_stat_update on reports`);
    await db().update(reports).set({ status: 'cancelled' }).where(eq(reports.id, target!));
    const raw = await rawRows();
    expect(await rollupCells()).not.toEqual(expectedCells(raw.exams, raw.reports));
  });
});

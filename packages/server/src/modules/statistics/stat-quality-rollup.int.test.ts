import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { EMPTY_REPORT_CONTENT, type StatDimension, type StatInterval } from '@yyp/contracts';
import { exams, reportQuality, reports } from '../../db/schema.js';
import { makeAccount, makeExam, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { prng } from './stat-rollup.fixture.js';
import { gradeKey, qualitySource, qualityTable } from './sources.quality.js';
import { gradesBy, gradesByItem, gradesByPeriod } from './stat-quality.store.js';
import type { StatRequest, StatResult } from './stat-source.js';
import { dayRequest, writeWithRefreshes } from './stat-oracle.fixture.js';

/**
 * The quality rollups' oracle (issue 26): grades given, changed (level, items, time) and removed,
 * exams received, deleted and their modality changed, reports written, reassigned and deleted,
 * written straight to the tables (the triggers see every writer), with refreshes between; then
 * statistics/quality from the rollups (qg, qi) must answer what the direct count over the grades
 * (stat-quality.store.ts) answers, by every dimension, interval, modality and doctor.
 */
let t: TestApp;
let a: string;
let b: string;
let people: string[];
let template: typeof exams.$inferSelect;
const db = () => t.db.database.db;

const DAY0 = Date.parse('2026-10-25T00:00:00Z');
const SPAN_MS = 40 * 86_400_000;
const MODALITIES = ['CT', 'MR', 'CT\\SR', 'DX'];
const ITEMS = ['影像质量', '描述不全', '诊断不明', '格式'];
/** the writes, inserts weighted so the tables grow */
const OPS = [0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9];
let serial = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const org = await makeOrganization(t);
  a = org.bucketId;
  b = (await makeOrganization(t, { groupId: org.groupId })).bucketId;
  people = [];
  for (let i = 0; i < 3; i++) people.push((await makeAccount(t, { signIn: false })).accountId);
  const { examId } = await makeExam(t, a);
  template = (await db().select().from(exams).where(eq(exams.id, examId)))[0]!;
  await db().delete(exams).where(eq(exams.id, examId));
}, 90_000);

afterAll(async () => {
  await t?.close();
});

const examIds = async () =>
  (
    await db()
      .select({ id: exams.id })
      .from(exams)
      .where(inArray(exams.bucketId, [a, b]))
  ).map((x) => x.id);

/** A random write of the kinds the oracle names, straight to the tables. */
async function randomWrite(rnd: ReturnType<typeof prng>): Promise<void> {
  const at = () => new Date(DAY0 + rnd.int(SPAN_MS));
  const ids = await examIds();
  const op = ids.length < 5 ? 0 : rnd.pick(OPS);
  const examId = ids.length ? rnd.pick(ids) : '';
  const person = () => (rnd.int(5) === 0 ? null : rnd.pick(people));
  const items = () => Array.from({ length: rnd.int(4) }, () => rnd.pick(ITEMS));
  const grade = () => ({ level: rnd.pick(['A', 'B', 'C', 'D']), unsatisfactoryItems: items(), updatedAt: at() });
  serial += 1;
  switch (op) {
    case 0:
      await db()
        .insert(exams)
        .values({
          ...template,
          id: `quality-oracle-${serial}`,
          storeUid: `1.2.826.0.5.${serial}`,
          bucketId: rnd.pick([a, a, b]),
          modality: rnd.pick(MODALITIES),
          created: at(),
          deletedTime: null,
        });
      return;
    case 1: {
      const [exam] = await db().select().from(exams).where(eq(exams.id, examId));
      await db()
        .insert(reports)
        .values({
          id: examId,
          bucketId: exam!.bucketId,
          status: 'final',
          content: EMPTY_REPORT_CONTENT,
          creatorId: person(),
        })
        .onConflictDoNothing();
      return;
    }
    case 2: {
      const [exam] = await db().select().from(exams).where(eq(exams.id, examId));
      const g = grade();
      await db()
        .insert(reportQuality)
        .values({ reportId: examId, bucketId: exam!.bucketId, creatorId: person(), createdAt: g.updatedAt, ...g })
        .onConflictDoUpdate({ target: reportQuality.reportId, set: g });
      return;
    }
    case 3:
      await db()
        .update(reportQuality)
        .set(
          rnd.pick([{ level: rnd.pick(['A', 'B', 'C', 'D']) }, { unsatisfactoryItems: items() }, { updatedAt: at() }]),
        )
        .where(eq(reportQuality.reportId, examId));
      return;
    case 4:
      await db().delete(reportQuality).where(eq(reportQuality.reportId, examId));
      return;
    case 5:
      await db()
        .update(exams)
        .set({ deletedTime: rnd.int(3) === 0 ? at() : null })
        .where(eq(exams.id, examId));
      return;
    case 6:
      await db()
        .update(exams)
        .set({ modality: rnd.pick(MODALITIES) })
        .where(eq(exams.id, examId));
      return;
    case 7:
      await db().update(reports).set({ creatorId: person() }).where(eq(reports.id, examId));
      return;
    case 8:
      await db().delete(reports).where(eq(reports.id, examId));
      return;
    default:
      await db().delete(exams).where(eq(exams.id, examId));
  }
}

function request(by: StatDimension, interval: StatInterval, from: string, to: string, m?: string, doctorId?: string) {
  return dayRequest({ kind: 'quality', by, interval, from, to, bucketIds: [a, b], modality: m, doctorId });
}

/** The direct count, as the statistic answers it. */
async function direct(req: StatRequest): Promise<StatResult> {
  const by = gradeKey(req);
  const keyed = by === 'item' ? await gradesByItem(db(), req) : await gradesBy(db(), req, by);
  return qualityTable(db(), req, keyed, await gradesByPeriod(db(), req, req.interval));
}

async function checkAll(from: string, to: string): Promise<number> {
  let compared = 0;
  for (const by of ['level', 'doctor', 'bucket', 'item'] as const) {
    for (const interval of ['day', 'week', 'month'] as const) {
      for (const [m, doctorId] of [
        [undefined, undefined],
        ['CT', undefined],
        [undefined, people[0]],
      ] as const) {
        const req = request(by, interval, from, to, m, doctorId);
        const what = `quality by ${by} per ${interval} modality ${m ?? 'all'} doctor ${doctorId ?? 'all'} ${from}..${to}`;
        expect(await qualitySource(db(), req), what).toEqual(await direct(req));
        compared += 1;
      }
    }
  }
  return compared;
}

describe('quality rollups: the oracle', () => {
  it('after random writes with refreshes between, statistics/quality from the rollups equals the direct count', async () => {
    for (const seed of [20261128, 3]) {
      const rnd = prng(seed);
      await writeWithRefreshes(db(), [a, b], rnd, 240, randomWrite);
      const graded = await db().execute(sql`select count(*)::int as n from report_quality q
        join exams e on e.id = q.report_id where e.deleted_time is null and q.bucket_id in (${a}, ${b})`);
      expect((graded as unknown as { rows: { n: number }[] }).rows[0]!.n, `seed ${seed}: grades`).toBeGreaterThan(8);
      // a whole month and days around it, and days inside one month
      expect(await checkAll('2026-10-24', '2026-12-05')).toBe(36);
      await checkAll('2026-11-03', '2026-11-17');
    }
  }, 240_000);

  it('notices a missing trigger: without report_quality_stat_update a regrade leaves the rollup stale', async () => {
    const req = request('level', 'day', '2026-10-24', '2026-12-05');
    expect(await qualitySource(db(), req)).toEqual(await direct(req));
    await db().execute(sql`drop trigger report_quality_stat_update on report_quality`);
    await db()
      .update(reportQuality)
      .set({ level: sql`case when ${reportQuality.level} = 'A' then 'D' else 'A' end` })
      .where(inArray(reportQuality.bucketId, [a, b]));
    expect(await qualitySource(db(), req)).not.toEqual(await direct(req));
  });
});

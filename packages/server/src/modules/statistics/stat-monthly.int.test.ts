import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { EMPTY_REPORT_CONTENT, type StatInterval } from '@yyp/contracts';
import { exams, reports } from '../../db/schema.js';
import { makeAccount, makeExam, makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { prng } from './stat-rollup.fixture.js';
import { refreshRollups, type RollupKey, type RollupKind } from './stat-rollup.store.js';
import { sumRolled, sumRolledPeriods } from './stat-monthly.store.js';

/**
 * The month-level rollup (issue 26): after writes spread over five months, and again after
 * deletes, modality changes and approvals moved to other months, stat_monthly is stat_daily summed
 * by month, and every sum served from whole months plus the days around them equals the sum of the
 * days alone, for random ranges, keys and intervals.
 */
let t: TestApp;
let a: string;
let b: string;
let people: string[];
const db = () => t.db.database.db;
const rnd = prng(20261128);

const START = Date.parse('2025-12-31T16:00:00Z'); // 2026-01-01 00:00 hospital time
const SPAN_MS = 150 * 86_400_000;
const at = () => new Date(START + rnd.int(SPAN_MS));
const KINDS: RollupKind[] = ['ex', 'rw', 'ra', 'rp', 'nt'];
/** the same sums read from the days alone */
const DAYS_ONLY = { months: false };

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const org = await makeOrganization(t);
  a = org.bucketId;
  b = (await makeOrganization(t, { groupId: org.groupId })).bucketId;
  people = [];
  for (let i = 0; i < 3; i++) people.push((await makeAccount(t, { signIn: false })).accountId);
  const { examId } = await makeExam(t, a);
  const [template] = await db().select().from(exams).where(eq(exams.id, examId));
  await db().delete(exams).where(eq(exams.id, examId));
  for (let i = 0; i < 160; i++) {
    const id = `monthly-${i}`;
    const bucketId = rnd.pick([a, b]);
    await db()
      .insert(exams)
      .values({
        ...template!,
        id,
        storeUid: `1.2.826.0.2.${i}`,
        bucketId,
        modality: rnd.pick(['CT', 'MR', 'DX', 'CT\\SR']),
        bodyPart: rnd.pick(['CHEST', 'HEAD', '']),
        created: at(),
        deletedTime: null,
      });
    if (rnd.int(10) < 8) {
      const status = rnd.pick(['corrected', 'printed', 'final']);
      await db()
        .insert(reports)
        .values({
          id,
          bucketId,
          status,
          content: { ...EMPTY_REPORT_CONTENT, positive: rnd.pick([true, false, null]) },
          creatorId: rnd.pick(people),
          approverId: status === 'final' ? null : rnd.pick(people),
          noteTakerId: rnd.int(3) === 0 ? rnd.pick(people) : null,
          approvedAt: status === 'final' ? null : at(),
        });
    }
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** Rows of stat_monthly that stat_daily summed by month lacks, and the other way round. */
async function monthlyDrift(): Promise<unknown[]> {
  const result = await db().execute(sql`
    with d as (
      select bucket_id, kind, date_trunc('month', day)::date as month, k1, k2, k3, sum(n)::bigint as n, sum(s)::bigint as s
      from stat_daily where bucket_id in (${a}, ${b}) group by 1, 2, 3, 4, 5, 6
    ), m as (
      select bucket_id, kind, month, k1, k2, k3, n, s from stat_monthly where bucket_id in (${a}, ${b})
    )
    (select 'missing' as side, * from d except select 'missing', * from m)
    union all
    (select 'extra' as side, * from m except select 'extra', * from d)`);
  return (result as unknown as { rows: unknown[] }).rows;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const sorted = <T>(xs: T[]) => xs.map((x) => JSON.stringify(x)).sort();

/** Random ranges (some a few days, some several months, from before the data to after it). */
async function expectSumsAgree(rounds: number): Promise<void> {
  const lo = Date.parse('2025-12-10T00:00:00Z');
  for (let i = 0; i < rounds; i++) {
    const from = lo + rnd.int(170) * 86_400_000;
    const to = from + rnd.int(rnd.int(2) ? 12 : 160) * 86_400_000;
    const q = {
      bucketIds: rnd.int(3) ? [a, b] : [a],
      from: day(from),
      to: day(to),
      kinds: KINDS.filter(() => rnd.int(2) === 1).concat(rnd.pick(KINDS)),
      k1: rnd.int(4) === 0 ? rnd.pick(people) : undefined,
      k2: rnd.int(4) === 0 ? rnd.pick(['CT', 'MR']) : undefined,
    };
    const key = rnd.pick<RollupKey>(['k1', 'k2', 'k3', 'bucket']);
    const sub = rnd.int(3) === 0 ? ('k2' as const) : undefined;
    const interval = rnd.pick<StatInterval>(['day', 'week', 'month', 'year']);
    const label = `${q.from}..${q.to} ${key}/${sub ?? ''} ${interval}`;
    expect(sorted(await sumRolled(db(), q, key, sub)), label).toEqual(
      sorted(await sumRolled(db(), q, key, sub, DAYS_ONLY)),
    );
    expect(sorted(await sumRolledPeriods(db(), q, interval)), label).toEqual(
      sorted(await sumRolledPeriods(db(), q, interval, DAYS_ONLY)),
    );
  }
}

describe('stat_monthly', () => {
  it('is stat_daily summed by month after a refresh, and whole months sum as their days do', async () => {
    await refreshRollups(db(), [a, b]);
    const months = await db().execute(sql`select count(distinct month)::int as n from stat_monthly
      where bucket_id in (${a}, ${b})`);
    expect((months as unknown as { rows: { n: number }[] }).rows[0]!.n).toBeGreaterThanOrEqual(5);
    expect(await monthlyDrift()).toEqual([]);
    await expectSumsAgree(60);
  });

  it('follows deletes, modality changes and approvals moved to another month', async () => {
    const ids = (
      await db()
        .select({ id: reports.id })
        .from(reports)
        .where(inArray(reports.bucketId, [a, b]))
    ).map((r) => r.id);
    for (let i = 0; i < 40; i++) {
      const id = rnd.pick(ids);
      switch (rnd.int(3)) {
        case 0:
          await db().delete(exams).where(eq(exams.id, id));
          break;
        case 1:
          await db().update(exams).set({ modality: 'US', created: at() }).where(eq(exams.id, id));
          break;
        default:
          await db()
            .update(reports)
            .set({ approvedAt: at(), approverId: rnd.pick(people) })
            .where(eq(reports.id, id));
      }
    }
    await refreshRollups(db(), [a, b]);
    expect(await monthlyDrift()).toEqual([]);
    await expectSumsAgree(60);
  });
});

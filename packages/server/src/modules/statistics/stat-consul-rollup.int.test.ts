import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { StatDimension, StatInterval } from '@yyp/contracts';
import { consultations } from '../../db/schema.js';
import { makeOrganization } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { prng } from './stat-rollup.fixture.js';
import { dayRequest, shape, writeWithRefreshes } from './stat-oracle.fixture.js';
import { consulStats } from './stat-consul-rollup.store.js';
import { consulDirect } from './stat-consul-direct.fixture.js';
import { refreshRollups } from './stat-rollup.store.js';

/**
 * The consultations' rollup oracle (issue 26): consultations written straight (the triggers of
 * migration 0056 mark both sides' days): asked between organizations of two groups, within one and
 * of the asking organization itself; scheduled, completed, cancelled; rated; moved to other
 * organizations and other days; deleted; a column the rollup does not read changed; with refreshes
 * between. Then statistics/consul from the rollup must answer what the count over the
 * consultations answers, by organization and by the other side, every interval, over months, parts
 * of months and one day, for one, two and three organizations.
 */
let t: TestApp;
let buckets: string[];
let groupIds: string[];
const db = () => t.db.database.db;

const DAY0 = Date.parse('2026-09-27T16:00:00Z');
const SPAN_MS = 70 * 86_400_000;
const OPS = [0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6];
let serial = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const one = await makeOrganization(t);
  const two = await makeOrganization(t, { groupId: one.groupId });
  const other = await makeOrganization(t);
  buckets = [one.bucketId, two.bucketId, other.bucketId];
  groupIds = [one.groupId, one.groupId, other.groupId];
}, 120_000);

afterAll(async () => {
  await t?.close();
});

function instant(rnd: ReturnType<typeof prng>): Date {
  const ms = DAY0 + rnd.int(SPAN_MS);
  // now and then on a hospital day's first or last millisecond
  return new Date(rnd.int(5) === 0 ? ms - ((ms + 8 * 3_600_000) % 86_400_000) - rnd.int(2) : ms);
}

async function write(rnd: ReturnType<typeof prng>): Promise<void> {
  const op = OPS[rnd.int(OPS.length)]!;
  const all = await db().select({ id: consultations.id }).from(consultations);
  if (op === 0 || all.length === 0) {
    const side = rnd.int(3);
    const created = instant(rnd);
    await db()
      .insert(consultations)
      .values({
        id: `cs-${++serial}`,
        groupId: groupIds[side]!,
        sourceBucketId: buckets[side]!,
        // now and then asked of itself
        targetBucketId: rnd.int(6) === 0 ? buckets[side]! : rnd.pick(buckets),
        title: `会诊 ${serial}`,
        patientName: '张三',
        scheduledAt: created,
        status: rnd.int(4),
        created,
      });
    return;
  }
  const id = all[rnd.int(all.length)]!.id;
  if (op === 1) {
    const status = rnd.int(4);
    await db()
      .update(consultations)
      .set({ status, ...(status === 2 && rnd.int(2) === 0 ? { ratingScore: 1 + rnd.int(5) } : {}) })
      .where(eq(consultations.id, id));
  }
  if (op === 2) {
    await db()
      .update(consultations)
      .set({ sourceBucketId: rnd.pick(buckets), targetBucketId: rnd.pick(buckets) })
      .where(eq(consultations.id, id));
  }
  if (op === 3) {
    await db()
      .update(consultations)
      .set({ created: instant(rnd) })
      .where(eq(consultations.id, id));
  }
  if (op === 4) await db().delete(consultations).where(eq(consultations.id, id));
  if (op === 5) {
    await db()
      .update(consultations)
      .set({ note: `note ${serial}` })
      .where(eq(consultations.id, id));
  }
  if (op === 6) {
    await db()
      .update(consultations)
      .set({ ratingScore: 1 + rnd.int(5) })
      .where(eq(consultations.id, id));
  }
}

const RANGES = [
  { from: '2026-10-01', to: '2026-11-30' },
  { from: '2026-09-28', to: '2026-12-05' },
  { from: '2026-10-20', to: '2026-11-17' },
  { from: '2026-11-03', to: '2026-11-03' },
];
const DIMENSIONS: StatDimension[] = ['bucket', 'counterpart'];
const INTERVALS: StatInterval[] = ['day', 'week', 'month', 'year'];

async function compareAll(label: string): Promise<number> {
  let compared = 0;
  const scopes = [buckets, [buckets[0]!], [buckets[0]!, buckets[1]!], [buckets[1]!, buckets[2]!]];
  for (const range of RANGES) {
    for (const bucketIds of scopes) {
      await refreshRollups(db(), bucketIds);
      for (const by of DIMENSIONS) {
        for (const interval of INTERVALS) {
          const req = dayRequest({ kind: 'consul', by, interval, bucketIds, ...range });
          const what = `${label}: ${by} by ${interval}, ${range.from}..${range.to}, ${bucketIds.join(',')}`;
          expect(shape(await consulStats(db(), req)), what).toEqual(shape(await consulDirect(db(), req)));
          compared++;
        }
      }
    }
  }
  return compared;
}

describe('consultations rollup oracle', () => {
  it('answers what the count over the consultations answers after random writes', async () => {
    const rnd = prng(2630);
    await writeWithRefreshes(db(), buckets, rnd, 220, write);
    expect(await compareAll('after 220 writes')).toBe(RANGES.length * 4 * DIMENSIONS.length * INTERVALS.length);
    const counted = await db().execute(sql`select count(*)::int as n, count(rating_score)::int as rated,
      count(*) filter (where source_bucket_id = target_bucket_id)::int as own from consultations`);
    const { n, rated, own } = (counted as { rows: { n: number; rated: number; own: number }[] }).rows[0]!;
    expect(Number(n)).toBeGreaterThan(40);
    expect(Number(rated)).toBeGreaterThan(8);
    expect(Number(own)).toBeGreaterThan(2);
    await writeWithRefreshes(db(), buckets, rnd, 100, write);
    await compareAll('after 320 writes');
  }, 300_000);

  it('answers zero totals, and no rows, where nothing was asked', async () => {
    const req = dayRequest({
      kind: 'consul',
      by: 'bucket',
      interval: 'month',
      bucketIds: buckets,
      from: '2025-01-01',
      to: '2025-01-31',
    });
    await refreshRollups(db(), buckets);
    const served = shape(await consulStats(db(), req));
    expect(served).toEqual(shape(await consulDirect(db(), req)));
    expect(served.totals).toEqual({ requested: 0, completed: 0, cancelled: 0, ratings: 0, ratingAverage: null });
  });
});

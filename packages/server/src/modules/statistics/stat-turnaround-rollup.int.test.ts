import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { StatDimension, StatInterval } from '@yyp/contracts';
import { examSteps, groups } from '../../db/schema.js';
import { makeDesk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { prng } from './stat-rollup.fixture.js';
import { dayRequest, shape, writeWithRefreshes } from './stat-oracle.fixture.js';
import { turnaroundTable } from './sources.turnaround.js';
import { summarize } from './stat-histogram.js';
import { overdueExams, slowestExams, turnaroundStats } from './stat-turnaround.store.js';

/**
 * The turnaround rollup's oracle (issue 26): exam_steps rows written straight (the rollup reads
 * nothing else; its trigger marks the approval days): inserted, approved, re-approved and
 * un-approved, registration times moved (some after the approval), modality, room and writer
 * changed, made dead and live, moved to another organization, deleted, and a column the rollup
 * does not read changed; with refreshes between. Then statistics/turnaround from the histograms
 * must answer what the count over exam_steps answers, by every dimension and interval, over whole
 * months, parts of months and one day, for organizations of two groups (one with a target).
 */
let t: TestApp;
let buckets: string[];
let doctors: string[];
const db = () => t.db.database.db;
const steps = { fromStep: 'registered', toStep: 'approved' } as const;

const DAY0 = Date.parse('2026-09-27T16:00:00Z');
const SPAN_MS = 70 * 86_400_000;
const MODALITIES = ['CT', 'MR', 'DX'];
const ROOMS = ['CT 室', 'MR 室', ''];
const OPS = [0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7];
let serial = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const one = await makeDesk(t);
  const two = await makeDesk(t, { groupId: one.org.groupId });
  const other = await makeDesk(t);
  buckets = [one.org.bucketId, two.org.bucketId, other.org.bucketId];
  doctors = [one.doctor.accountId, two.doctor.accountId, 'no-such-account'];
  await db()
    .update(groups)
    .set({ settings: sql`coalesce(${groups.settings}, '{}'::jsonb) || '{"turnaroundTargetMinutes": 240}'::jsonb` })
    .where(eq(groups.id, one.org.groupId));
}, 90_000);

afterAll(async () => {
  await t?.close();
});

async function anyRow(rnd: ReturnType<typeof prng>) {
  const rows = await db().select({ id: examSteps.id }).from(examSteps);
  return rows.length ? rows[rnd.int(rows.length)]!.id : null;
}

/** A time in the span; now and then on a whole minute, so some intervals are whole minutes. */
function instant(rnd: ReturnType<typeof prng>): Date {
  const ms = DAY0 + rnd.int(SPAN_MS);
  return new Date(rnd.int(3) === 0 ? ms - (ms % 60_000) : ms);
}

/** An approval after the registration (minutes to days), now and then none or before it. */
function approvedAfter(rnd: ReturnType<typeof prng>, registered: Date): Date | null {
  const r = rnd.int(12);
  if (r === 0) return null;
  if (r === 1) return new Date(registered.getTime() - 60_000 * (1 + rnd.int(30)));
  const minutes = r < 4 ? rnd.int(60) : rnd.int(3000);
  return new Date(registered.getTime() + minutes * 60_000 + (rnd.int(2) ? rnd.int(60_000) : 0));
}

async function write(rnd: ReturnType<typeof prng>): Promise<void> {
  const op = OPS[rnd.int(OPS.length)]!;
  const id = op === 0 ? null : await anyRow(rnd);
  if (op === 0 || id === null) {
    const registered = instant(rnd);
    await db()
      .insert(examSteps)
      .values({
        id: `ts-${++serial}`,
        bucketId: buckets[rnd.int(buckets.length)]!,
        modality: MODALITIES[rnd.int(MODALITIES.length)]!,
        room: ROOMS[rnd.int(ROOMS.length)]!,
        doctorId: rnd.int(5) === 0 ? null : doctors[rnd.int(doctors.length)]!,
        live: rnd.int(10) !== 0,
        registeredAt: rnd.int(15) === 0 ? null : registered,
        approvedAt: approvedAfter(rnd, registered),
      });
    return;
  }
  const [row] = await db().select().from(examSteps).where(eq(examSteps.id, id));
  const set: Partial<typeof examSteps.$inferInsert> = {};
  if (op === 1) set.approvedAt = approvedAfter(rnd, row!.registeredAt ?? instant(rnd));
  if (op === 2) set.registeredAt = rnd.int(8) === 0 ? null : instant(rnd);
  if (op === 3) {
    set.modality = MODALITIES[rnd.int(MODALITIES.length)]!;
    set.room = ROOMS[rnd.int(ROOMS.length)]!;
    set.doctorId = doctors[rnd.int(doctors.length)]!;
  }
  if (op === 4) set.live = !row!.live;
  if (op === 5) set.bucketId = buckets[rnd.int(buckets.length)]!;
  if (op === 7) set.calledAt = instant(rnd);
  if (op === 6) await db().delete(examSteps).where(eq(examSteps.id, id));
  else await db().update(examSteps).set(set).where(eq(examSteps.id, id));
}

const RANGES = [
  { from: '2026-10-01', to: '2026-11-30' }, // whole months
  { from: '2026-09-28', to: '2026-12-05' }, // whole months and days around them
  { from: '2026-10-20', to: '2026-11-17' }, // no whole month
  { from: '2026-11-03', to: '2026-11-03' }, // one day
];
const DIMENSIONS: StatDimension[] = ['modality', 'room', 'doctor', 'hour'];
const INTERVALS: StatInterval[] = ['day', 'week', 'month', 'year'];

async function compareAll(label: string): Promise<number> {
  let compared = 0;
  for (const range of RANGES) {
    for (const bucketIds of [buckets, [buckets[0]!]]) {
      for (const by of DIMENSIONS) {
        for (const interval of INTERVALS) {
          const req = dayRequest({ kind: 'turnaround', by, interval, bucketIds, ...range });
          const rolled = shape(await turnaroundTable(db(), req, steps));
          const raw = shape(await turnaroundStats(db(), req, steps));
          expect(rolled, `${label}: ${by} by ${interval}, ${range.from}..${range.to}, ${bucketIds.length}`).toEqual(
            raw,
          );
          compared++;
        }
      }
    }
  }
  return compared;
}

describe('turnaround rollup oracle', () => {
  it('answers what the count over exam_steps answers after random writes', async () => {
    const rnd = prng(2611);
    await writeWithRefreshes(db(), buckets, rnd, 220, write);
    expect(await compareAll('after 220 writes')).toBe(RANGES.length * 2 * DIMENSIONS.length * INTERVALS.length);
    const approved = await db().execute(sql`select count(*)::int as n from exam_steps where approved_at is not null`);
    const n = Number((approved as { rows: { n: number }[] }).rows[0]!.n);
    expect(n).toBeGreaterThan(60);
    // More writes on days already counted, then the same again.
    await writeWithRefreshes(db(), buckets, rnd, 120, write);
    await compareAll('after 340 writes');
  }, 240_000);

  it('lists the slowest and the overdue as one sort of all the rows would, across organizations', async () => {
    // a few more exams waiting for approval in each organization with a target
    for (const [i, bucketId] of [buckets[0]!, buckets[1]!].entries()) {
      for (let k = 0; k < 4; k++) {
        const registeredAt = new Date(Date.parse('2026-10-05T01:00:00Z') + (k * 7 + i) * 3_600_000);
        await db()
          .insert(examSteps)
          .values({ id: `wait-${i}-${k}`, bucketId, modality: 'CT', registeredAt });
      }
    }
    const rows = await db().select().from(examSteps);
    const targets = new Map([
      [buckets[0]!, 240],
      [buckets[1]!, 240],
    ]);
    const range = { from: '2026-10-01', to: '2026-11-30' };
    const req = dayRequest({ kind: 'turnaround', by: 'modality', interval: 'month', bucketIds: buckets, ...range });
    const inRange = (at: Date | null) => at !== null && at >= req.start && at < req.end;
    const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    const expected = rows
      .filter((r) => r.live && r.registeredAt && inRange(r.approvedAt) && r.registeredAt <= r.approvedAt!)
      .map((r) => ({ id: r.id, ms: r.approvedAt!.getTime() - r.registeredAt!.getTime() }))
      .sort((a, b) => b.ms - a.ms || byId(a, b))
      .slice(0, 7);
    const slowest = await slowestExams(db(), req, steps, 7);
    expect(slowest.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    const now = new Date('2026-12-06T00:00:00Z');
    const overdue = rows
      .filter((r) => r.live && inRange(r.registeredAt) && r.approvedAt === null && targets.has(r.bucketId))
      .filter((r) => (now.getTime() - r.registeredAt!.getTime()) / 60_000 > targets.get(r.bucketId)!)
      .sort((a, b) => a.registeredAt!.getTime() - b.registeredAt!.getTime() || byId(a, b));
    // more than the list holds in each organization with a target, so each one's own order counts
    for (const b of targets.keys()) expect(overdue.filter((r) => r.bucketId === b).length).toBeGreaterThan(2);
    const listed = await overdueExams(db(), req, steps, now, 2);
    expect(listed.map((r) => r.id)).toEqual(overdue.slice(0, 2).map((r) => r.id));
  });

  it('computes percentiles as percentile_cont does: linear between the nearest ranks', () => {
    const h = (xs: number[]) => {
      const m = new Map<number, number>();
      for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
      return m;
    };
    expect(summarize([{ h: h([50, 60, 90]), target: 55 }])).toEqual({ exams: 3, median: 60, p90: 84, over: 2 });
    expect(summarize([{ h: h([10]), target: null }])).toEqual({ exams: 1, median: 10, p90: 10, over: 0 });
    // two organizations: one with a target of 20, one without
    expect(
      summarize([
        { h: h([10, 30]), target: 20 },
        { h: h([40, 40]), target: null },
      ]),
    ).toEqual({
      exams: 4,
      median: 35,
      p90: 40,
      over: 1,
    });
    expect(summarize([])).toEqual({ exams: 0, median: null, p90: null, over: 0 });
  });
});

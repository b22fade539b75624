import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { StatDimension, StatInterval } from '@yyp/contracts';
import { exams, orders } from '../../db/schema.js';
import { makeDesk } from '../../test/factories-registry.js';
import { makeExam } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { prng } from './stat-rollup.fixture.js';
import { dayRequest, shape, writeWithRefreshes } from './stat-oracle.fixture.js';
import { remoteReportTable } from './sources.remote.js';
import { refreshRollups } from './stat-rollup.store.js';
import { remoteReportDirect } from './stat-remote-direct.fixture.js';

/**
 * The remote-report rollup's oracle (issue 26): orders written straight (the rollup reads them and
 * their exams' modality; its triggers mark both sides' days): inserted (remote, expert and
 * consultation fees, free and paid, between organizations of two groups and within one), reported
 * (some before payment, some on a whole minute), cancelled, paid and refunded, moved to other
 * organizations and other days, repriced, deleted, a column the rollup does not read changed, and
 * the exams' modality changed; with refreshes between. Then statistics/remote-report from the
 * rollup must answer what the count over the orders answers, by every dimension and interval, with
 * and without a modality filter, over whole months, parts of months and one day, for one, two and
 * three organizations.
 */
let t: TestApp;
let buckets: string[];
let groupIds: string[];
let examIds: string[];
const db = () => t.db.database.db;

const DAY0 = Date.parse('2026-09-27T16:00:00Z');
const SPAN_MS = 70 * 86_400_000;
const MODALITIES = ['CT', 'MR', 'DX', 'CT\\SR', 'US'];
const STATUSES = ['applied', 'reporting', 'reported', 'reported', 'cancelled'];
const OPS = [0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8];
let serial = 0;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const one = await makeDesk(t);
  const two = await makeDesk(t, { groupId: one.org.groupId });
  const other = await makeDesk(t);
  buckets = [one.org.bucketId, two.org.bucketId, other.org.bucketId];
  groupIds = [one.org.groupId, one.org.groupId, other.org.groupId];
  examIds = [];
  for (let i = 0; i < 24; i++) {
    const bucketId = buckets[i % 3]!;
    examIds.push((await makeExam(t, bucketId, { modality: (['CT', 'MR', 'DX'] as const)[i % 3]! })).examId);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** A time in the span; now and then on a whole minute. */
function instant(rnd: ReturnType<typeof prng>): Date {
  const ms = DAY0 + rnd.int(SPAN_MS);
  return new Date(rnd.int(3) === 0 ? ms - (ms % 60_000) : ms);
}

/** The report's time: minutes to days after `from`, on a whole minute now and then, or before it. */
function reportedAfter(rnd: ReturnType<typeof prng>, from: Date): Date {
  if (rnd.int(10) === 0) return new Date(from.getTime() - 60_000 * (1 + rnd.int(30)));
  const minutes = rnd.int(2) ? rnd.int(90) : rnd.int(4000);
  return new Date(from.getTime() + minutes * 60_000 + (rnd.int(2) ? rnd.int(60_000) : 0));
}

/** A payment state and its time (none, or after the order was made). */
function payment(rnd: ReturnType<typeof prng>, created: Date) {
  const paymentStatus = rnd.int(5);
  return { paymentStatus, paidAt: paymentStatus === 0 ? null : new Date(created.getTime() + rnd.int(120) * 60_000) };
}

/** A status and, when reported, the report's time. */
function status(rnd: ReturnType<typeof prng>, from: Date) {
  const s = STATUSES[rnd.int(STATUSES.length)]!;
  return { status: s, reportedAt: s === 'reported' && rnd.int(12) !== 0 ? reportedAfter(rnd, from) : null };
}

async function anyOrder(rnd: ReturnType<typeof prng>) {
  const rows = await db().select({ id: orders.id }).from(orders);
  return rows.length ? rows[rnd.int(rows.length)]!.id : null;
}

async function write(rnd: ReturnType<typeof prng>): Promise<void> {
  const op = OPS[rnd.int(OPS.length)]!;
  if (op === 6) {
    const modality = MODALITIES[rnd.int(MODALITIES.length)]!;
    await db()
      .update(exams)
      .set({ modality })
      .where(eq(exams.id, examIds[rnd.int(examIds.length)]!));
    return;
  }
  const id = op === 0 ? null : await anyOrder(rnd);
  if (id === null) {
    const created = instant(rnd);
    const side = rnd.int(3);
    const pay = payment(rnd, created);
    const type = ['remote', 'expert', 'expert', 'consultation'][rnd.int(4)]!;
    const values = {
      id: `ro-${++serial}`,
      orderNo: `RO-${serial}`,
      type,
      groupId: groupIds[side]!,
      requestBucketId: buckets[side]!,
      targetBucketId: buckets[rnd.int(buckets.length)]!,
      examId: examIds[rnd.int(examIds.length)]!,
      priceFen: rnd.int(4) === 0 ? 0 : 5_000,
      ...pay,
      ...status(rnd, pay.paidAt ?? created),
      created,
    };
    // one live report order per exam (orders_exam_live_idx): a second one is made cancelled
    const [live] = await db()
      .select({ id: orders.id })
      .from(orders)
      .where(
        sql`${orders.examId} = ${values.examId} and ${orders.status} <> 'cancelled' and ${orders.type} <> 'consultation'`,
      );
    if (live && type !== 'consultation') Object.assign(values, { status: 'cancelled', reportedAt: null });
    await db().insert(orders).values(values);
    return;
  }
  const [row] = await db().select().from(orders).where(eq(orders.id, id));
  const set: Partial<typeof orders.$inferInsert> = {};
  if (op === 1) Object.assign(set, status(rnd, row!.paidAt ?? row!.created));
  if (op === 2) Object.assign(set, payment(rnd, row!.created));
  if (op === 3) {
    set.requestBucketId = buckets[rnd.int(buckets.length)]!;
    set.targetBucketId = buckets[rnd.int(buckets.length)]!;
  }
  if (op === 4) set.created = instant(rnd);
  if (op === 7) set.reason = `reason ${serial}`;
  if (op === 8) set.priceFen = row!.priceFen === 0 ? 8_000 : 0;
  if (op === 5) {
    await db().delete(orders).where(eq(orders.id, id));
    return;
  }
  // a cancelled order made live again would be a second live order of its exam: it stays cancelled
  if (set.status && set.status !== 'cancelled' && row!.status === 'cancelled') return;
  await db().update(orders).set(set).where(eq(orders.id, id));
}

const RANGES = [
  { from: '2026-10-01', to: '2026-11-30' }, // whole months
  { from: '2026-09-28', to: '2026-12-05' }, // whole months and days around them
  { from: '2026-10-20', to: '2026-11-17' }, // no whole month
  { from: '2026-11-03', to: '2026-11-03' }, // one day
];
const DIMENSIONS: StatDimension[] = ['bucket', 'counterpart', 'modality'];
const INTERVALS: StatInterval[] = ['day', 'week', 'month', 'year'];

async function compareAll(label: string): Promise<number> {
  let compared = 0;
  const scopes = [buckets, [buckets[0]!], [buckets[0]!, buckets[2]!]];
  for (const range of RANGES) {
    for (const bucketIds of scopes) {
      for (const by of DIMENSIONS) {
        for (const interval of INTERVALS) {
          for (const modality of interval === 'month' ? [undefined, 'CT', 'MR'] : [undefined]) {
            const req = dayRequest({ kind: 'remote-report', by, interval, bucketIds, ...range, modality });
            const rolled = shape(await remoteReportTable(db(), req));
            const direct = shape(await remoteReportDirect(db(), req));
            const what = `${label}: ${by} by ${interval} ${modality ?? ''}, ${range.from}..${range.to}, ${bucketIds.length}`;
            expect(rolled, what).toEqual(direct);
            compared++;
          }
        }
      }
    }
  }
  return compared;
}

describe('remote-report rollup oracle', () => {
  it('answers what the count over the orders answers after random writes', async () => {
    const rnd = prng(2612);
    await writeWithRefreshes(db(), buckets, rnd, 300, write);
    const perCase = DIMENSIONS.length * (INTERVALS.length + 2);
    expect(await compareAll('after 300 writes')).toBe(RANGES.length * 3 * perCase);
    const counted = await db().execute(sql`select count(*) filter (where status = 'reported')::int as reported,
      count(*) filter (where type <> 'consultation')::int as n from orders`);
    const { reported, n } = (counted as { rows: { reported: number; n: number }[] }).rows[0]!;
    expect(Number(n)).toBeGreaterThan(50);
    expect(Number(reported)).toBeGreaterThan(12);
    // More writes on days already counted, then the same again.
    await writeWithRefreshes(db(), buckets, rnd, 120, write);
    await compareAll('after 420 writes');
  }, 300_000);

  it("migration 0054's count of the orders already made is the recount's", async () => {
    await refreshRollups(db(), buckets);
    const all = async () =>
      (
        (await db().execute(sql`select * from stat_remote
          order by bucket_id, span, day, side, other_bucket_id, modality, reached`)) as { rows: unknown[] }
      ).rows;
    const recounted = await all();
    expect(recounted.length).toBeGreaterThan(50);
    const file = fs.readFileSync(new URL('../../../drizzle/0054_stat_remote.sql', import.meta.url), 'utf8');
    const fills = file
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter((s) => /^(-- .*\n)*WITH /.test(s));
    expect(fills).toHaveLength(2);
    await db().execute(sql`delete from stat_remote`);
    for (const statement of fills) await db().execute(sql.raw(statement));
    expect(await all()).toEqual(recounted);
  });
});

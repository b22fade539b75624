import { hospitalDate, type StatTable } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema.js';
import { consultationAt, makeConsultationWorld, type ConsultationWorld } from '../../test/factories-consultations.js';
import { joinOrganization, makeGroupMember, makeMember, type BuiltAccount } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { recordOrderPaid } from '../orders/index.js';
import { applyOk, makeOrdersWorld, newExam, type OrdersWorld } from '../orders/orders.fixture.js';

/**
 * statistics/remote-report (remote_report_stats) and statistics/consul (consultation_stats), issue
 * 26: orders and consultations counted from each side's organization, by the time they were made,
 * an order or a consultation between two counted organizations once in the periods and totals.
 */
let t: TestApp;
let w: OrdersWorld;
let cw: ConsultationWorld;
let day: string;
/** the clinic's group admin, the experts' group admin, and one member counting in both */
let clinicHead: BuiltAccount;
let expertHead: BuiltAccount;
let both: BuiltAccount;
const MIN = 60_000;

const table = async (kind: 'remote-report' | 'consul', token: string, query: Record<string, string> = {}) => {
  const res = await t.as(token).get(`statistics/${kind}?${new URLSearchParams({ from: day, to: day, ...query })}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StatTable;
};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeOrdersWorld(t);
  day = hospitalDate(t.clock.now());
  clinicHead = w.clinicAdmin;
  expertHead = await makeGroupMember(t, w.experts.org.groupId, 1);
  both = await makeMember(t, w.clinic.org.bucketId, { actions: ['remote_report_stats', 'consultation_stats'] });
  await joinOrganization(t, w.experts.org.bucketId, both.accountId, {
    actions: ['remote_report_stats', 'consultation_stats'],
  });
  const db = t.db.database.db;
  const t0 = t.clock.now().getTime();
  // Two paid orders reported back 90 and 150 minutes after payment ...
  for (const [paidAfter, minutes] of [
    [0, 90],
    [30, 150],
  ] as const) {
    const order = await applyOk(t, w, await newExam(t, w));
    await recordOrderPaid(db, order.id, {
      channel: 'weixin',
      paidFen: order.priceFen,
      paidAt: new Date(t0 + paidAfter * MIN),
    });
    // (the expert's approval publishes it back: orders-flow.int.test.ts drives that path end to end)
    await db
      .update(orders)
      .set({ status: 'reported', reportedAt: new Date(t0 + (paidAfter + minutes) * MIN) })
      .where(eq(orders.id, order.id));
  }
  // ... one never paid (so it never reached the experts), then cancelled ...
  const unpaid = await applyOk(t, w, await newExam(t, w));
  const cancelled = await t
    .as(w.clinic.doctor.token)
    .post(`request/${unpaid.id}/cancel-remote`, { reason: '患者转院', version: unpaid.version });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  // ... and a consultation's fee, which is no report order.
  await db.insert(orders).values({
    id: 'fee-order',
    orderNo: 'C-FEE-1',
    type: 'consultation',
    groupId: w.clinic.org.groupId,
    requestBucketId: w.clinic.org.bucketId,
    targetBucketId: w.experts.org.bucketId,
    examId: await newExam(t, w),
    priceFen: 8_000,
    paymentStatus: 1,
    paidAt: t.clock.now(),
    created: t.clock.now(),
  });
});
afterAll(async () => {
  await t.close();
});

describe('statistics/remote-report', () => {
  const expected = (sent: number, received: number, cancelled: number) => ({
    sent,
    received,
    reported: 2,
    cancelled,
    medianMinutes: 120,
    p90Minutes: 144,
  });

  it("the requester's side: sent, reported, cancelled and the turnaround per expert organization", async () => {
    const tb = await table('remote-report', clinicHead.token);
    expect(tb.by).toBe('counterpart');
    expect(tb.columns).toEqual(['sent', 'received', 'reported', 'cancelled', 'medianMinutes', 'p90Minutes']);
    expect(tb.rows).toEqual([{ key: w.experts.org.bucketId, label: '远程专家中心', values: expected(3, 0, 1) }]);
    expect(tb.periods).toEqual([{ period: day, values: expected(3, 0, 1) }]);
    expect(tb.totals).toEqual(expected(3, 0, 1));
    expect(tb.warning).toBeNull();
  });

  it("the experts' side: received once it reached them (the unpaid cancelled order never did)", async () => {
    const tb = await table('remote-report', expertHead.token);
    expect(tb.rows).toEqual([{ key: w.clinic.org.bucketId, label: '县医院放射科', values: expected(0, 2, 0) }]);
  });

  it('an order between two counted organizations is one order in the periods and totals', async () => {
    const tb = await table('remote-report', both.token, { by: 'bucket' });
    const byKey = new Map(tb.rows.map((r) => [r.key, r.values]));
    expect(byKey.get(w.clinic.org.bucketId)).toEqual(expected(3, 0, 1));
    expect(byKey.get(w.experts.org.bucketId)).toEqual(expected(0, 2, 0));
    // Counted twice, the 90th percentile of 90, 90, 150, 150 would be 150.
    expect(tb.totals).toEqual(expected(3, 2, 1));
    const ct = await table('remote-report', both.token, { by: 'modality', modality: 'CT' });
    expect(ct.rows).toEqual([{ key: 'CT', label: 'CT', values: expected(3, 2, 1) }]);
    const mr = await table('remote-report', both.token, { modality: 'MR' });
    expect([mr.rows, mr.totals.sent, mr.totals.medianMinutes]).toEqual([[], 0, null]);
  });

  it('warns beyond a year, refuses a caller without the action', async () => {
    const long = await t.as(clinicHead.token).get(`statistics/remote-report?from=2025-01-01&to=${day}`);
    expect(long.json()).toMatchObject({ warning: 'rangeBeyondYear' });
    const res = await t.as(w.clinic.tech.token).get(`statistics/remote-report?from=${day}&to=${day}`);
    expect(res.statusCode).toBe(403);
  });
});

describe('statistics/consul', () => {
  beforeAll(async () => {
    cw = await makeConsultationWorld(t);
    const done = await consultationAt(t, cw, 'completed');
    const rated = await t.as(cw.clinic.doctor.token).post(`consultations/${done.id}/rating`, { score: 4 });
    expect(rated.statusCode, rated.body).toBe(200);
    const done2 = await consultationAt(t, cw, 'completed');
    expect((await t.as(cw.clinic.doctor.token).post(`consultations/${done2.id}/rating`, { score: 5 })).statusCode).toBe(
      200,
    );
    const pending = await consultationAt(t, cw, 'pending');
    const cancelled = await t
      .as(cw.clinic.doctor.token)
      .post(`consultations/${pending.id}/cancel`, { reason: '患者转院', version: pending.version });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await consultationAt(t, cw, 'scheduled');
  });

  it('counts requested, completed, cancelled and the ratings on both sides', async () => {
    const values = { requested: 4, completed: 2, cancelled: 1, ratings: 2, ratingAverage: 4.5 };
    const clinicAdmin = await table('consul', cw.clinicAdmin.token);
    expect(clinicAdmin.by).toBe('bucket');
    expect(clinicAdmin.columns).toEqual(['requested', 'completed', 'cancelled', 'ratings', 'ratingAverage']);
    expect(clinicAdmin.rows).toEqual([{ key: cw.clinic.org.bucketId, label: '县医院放射科', values }]);
    expect(clinicAdmin.totals).toEqual(values);
    const centreHead = await makeGroupMember(t, cw.centre.org.groupId, 1);
    const theirs = await table('consul', centreHead.token, { by: 'counterpart' });
    expect(theirs.rows).toEqual([{ key: cw.clinic.org.bucketId, label: '县医院放射科', values }]);
    expect(theirs.periods).toEqual([{ period: day, values }]);
    // A day without consultations: zero counts, no average.
    const empty = await t.as(centreHead.token).get('statistics/consul?from=2026-01-01&to=2026-01-01');
    expect(empty.json()).toMatchObject({
      rows: [],
      totals: { requested: 0, completed: 0, cancelled: 0, ratings: 0, ratingAverage: null },
    });
  });

  it("never counts another group's consultations", async () => {
    // The orders world's clinic has no consultation of its own.
    const tb = await table('consul', clinicHead.token);
    expect([tb.rows, tb.totals.requested]).toEqual([[], 0]);
  });
});

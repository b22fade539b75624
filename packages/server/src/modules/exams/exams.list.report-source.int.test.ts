import type { ExamPage } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams, orders } from '../../db/schema.js';
import { softDelete } from './exams.lifecycle.store.js';
import { makeExam } from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { recordOrderPaid } from '../orders/index.js';
import { applyOk, makeOrdersWorld, newExam, type OrdersWorld } from '../orders/orders.fixture.js';

/**
 * The study list's report-source filter (spec 000 §6; issue 24): in the expert organization, '2'
 * lists the remote copies an expert read brought in, '1' its own exams, '0' (or none) all of them;
 * the count follows the filter, on the page and on POST exams/query/count.
 */
let t: TestApp;
let w: OrdersWorld;
const ids = { own1: '', own2: '', clinicExam: '', remote: '' };

const source = (value: string | number) => ({ field: 'reportSource', operator: 'eq', values: [value] });

async function list(token: string, filters: unknown[], extra: Record<string, unknown> = {}): Promise<ExamPage> {
  const res = await t.as(token).post('exams/page-query', { filters, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ExamPage;
}
async function count(token: string, filters: unknown[]): Promise<number> {
  const res = await t.as(token).post('exams/query/count', { filters });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { count: number }).count;
}

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeOrdersWorld(t);
  ids.own1 = (await makeExam(t, w.experts.org.bucketId, { patientName: 'Zhou^Yi' })).examId;
  t.clock.advance(60_000);
  ids.clinicExam = await newExam(t, w, 'Zhang^Wei');
  t.clock.advance(60_000);
  const order = await applyOk(t, w, ids.clinicExam);
  await recordOrderPaid(t.db.database.db, order.id, {
    channel: 'weixin',
    paidFen: order.priceFen,
    paidAt: t.clock.now(),
  });
  const [row] = await t.db.database.db.select().from(orders).where(eq(orders.id, order.id));
  ids.remote = row!.targetExamId!;
  t.clock.advance(60_000);
  ids.own2 = (await makeExam(t, w.experts.org.bucketId, { patientName: 'Zhang^Wu', source: 'dimse' })).examId;
});
afterAll(async () => {
  await t.close();
});

describe('the report-source filter', () => {
  it('the remote read made a copy marked remote in the expert organization', async () => {
    const [copy] = await t.db.database.db.select().from(exams).where(eq(exams.id, ids.remote));
    expect(copy).toMatchObject({ bucketId: w.experts.org.bucketId, source: 'remote', patientName: 'Zhang^Wei' });
  });

  it('lists and counts the remote copies (2), the own exams (1), or all (0, or no filter)', async () => {
    const token = w.experts.teledoctor.token;
    const all = await list(token, []);
    expect(all.exams.map((e) => e.id)).toEqual([ids.own2, ids.remote, ids.own1]);
    expect(all.count).toBe(3);
    expect(await list(token, [source('0')])).toEqual(all);

    const remote = await list(token, [source('2')]);
    expect(remote.exams.map((e) => e.id)).toEqual([ids.remote]);
    expect(remote.count).toBe(1);
    expect(remote.exams[0]).toMatchObject({ patientName: 'Zhang^Wei', bucketId: w.experts.org.bucketId });

    const own = await list(token, [source('1')]);
    expect(own.exams.map((e) => e.id)).toEqual([ids.own2, ids.own1]);
    expect(own.count).toBe(2);

    expect(await count(token, [])).toBe(3);
    expect(await count(token, [source('0')])).toBe(3);
    expect(await count(token, [source('1')])).toBe(2);
    expect(await count(token, [source(2)])).toBe(1);
  });

  it('pages and counts a report source with other filters, sorts and a window', async () => {
    const token = w.experts.teledoctor.token;
    // Two letters of a name: counted from the prefix counters less the remote copies.
    const zh = { field: 'patientName', operator: 'prefix', values: ['zh'] };
    const ownZh = await list(token, [zh, source('1')]);
    expect(ownZh.exams.map((e) => e.id)).toEqual([ids.own2, ids.own1]);
    expect(ownZh.count).toBe(2);
    expect(await count(token, [zh, source('1')])).toBe(2);
    const remoteZh = await list(token, [zh, source('2')]);
    expect(remoteZh.exams.map((e) => e.id)).toEqual([ids.remote]);
    expect(remoteZh.count).toBe(1);
    expect((await list(token, [zh, source('0')])).count).toBe(3);
    const zhangW = { field: 'patientName', operator: 'prefix', values: ['zhangw'] };
    expect((await list(token, [zhangW, source('1')])).exams.map((e) => e.id)).toEqual([ids.own2]);
    expect(await count(token, [zhangW, source('1')])).toBe(1);
    expect(await count(token, [zhangW, source('2')])).toBe(1);

    const byName = { field: 'patientName', operator: 'prefix', values: ['zhou'] };
    expect((await list(token, [byName, source('2')])).count).toBe(0);
    expect((await list(token, [byName, source('1')])).exams.map((e) => e.id)).toEqual([ids.own1]);

    const bucket = { field: 'bucketId', operator: 'eq', values: [w.experts.org.bucketId] };
    expect((await list(token, [bucket, source('1')])).count).toBe(2);
    expect((await list(token, [bucket, source('2')])).count).toBe(1);

    const second = await list(token, [source('1')], {
      skip: 1,
      limit: 1,
      sorts: [{ field: 'created', direction: 'asc' }],
    });
    expect(second.exams.map((e) => e.id)).toEqual([ids.own2]);
    expect(second.count).toBe(2);
    expect((await list(token, [source('2')], { skip: 1 })).exams).toEqual([]);
  });

  it('in the requesting organization nothing is remote: own is its whole list', async () => {
    const token = w.clinic.doctor.token;
    const own = await list(token, [source('1')]);
    expect(own.exams.map((e) => e.id)).toEqual([ids.clinicExam]);
    expect(own.count).toBe(1);
    const remote = await list(token, [source('2')]);
    expect(remote).toEqual({ exams: [], count: 0 });
  });

  it('a deleted remote copy leaves the remote list and its count', async () => {
    // The experts' roles hold no exam_delete: deleted as DELETE exams/{id}/delete would.
    expect(await softDelete(t.db.database.db, ids.remote, t.clock.now())).toBeTruthy();
    const token = w.experts.teledoctor.token;
    expect(await list(token, [source('2')])).toEqual({ exams: [], count: 0 });
    expect((await list(token, [source('1')])).count).toBe(2);
    expect((await list(token, [])).count).toBe(2);
  });

  it("marks the expert organization's permission entries type 2 (the web offers the filter by them)", async () => {
    const entries = async (token: string) =>
      ((await t.as(token).get('accounts/me/permissions')).json() as { bucketId: string; type: number }[]).map((e) => [
        e.bucketId,
        e.type,
      ]);
    expect(await entries(w.experts.teledoctor.token)).toEqual([[w.experts.org.bucketId, 2]]);
    expect(await entries(w.clinic.doctor.token)).toEqual([[w.clinic.org.bucketId, 1]]);
  });

  it('refuses a report source other than 0, 1 or 2, or with another operator', async () => {
    const token = w.experts.teledoctor.token;
    for (const bad of [
      source('3'),
      source('remote'),
      { field: 'reportSource', operator: 'in', values: ['1'] },
      { field: 'reportSource', operator: 'eq', values: ['1', '2'] },
    ]) {
      const res = await t.as(token).post('exams/page-query', { filters: [bad] });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect((await t.as(token).post('exams/query/count', { filters: [bad] })).statusCode).toBe(400);
    }
  });
});

import { hospitalDate, type StatTable } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGroupMember, makeMember, signIn, type BuiltAccount } from '../../test/factories.js';
import { makeDesk, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * statistics/registrar and statistics/arriver (registrar_stats, issue 26): registrations and their
 * exams by who registered them and when, arrivals by who marked them and when, on the desk's own
 * calls; counted per hospital day (UTC+8), only in the organizations the caller may count.
 */
let t: TestApp;
let desk: Desk;
let sister: Desk;
let admin: BuiltAccount;
let ct: string;
let us: string;
let day1: string;
let day2: string;

const table = async (kind: 'registrar' | 'arriver', query: Record<string, string>, token = admin.token) => {
  const res = await t.as(token).get(`statistics/${kind}?${new URLSearchParams(query).toString()}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StatTable;
};
const row = (tb: StatTable, key: string) => tb.rows.find((r) => r.key === key)?.values;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  sister = await makeDesk(t, { groupId: desk.org.groupId, name: '超声科' });
  admin = await makeGroupMember(t, desk.org.groupId, 1);
  ct = await makeProcedure(t, desk.org.bucketId, { modality: 'CT' });
  us = await makeProcedure(t, desk.org.bucketId, { modality: 'US' });
  // Day 1: the registrar registers two patients (3 exams), a second clerk one (1 exam), the sister
  // department's registrar one.
  day1 = hospitalDate(t.clock.now());
  const a = await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct }, { procedureId: us }]);
  await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct }]);
  const techReg = await makeMember(t, desk.org.bucketId, { actions: ['registry_create', 'registry_arrive'] });
  const c = await register(t, techReg.token, desk.org.bucketId, [{ procedureId: us }]);
  await register(t, sister.registrar.token, sister.org.bucketId, [{ modality: 'US' }]);
  // Arrivals: the technician marks two of them arrived on day 1 ...
  for (const id of [a.exams[0]!.id, c.exams[0]!.id]) {
    const res = await t.as(desk.tech.token).post('registry/arrive', { ids: [id] });
    expect(res.statusCode, res.body).toBe(200);
  }
  // ... and the registrar one on day 2; an arrival undone on day 2 leaves the count.
  t.clock.advance(9 * 3_600_000); // 01:00 of the next hospital day (UTC+8)
  day2 = hospitalDate(t.clock.now());
  for (const who of [desk.registrar, desk.tech, admin]) who.token = await signIn(t, who);
  expect((await t.as(desk.registrar.token).post('registry/arrive', { ids: [a.exams[1]!.id] })).statusCode).toBe(200);
  const undone = await t
    .as(desk.tech.token)
    .post('registry/exam/status', { id: c.exams[0]!.id, action: 'cancelArrival', reason: '' });
  expect(undone.statusCode, undone.body).toBe(200);
  await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct }]);
});
afterAll(async () => {
  await t.close();
});

describe('statistics/registrar', () => {
  it('counts registrations and their exams per registrar and per day', async () => {
    const tb = await table('registrar', { from: day1, to: day2, bucketIds: desk.org.bucketId });
    expect(tb.columns).toEqual(['registrations', 'exams']);
    expect(tb.by).toBe('registrar');
    expect(row(tb, desk.registrar.accountId)).toEqual({ registrations: 3, exams: 4 });
    const techRow = tb.rows.find((r) => r.key !== desk.registrar.accountId)!;
    expect(techRow.values).toEqual({ registrations: 1, exams: 1 });
    expect(tb.rows.find((r) => r.key === desk.registrar.accountId)!.label).toBe(desk.registrar.name);
    expect(tb.periods).toEqual([
      { period: day1, values: { registrations: 3, exams: 4 } },
      { period: day2, values: { registrations: 1, exams: 1 } },
    ]);
    expect(tb.totals).toEqual({ registrations: 4, exams: 5 });
  });

  it('by organization, over the group, and one modality', async () => {
    const tb = await table('registrar', { from: day1, to: day2, by: 'bucket' });
    expect(tb.rows.map((r) => [r.label, r.values])).toEqual([
      ['放射科', { registrations: 4, exams: 5 }],
      ['超声科', { registrations: 1, exams: 1 }],
    ]);
    const ctOnly = await table('registrar', { from: day1, to: day2, bucketIds: desk.org.bucketId, modality: 'CT' });
    expect(ctOnly.totals).toEqual({ registrations: 3, exams: 3 });
    const month = await table('registrar', { from: day1, to: day1, interval: 'month', bucketIds: desk.org.bucketId });
    expect(month.periods).toEqual([{ period: day1.slice(0, 7), values: { registrations: 3, exams: 4 } }]);
  });

  it('answers only the organizations where the caller holds registrar_stats', async () => {
    const head = await makeMember(t, sister.org.bucketId, { actions: ['registrar_stats'] });
    const mine = await table('registrar', { from: day1, to: day2, by: 'bucket' }, head.token);
    expect(mine.buckets.map((b) => b.id)).toEqual([sister.org.bucketId]);
    expect(mine.totals).toEqual({ registrations: 1, exams: 1 });
    // Another organization of the group, seen without the action, is refused (403); one of another
    // group is not seen (404).
    const ask = (bucketId: string) =>
      t.as(head.token).get(`statistics/registrar?from=${day1}&to=${day2}&bucketIds=${bucketId}`);
    expect((await ask(desk.org.bucketId)).statusCode).toBe(403);
    const far = await makeDesk(t);
    expect((await ask(far.org.bucketId)).statusCode).toBe(404);
    const reader = await makeMember(t, desk.org.bucketId, { actions: ['exam_get'] });
    const noAction = await t.as(reader.token).get(`statistics/registrar?from=${day1}&to=${day2}`);
    expect(noAction.statusCode).toBe(403);
    // Start and end dates are required (spec 000 §5).
    expect((await t.as(admin.token).get(`statistics/registrar?from=${day1}`)).statusCode).toBe(400);
  });
});

describe('statistics/arriver', () => {
  it('counts arrivals per clerk by the time they were marked; an undone arrival leaves', async () => {
    const tb = await table('arriver', { from: day1, to: day2, bucketIds: desk.org.bucketId });
    expect(tb.columns).toEqual(['arrivals']);
    const rows = tb.rows.map((r) => [r.key, r.label, r.values.arrivals]);
    expect(rows.sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual(
      [
        [desk.registrar.accountId, desk.registrar.name, 1],
        [desk.tech.accountId, desk.tech.name, 1],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    expect(tb.periods.map((p) => p.values.arrivals)).toEqual([1, 1]);
    expect(tb.totals).toEqual({ arrivals: 2 });
    const us1 = await table('arriver', { from: day1, to: day2, by: 'bucket', modality: 'US' });
    expect(us1.rows.map((r) => [r.label, r.values.arrivals])).toEqual([['放射科', 1]]);
    const before = await table('arriver', { from: '2026-01-01', to: '2026-01-31' });
    expect([before.rows, before.totals]).toEqual([[], { arrivals: 0 }]);
  });

  it('exports the table as .xlsx', async () => {
    const res = await t.as(admin.token).get(`statistics/arriver/export-excel?from=${day1}&to=${day2}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-export-count']).toBe('2');
  });
});

import type { RegistryPage } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrations, scheduledExams } from '../../db/schema.js';
import { dayFromNow, makeCtDesks, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The desk list at scale (bench/registry) reads its count from per-organization counters kept by
 * triggers and finds the search box's exams through their patients and registrations: these are
 * the same answers as counting and matching every exam would give, after every kind of write.
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let ct: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ desk, other, ct } = await makeCtDesks(t));
});
afterAll(async () => {
  await t.close();
});

const query = async (body: unknown = {}, bucketId = desk.org.bucketId, token = desk.registrar.token) => {
  const res = await t.as(token).post(`buckets/${bucketId}/registry/query`, { limit: 100, ...(body as object) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RegistryPage;
};

/** Each filter's count is the number of exams it lists (all on one page here). */
async function expectCountsTrue() {
  for (const body of [
    {},
    { source: 'all' },
    { source: 'external' },
    { statuses: ['Scheduled'] },
    { statuses: ['Arrived', 'Cancelled'], source: 'all' },
    { from: dayFromNow(t, 1), to: dayFromNow(t, 1) },
  ]) {
    const page = await query(body);
    expect(page.count, JSON.stringify(body)).toBe(page.items.length);
  }
}

describe('the desk list count', () => {
  it('stays the number of listed exams through registration, arrival, revocation, deletion and source', async () => {
    const first = await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct }, { modality: 'MR' }]);
    await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'DX' }], {
      patient: { name: 'SMITH^JOHN', gender: 'M', birthDate: '19700101' },
    } as never);
    await register(t, other.registrar.token, other.org.bucketId, [{ modality: 'CT' }]);
    expect((await query({ source: 'all' })).count).toBe(3);
    await expectCountsTrue();

    const arrive = await t
      .as(desk.registrar.token)
      .post('registry/exam/status', { id: first.exams[0]!.id, action: 'arrive' });
    expect(arrive.statusCode, arrive.body).toBe(200);
    expect((await query({ statuses: ['Arrived'] })).count).toBe(1);
    await expectCountsTrue();

    const id = first.exams[1]!.id;
    const revoked = await t.as(desk.registrar.token).post(`scheduled-exams/${id}/revoke`, { reason: '患者取消' });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await query({ statuses: ['Cancelled'] })).count).toBe(1);
    await expectCountsTrue();
    expect((await t.as(desk.registrar.token).del(`scheduled-exams/${id}`)).statusCode).toBe(204);
    expect((await query({ source: 'all' })).count).toBe(2);
    await expectCountsTrue();

    // An order placed from outside: its exams carry the registration's source (copied on insert).
    const db = t.db.database.db;
    const [reg] = await db.select().from(registrations).where(eq(registrations.id, first.id));
    await db.insert(registrations).values({ ...reg!, id: 'ext-reg', passCode: 'EXTPASS1', source: 'external' });
    const [exam] = await db.select().from(scheduledExams).where(eq(scheduledExams.id, first.exams[0]!.id));
    await db.insert(scheduledExams).values({
      ...exam!,
      id: 'ext-exam',
      registrationId: 'ext-reg',
      accessionNumber: 'EXT-ACC-1',
      studyInstanceUid: '1.2.3.999',
      status: 'Scheduled',
      source: 'internal',
    });
    const external = await query({ source: 'external' });
    expect(external.items.map((i) => i.id)).toEqual(['ext-exam']);
    expect(external.count).toBe(1);
    await expectCountsTrue();
    // The other organization's list was never touched by these moves.
    expect((await query({ source: 'all' }, other.org.bucketId, other.registrar.token)).count).toBe(1);
  });
});

describe('the desk search', () => {
  it('finds by name (any case), pinyin initials, patient ID, phone, accession number and pass code, in its organization only', async () => {
    const all = await query({ source: 'all' });
    const smith = all.items.find((i) => i.patient.name === 'SMITH^JOHN')!;
    const wang = all.items.find((i) => i.patient.name === '王^小东')!;
    const ids = async (q: string) => (await query({ q, source: 'all' })).items.map((i) => i.id).sort();
    expect(await ids('smith')).toEqual([smith.id]);
    expect(await ids('H^j')).toEqual([smith.id]);
    expect(await ids('h.j')).toEqual([]);
    expect((await ids('小东')).length).toBeGreaterThan(0);
    expect((await query({ q: '小东', source: 'all' })).items.every((i) => i.patient.name === '王^小东')).toBe(true);
    expect(await ids('wxd')).toEqual(await ids('王^小东'));
    expect(await ids(wang.patient.patientId)).toEqual(await ids('王^小东'));
    expect(await ids('13800000000')).toEqual(await ids('王^小东'));
    expect(await ids(smith.accessionNumber)).toEqual([smith.id]);
    expect(await ids(smith.passCode.toLowerCase())).toEqual([smith.id]);
    const page = await query({ q: '王^小东', source: 'all' });
    expect(page.count).toBe(page.items.length);
    // Wildcards are text; the other organization's 王^小东 is not this desk's.
    expect(await ids('%')).toEqual([]);
    expect(await ids('_')).toEqual([]);
    const others = await query({ q: '王^小东', source: 'all' }, other.org.bucketId, other.registrar.token);
    expect(others.items.every((i) => !page.items.some((p) => p.id === i.id))).toBe(true);
    expect(others.count).toBe(1);
  });
});

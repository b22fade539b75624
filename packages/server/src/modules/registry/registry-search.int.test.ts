import type { RegistryPage, RegistryPatient } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registrations, registryPatients } from '../../db/schema.js';
import { makeDesk, makeProcedure, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The search box finds names and pinyin initials through the search keys' GIN index (migration
 * 0031): it must find exactly what reading every name would, for any piece of any name in any case,
 * and follow a patient's renaming.
 */
let t: TestApp;
let desk: Desk;
const NAMES = ['王^小东', '欧阳^娜娜', 'SMITH^John', 'Émile^ZOLA', 'Ørsted^hans', 'བཀྲ་ཤིས་', '李%_明', 'a^b'];

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t);
  const ct = await makeProcedure(t, desk.org.bucketId, { modality: 'CT', name: '胸部CT平扫', code: 'CT001' });
  for (const [i, name] of NAMES.entries()) {
    await register(t, desk.registrar.token, desk.org.bucketId, [{ procedureId: ct }], {
      patient: { name, gender: 'M', birthDate: '19810615', phone: `1380000000${i}`, patientId: `P-${i}` },
    });
  }
});
afterAll(async () => {
  await t.close();
});

const deskNames = async (q: string) => {
  const res = await t.as(desk.registrar.token).post(`buckets/${desk.org.bucketId}/registry/query`, { q, limit: 100 });
  expect(res.statusCode, res.body).toBe(200);
  return [...new Set((res.json() as RegistryPage).items.map((i) => i.patient.name))].sort();
};
const patientNames = async (q: string) => {
  const res = await t.as(desk.registrar.token).post('patients/query', { bucketId: desk.org.bucketId, q, limit: 50 });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { patients: RegistryPatient[] }).patients.map((p) => p.name).sort();
};

/** Every piece of one to three characters of each name, as typed, upper- and lower-cased. */
function pieces(): string[] {
  const out = new Set<string>();
  for (const name of NAMES) {
    const chars = [...name];
    for (let len = 1; len <= 3; len++) {
      for (let i = 0; i + len <= chars.length; i++) {
        const piece = chars.slice(i, i + len).join('');
        for (const q of [piece, piece.toUpperCase(), piece.toLowerCase()]) if (q.trim()) out.add(q);
      }
    }
  }
  return [...out];
}

describe('the search keys', () => {
  it('find exactly the names and pinyin initials that reading every patient finds', async () => {
    const patients = await t.db.database.db
      .select({ name: registryPatients.name, pinyin: registryPatients.namePinyin })
      .from(registryPatients);
    const expected = (q: string) =>
      patients
        .filter((p) => p.name.toLowerCase().includes(q.toLowerCase()) || p.pinyin.startsWith(q.toLowerCase()))
        .map((p) => p.name)
        .sort();
    const queries = [...pieces(), 'wxd', 'WX', 'oynn', 'oyn', 'zz', '王^小东x', '%', '_', '%_'];
    for (const q of queries) {
      expect(await deskNames(q), q).toEqual(expected(q));
    }
    for (const q of ['小', 'smi', 'ZOLA', 'émile', 'ØRS', 'wxd', '%_']) {
      expect(await patientNames(q), q).toEqual(expected(q));
    }
  });

  it('follow a renamed patient', async () => {
    const [row] = await t.db.database.db.select().from(registryPatients).where(eq(registryPatients.name, 'a^b'));
    await t.db.database.db
      .update(registryPatients)
      .set({ name: '张^三丰', namePinyin: 'zsf' })
      .where(eq(registryPatients.id, row!.id));
    expect(await deskNames('a^b')).toEqual([]);
    expect(await deskNames('三丰')).toEqual(['张^三丰']);
    expect(await deskNames('zs')).toEqual(['张^三丰']);
  });

  it('follow a registration given to another patient', async () => {
    const db = t.db.database.db;
    const [smith] = await db.select().from(registryPatients).where(eq(registryPatients.name, 'SMITH^John'));
    const [li] = await db.select().from(registryPatients).where(eq(registryPatients.name, '李%_明'));
    await db.update(registrations).set({ patientRef: li!.id }).where(eq(registrations.patientRef, smith!.id));
    expect(await deskNames('smith')).toEqual([]);
    expect(await deskNames('李%')).toEqual(['李%_明']);
    const res = await t
      .as(desk.registrar.token)
      .post(`buckets/${desk.org.bucketId}/registry/query`, { q: '李%', limit: 100 });
    expect((res.json() as RegistryPage).count).toBe(2);
  });
});

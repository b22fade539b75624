import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Registration, RegistryPatient } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpValue, findscuWorklist, worklistQueryFile } from '../../dicom/testdata/findscu.js';
import { startTestDimse } from '../../test/dimse.js';
import { makeAccount } from '../../test/factories.js';
import { dayFromNow, makeDesk, makeDevice, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * A pet domain (spec 000 §3 "Pet gender and Animal variant when the domain isPet"): the desk
 * registers animals (species, breed, responsible person, disease history; gender M F MS FS U) and
 * the worklist hands the animal to the modality in DICOM's non-human organism attributes.
 */
let t: TestApp;
let desk: Desk;
let dimse: { close(): void; port: number };
let dir: string;

const animal = { species: '犬', breed: '柯基', owner: '王^芳', diseaseHistory: '去年髋关节发育不良' };
const petRegistration = (change: Record<string, unknown> = {}) => ({
  bucketId: desk.org.bucketId,
  patient: { name: '豆豆', gender: 'FS', birthDate: '20210301', animal },
  exams: [{ modality: 'DX', scheduledDate: dayFromNow(t, 1) }],
  ...change,
});

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const admin = await makeAccount(t, { platformAdmin: true });
  const res = await t.call('PUT', 'domain', { token: admin.token, body: { isPet: true } });
  expect(res.statusCode, res.body).toBe(200);
  desk = await makeDesk(t, { name: '宠物医院影像科' });
  await makeDevice(t, desk.org.bucketId, { aeTitle: 'VET_DR', modality: 'DX', charset: 'GB18030' });
  dimse = await startTestDimse(t, { host: '127.0.0.1' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yyp-registry-pet-'));
});
afterAll(async () => {
  dimse.close();
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('registering animals in a pet domain', () => {
  it('registers a spayed bitch with her species, breed, responsible person and history', async () => {
    const res = await t.as(desk.registrar.token).post('registry', petRegistration());
    expect(res.statusCode, res.body).toBe(201);
    const reg = res.json() as Registration;
    expect(reg.patient).toMatchObject({ name: '豆豆', gender: 'FS', animal });
    const found = await t.as(desk.registrar.token).post('patients/query', { bucketId: desk.org.bucketId, q: '豆豆' });
    expect(found.statusCode).toBe(200);
    expect((found.json() as { patients: RegistryPatient[] }).patients).toEqual([
      expect.objectContaining({ name: '豆豆', gender: 'FS', animal }),
    ]);
  });

  it('refuses a person-only gender, a missing animal and an over-long history with a 400, registering nothing', async () => {
    const before = await t.as(desk.registrar.token).post(`buckets/${desk.org.bucketId}/registry/query`, {
      source: 'all',
    });
    const bad = [
      { patient: { name: '球球', gender: 'O', animal } },
      { patient: { name: '球球', gender: 'M' } },
      { patient: { name: '球球', gender: 'M', animal: { ...animal, diseaseHistory: 'x'.repeat(1025) } } },
      { patient: { name: '球球', gender: 'M', animal: { ...animal, species: 'x'.repeat(33) } } },
      { patient: { name: '球球', gender: 'M', animal: { ...animal, species: ' ' } } },
    ];
    for (const change of bad) {
      const res = await t.as(desk.registrar.token).post('registry', petRegistration(change));
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().code).toBe('ValidationError');
    }
    const after = await t.as(desk.registrar.token).post(`buckets/${desk.org.bucketId}/registry/query`, {
      source: 'all',
    });
    expect(after.json().count).toBe(before.json().count);
  });

  it("answers the DR's worklist with the animal: species, breed, responsible person, sex and neutering", async () => {
    const date = dayFromNow(t, 1).replace(/-/g, '');
    const query = await worklistQueryFile(
      dir,
      'pet',
      [
        '(0008,0005) CS [ISO_IR 192]',
        '(0010,0010) PN []',
        '(0010,0040) CS []',
        '(0010,2201) LO []',
        '(0010,2203) CS []',
        '(0010,2292) LO []',
        '(0010,2297) PN []',
        '(0040,0100) SQ',
        '(fffe,e000) -',
        '(0008,0060) CS []',
        `(0040,0002) DA [${date}]`,
        '(fffe,e00d) -',
        '(fffe,e0dd) -',
      ],
      'ISO_IR 192',
    );
    const rsp = await findscuWorklist(dir, dimse.port, 'VET_DR', query);
    expect(rsp).toHaveLength(1);
    const { dump, charset } = rsp[0]!;
    expect(charset).toBe('GB18030');
    expect(dumpValue(dump, '0010,0010')).toBe('豆豆');
    expect(dumpValue(dump, '0010,0040')).toBe('F');
    expect(dumpValue(dump, '0010,2201')).toBe('犬');
    expect(dumpValue(dump, '0010,2203')).toBe('ALTERED');
    expect(dumpValue(dump, '0010,2292')).toBe('柯基');
    expect(dumpValue(dump, '0010,2297')).toBe('王^芳');
  });
});

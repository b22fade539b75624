import type { Registration } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDesk, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** The group's patients at the front desk (issue 22): one record per patient, matched, searched, their past. */
let t: TestApp;
let desk: Desk;
let other: Desk;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t);
});
afterAll(async () => {
  await t.close();
});

describe('patients', () => {
  it('keeps one record per patient in the group, matched by name and birth date (shift_off), searched and listed with the past', async () => {
    const first = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }], {
      patient: { name: '赵^磊', gender: 'M', birthDate: '19700101' },
    });
    const second = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'MR' }], {
      patient: { name: '赵^磊', gender: 'M', birthDate: '19700101', phone: '13700000000' },
    });
    expect(second.patient.id).toBe(first.patient.id);
    const differentDob = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'MR' }], {
      patient: { name: '赵^磊', gender: 'M', birthDate: '19700102' },
    });
    expect(differentDob.patient.id).not.toBe(first.patient.id);
    const byPid = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'DX' }], {
      patient: { name: '赵^磊', gender: 'M', patientId: first.patient.patientId },
    });
    expect(byPid.patient.id).toBe(first.patient.id);

    const found = await t.as(desk.registrar.token).post('patients/query', { bucketId: desk.org.bucketId, q: 'zl' });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().patients.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining([first.patient.id, differentDob.patient.id]),
    );
    const past = await t.as(desk.registrar.token).get(`patients/${first.patient.id}/past`);
    expect(
      past
        .json()
        .map((r: Registration) => r.id)
        .sort(),
    ).toEqual([first.id, second.id, byPid.id].sort());

    expect((await t.as(other.registrar.token).get(`patients/${first.patient.id}/past`)).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).post('patients/query', { bucketId: desk.org.bucketId })).statusCode).toBe(
      404,
    );
    expect(
      (await t.as(desk.registrar.token).post('patients/query', { bucketId: desk.org.bucketId, limit: 51 })).statusCode,
    ).toBe(400);
  });
});

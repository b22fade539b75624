import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinGroup, makeAccount } from '../../test/factories.js';
import { makeDesk, register, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * The group setting "registry" (spec 000 §3 Group enableRegistry): a group's administrator turns
 * the front desk off; its organizations leave the registrar's registry-buckets and every desk call
 * into them is refused 403, changing nothing, until it is turned on again.
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let groupAdmin: string;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t);
  const admin = await makeAccount(t);
  await joinGroup(t, desk.org.groupId, admin.accountId, 1);
  groupAdmin = admin.token;
});
afterAll(async () => {
  await t.close();
});

const setRegistry = async (on: boolean) => {
  const res = await t.as(groupAdmin).post(`groups/${desk.org.groupId}/update`, { settings: { enableRegistry: on } });
  expect(res.statusCode, res.body).toBe(200);
};
const deskIds = async (token: string) =>
  ((await t.as(token).get('registry-buckets')).json() as { id: string }[]).map((b) => b.id);

describe('group setting enableRegistry', () => {
  it("takes the group's organizations off the desk and refuses its calls, leaving other groups alone", async () => {
    const reg = await register(t, desk.registrar.token, desk.org.bucketId, [{ modality: 'CT' }]);
    await setRegistry(false);
    expect(await deskIds(desk.registrar.token)).toEqual([]);
    expect(await deskIds(other.registrar.token)).toEqual([other.org.bucketId]);
    const refused = [
      await t.as(desk.registrar.token).post(`buckets/${desk.org.bucketId}/registry/query`, {}),
      await t.as(desk.registrar.token).post('registry', {
        bucketId: desk.org.bucketId,
        patient: { name: '李^四', gender: 'F' },
        exams: [{ modality: 'CT', scheduledDate: reg.exams[0]!.scheduledDate }],
      }),
      await t.as(desk.registrar.token).post('registry/exam/status', { id: reg.exams[0]!.id, action: 'arrive' }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'InsufficientPermissions', details: { action: 'enableRegistry' } });
    }
    await setRegistry(true);
    const page = await t.as(desk.registrar.token).post(`buckets/${desk.org.bucketId}/registry/query`, {});
    expect(page.json()).toMatchObject({ count: 1, items: [{ id: reg.exams[0]!.id, status: 'Scheduled' }] });
    expect(await deskIds(desk.registrar.token)).toEqual([desk.org.bucketId]);
  });
});

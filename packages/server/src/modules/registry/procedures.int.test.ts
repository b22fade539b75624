import { demoRoles, type Device, type DeviceGroup, type Procedure } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduledExams } from '../../db/schema.js';
import { makeMember, makeOrganization, type BuiltOrganization } from '../../test/factories.js';
import { register } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { auditActions, makeProcedureStaff, ok } from './procedures.fixture.js';

/**
 * Procedure management (issue 22): the organization admin tab's device groups, devices,
 * procedures and modality dictionary, read by members and changed by admins.
 */
let t: TestApp;
let org: BuiltOrganization;
/** another organization of the same group, and one of another group */
let sibling: BuiltOrganization;
let other: BuiltOrganization;
let tok: Record<string, string>;

const base = () => `buckets/${org.bucketId}`;
const admin = () => t.as(tok.admin!);

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  ({ org, other, tok } = await makeProcedureStaff(t));
  sibling = await makeOrganization(t, { groupId: org.groupId, name: '超声科' });
  tok.siblingAdmin = (await makeMember(t, sibling.bucketId, { level: 'admin' })).token;
});
afterAll(async () => {
  await t.close();
});

describe('device groups', () => {
  it('are created, listed by sort then name, renamed and refused twice in any case', async () => {
    const ct = ok<DeviceGroup>(await admin().post(`${base()}/device-groups`, { name: 'CT 组' }), 201);
    ok(await admin().post(`${base()}/device-groups`, { name: 'MR 组' }), 201);
    expect((await admin().post(`${base()}/device-groups`, { name: 'ct 组' })).statusCode).toBe(409);
    // the same name in another organization is another group
    ok(await t.as(tok.siblingAdmin!).post(`buckets/${sibling.bucketId}/device-groups`, { name: 'CT 组' }), 201);
    const renamed = ok<DeviceGroup>(await admin().put(`${base()}/device-groups/${ct.id}`, { name: 'A CT 组' }));
    expect(renamed).toMatchObject({ id: ct.id, bucketId: org.bucketId, name: 'A CT 组', sort: 0 });
    expect((await admin().put(`${base()}/device-groups/${ct.id}`, { name: 'mr 组' })).statusCode).toBe(409);
    const list = ok<DeviceGroup[]>(await t.as(tok.member!).get(`${base()}/device-groups`));
    expect(list.map((g) => g.name)).toEqual(['A CT 组', 'MR 组']);
    expect(await auditActions(t, org.bucketId, 'device_group.create')).toBe(2);
  });

  it('answers 400 on a bad name and 404 on an id that is not the organization’s', async () => {
    expect((await admin().post(`${base()}/device-groups`, { name: '' })).statusCode).toBe(400);
    expect((await admin().post(`${base()}/device-groups`, { name: 'x', extra: 1 })).statusCode).toBe(400);
    const [theirs] = ok<DeviceGroup[]>(await t.as(tok.siblingAdmin!).get(`buckets/${sibling.bucketId}/device-groups`));
    expect((await admin().put(`${base()}/device-groups/${theirs!.id}`, { name: '我的' })).statusCode).toBe(404);
    expect((await admin().del(`${base()}/device-groups/${theirs!.id}`)).statusCode).toBe(404);
    expect((await admin().del(`${base()}/device-groups/nope`)).statusCode).toBe(404);
  });

  it('once deleted, leave their devices without a group and their procedures without them', async () => {
    const g = ok<DeviceGroup>(await admin().post(`${base()}/device-groups`, { name: '待删组' }), 201);
    const keep = ok<DeviceGroup>(await admin().post(`${base()}/device-groups`, { name: '保留组' }), 201);
    const device = ok<Device>(
      await admin().post(`${base()}/devices`, { name: '删组 CT', aeTitle: 'DEL_GROUP_CT', deviceGroupId: g.id }),
      201,
    );
    const procedure = ok<Procedure>(
      await admin().post(`${base()}/procedures`, {
        name: '删组项目',
        code: 'DG-1',
        modality: 'CT',
        deviceGroupIds: [keep.id, g.id],
      }),
      201,
    );
    expect((await admin().del(`${base()}/device-groups/${g.id}`)).statusCode).toBe(204);
    const devices = ok<Device[]>(await admin().get(`${base()}/devices`));
    expect(devices.find((d) => d.id === device.id)?.deviceGroupId).toBeNull();
    const procedures = ok<Procedure[]>(await admin().get(`${base()}/procedures`));
    expect(procedures.find((p) => p.id === procedure.id)?.deviceGroupIds).toEqual([keep.id]);
    expect(await auditActions(t, org.bucketId, 'device_group.delete')).toBe(1);
  });
});

describe('devices', () => {
  it('are created with their DICOM fields, listed by name, changed and deleted', async () => {
    const [group] = ok<DeviceGroup[]>(await admin().get(`${base()}/device-groups`));
    const input = {
      name: 'B 西门子 CT',
      aeTitle: 'RAD_CT1',
      host: '10.0.0.5',
      port: 104,
      modality: 'CT',
      room: 'CT 一室',
      deviceGroupId: group!.id,
      charset: 'GB18030',
    };
    const device = ok<Device>(await admin().post(`${base()}/devices`, input), 201);
    expect(device).toEqual({ id: device.id, bucketId: org.bucketId, ...input });
    const bare = ok<Device>(await admin().post(`${base()}/devices`, { name: 'A 超声', aeTitle: 'RAD_US1' }), 201);
    expect(bare).toMatchObject({
      host: null,
      port: null,
      modality: '',
      room: '',
      deviceGroupId: null,
      charset: 'ISO_IR 192',
    });
    const names = ok<Device[]>(await t.as(tok.member!).get(`${base()}/devices`)).map((d) => d.name);
    expect(names.indexOf('A 超声')).toBeLessThan(names.indexOf('B 西门子 CT'));
    const changed = ok<Device>(
      await admin().put(`${base()}/devices/${bare.id}`, { name: 'A 超声', aeTitle: 'RAD_US2' }),
    );
    expect(changed.aeTitle).toBe('RAD_US2');
    expect((await admin().del(`${base()}/devices/${bare.id}`)).statusCode).toBe(204);
    expect((await admin().del(`${base()}/devices/${bare.id}`)).statusCode).toBe(404);
    expect(await auditActions(t, org.bucketId, 'device.update')).toBe(1);
  });

  it('once deleted, leave the exams scheduled on them (and on a deleted procedure) as they were', async () => {
    const registrar = await makeMember(t, org.bucketId, { actions: demoRoles.registrar.actions });
    const device = ok<Device>(
      await admin().post(`${base()}/devices`, { name: '待删 DR', aeTitle: 'DEL_DR', modality: 'DX' }),
      201,
    );
    const procedure = ok<Procedure>(
      await admin().post(`${base()}/procedures`, { name: '胸片', code: 'DR-CHEST', modality: 'DX' }),
      201,
    );
    const reg = await register(t, registrar.token, org.bucketId, [{ procedureId: procedure.id, deviceId: device.id }]);
    expect((await admin().del(`${base()}/devices/${device.id}`)).statusCode).toBe(204);
    expect((await admin().del(`${base()}/procedures/${procedure.id}`)).statusCode).toBe(204);
    const [exam] = await t.db.database.db
      .select()
      .from(scheduledExams)
      .where(eq(scheduledExams.registrationId, reg.id));
    expect(exam).toMatchObject({
      deviceId: device.id,
      procedureId: null,
      procedureName: '胸片',
      procedureCode: 'DR-CHEST',
    });
  });

  it('refuses an AE title taken anywhere (409), a foreign device group (400) and a bad AE title (400)', async () => {
    ok(
      await t.as(tok.otherAdmin!).post(`buckets/${other.bucketId}/devices`, { name: '外院', aeTitle: 'OTHER_CT' }),
      201,
    );
    expect((await admin().post(`${base()}/devices`, { name: '撞名', aeTitle: 'OTHER_CT' })).statusCode).toBe(409);
    const mine = ok<Device>(await admin().post(`${base()}/devices`, { name: '我的', aeTitle: 'MINE_CT' }), 201);
    expect((await admin().put(`${base()}/devices/${mine.id}`, { name: '我的', aeTitle: 'OTHER_CT' })).statusCode).toBe(
      409,
    );
    const [theirs] = ok<DeviceGroup[]>(await t.as(tok.siblingAdmin!).get(`buckets/${sibling.bucketId}/device-groups`));
    const foreign = await admin().post(`${base()}/devices`, {
      name: '跨科',
      aeTitle: 'CROSS_CT',
      deviceGroupId: theirs!.id,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'ValidationError', details: { field: 'deviceGroupId' } });
    expect((await admin().post(`${base()}/devices`, { name: '坏', aeTitle: 'A\\B' })).statusCode).toBe(400);
    expect((await admin().post(`${base()}/devices`, { name: '坏', aeTitle: 'X'.repeat(17) })).statusCode).toBe(400);
    // another organization's device is not found here
    const [otherDevice] = ok<Device[]>(await t.as(tok.otherAdmin!).get(`buckets/${other.bucketId}/devices`));
    expect((await admin().put(`${base()}/devices/${otherDevice!.id}`, { name: 'x', aeTitle: 'X1' })).statusCode).toBe(
      404,
    );
  });
});

describe('procedures', () => {
  it('are created with defaults, listed by sort then name, changed and deleted', async () => {
    const p = ok<Procedure>(
      await admin().post(`${base()}/procedures`, { name: '头颅平扫', code: 'CT-HEAD', modality: 'CT' }),
      201,
    );
    expect(p).toMatchObject({
      bucketId: org.bucketId,
      enName: '',
      price: 0,
      scanTech: '',
      isEnhanced: false,
      bodyPartCount: 1,
      aeTitle: '',
      deviceGroupIds: [],
      steps: [],
      reportDuringExam: false,
      showLocalVideo: false,
      imagingOptional: false,
    });
    const q = ok<Procedure>(
      await admin().post(`${base()}/procedures`, {
        name: '胸部增强',
        code: 'CT-CHEST-E',
        modality: 'CT',
        price: 35000,
        isEnhanced: true,
        steps: ['平扫', '增强'],
      }),
      201,
    );
    expect(q.sort).toBeGreaterThan(p.sort);
    const changed = ok<Procedure>(
      await admin().put(`${base()}/procedures/${p.id}`, {
        name: '头颅平扫',
        code: 'CT-HEAD',
        modality: 'CT',
        price: 12000,
      }),
    );
    expect(changed).toMatchObject({ price: 12000, sort: p.sort });
    expect((await admin().del(`${base()}/procedures/${q.id}`)).statusCode).toBe(204);
    expect((await admin().del(`${base()}/procedures/${q.id}`)).statusCode).toBe(404);
    expect(await auditActions(t, org.bucketId, 'procedure.update')).toBe(1);
  });

  it('refuses a code twice in any case (409), foreign device groups (400) and bad input (400)', async () => {
    ok(await admin().post(`${base()}/procedures`, { name: '腹部', code: 'ABD-1', modality: 'CT' }), 201);
    expect(
      (await admin().post(`${base()}/procedures`, { name: '腹部 2', code: 'abd-1', modality: 'CT' })).statusCode,
    ).toBe(409);
    const second = ok<Procedure>(
      await admin().post(`${base()}/procedures`, { name: '盆腔', code: 'PEL-1', modality: 'CT' }),
      201,
    );
    expect(
      (await admin().put(`${base()}/procedures/${second.id}`, { name: '盆腔', code: 'ABD-1', modality: 'CT' }))
        .statusCode,
    ).toBe(409);
    // the same code in another organization is fine
    ok(
      await t
        .as(tok.siblingAdmin!)
        .post(`buckets/${sibling.bucketId}/procedures`, { name: '腹部', code: 'ABD-1', modality: 'US' }),
      201,
    );
    const [theirs] = ok<DeviceGroup[]>(await t.as(tok.siblingAdmin!).get(`buckets/${sibling.bucketId}/device-groups`));
    const foreign = await admin().post(`${base()}/procedures`, {
      name: '跨科',
      code: 'X-1',
      modality: 'CT',
      deviceGroupIds: [theirs!.id],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ details: { field: 'deviceGroupIds' } });
    for (const bad of [
      { name: '无类型', code: 'X-2' },
      { name: '负价', code: 'X-3', modality: 'CT', price: -1 },
      { name: '小数价', code: 'X-4', modality: 'CT', price: 1.5 },
      { name: '部位', code: 'X-5', modality: 'CT', bodyPartCount: 0 },
      { name: 'AE', code: 'X-6', modality: 'CT', aeTitle: 'A\\B' },
    ]) {
      expect((await admin().post(`${base()}/procedures`, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    const [otherOne] = ok<Procedure[]>(await t.as(tok.siblingAdmin!).get(`buckets/${sibling.bucketId}/procedures`));
    expect(
      (await admin().put(`${base()}/procedures/${otherOne!.id}`, { name: 'x', code: 'Y', modality: 'CT' })).statusCode,
    ).toBe(404);
    expect((await admin().del(`${base()}/procedures/${otherOne!.id}`)).statusCode).toBe(404);
  });

  it('are resorted by the full list of their ids, and only by it', async () => {
    const before = ok<Procedure[]>(await admin().get(`${base()}/procedures`));
    const ids = before.map((p) => p.id).reverse();
    const after = ok<Procedure[]>(await admin().post(`${base()}/procedures/resort`, { ids }));
    expect(after.map((p) => p.id)).toEqual(ids);
    expect(after.map((p) => p.sort)).toEqual(ids.map((_, i) => i));
    const [otherOne] = ok<Procedure[]>(await t.as(tok.siblingAdmin!).get(`buckets/${sibling.bucketId}/procedures`));
    for (const bad of [ids.slice(1), [...ids, ids[0]], [...ids.slice(1), otherOne!.id], [...ids, otherOne!.id]]) {
      const res = await admin().post(`${base()}/procedures/resort`, { ids: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ details: { field: 'ids' } });
    }
    expect(ok<Procedure[]>(await admin().get(`${base()}/procedures`)).map((p) => p.id)).toEqual(ids);
  });
});

describe('modality dictionary', () => {
  it('is listed by code, changed, refused twice (409) and in lower case (400)', async () => {
    const mr = ok<{ id: string }>(
      await admin().post(`${base()}/modality-dictionary`, { modalityCode: 'MR', displayName: '磁共振' }),
      201,
    );
    ok(await admin().post(`${base()}/modality-dictionary`, { modalityCode: 'CT', displayName: '计算机断层' }), 201);
    expect(
      (await admin().post(`${base()}/modality-dictionary`, { modalityCode: 'CT', displayName: '又一个' })).statusCode,
    ).toBe(409);
    expect(
      (await admin().post(`${base()}/modality-dictionary`, { modalityCode: 'ct', displayName: '小写' })).statusCode,
    ).toBe(400);
    expect(
      (await admin().put(`${base()}/modality-dictionary/${mr.id}`, { modalityCode: 'CT', displayName: 'x' }))
        .statusCode,
    ).toBe(409);
    ok(await admin().put(`${base()}/modality-dictionary/${mr.id}`, { modalityCode: 'MR', displayName: '核磁' }));
    const list = ok<{ modalityCode: string; displayName: string }[]>(
      await t.as(tok.member!).get(`${base()}/modality-dictionary`),
    );
    expect(list.map((e) => [e.modalityCode, e.displayName])).toEqual([
      ['CT', '计算机断层'],
      ['MR', '核磁'],
    ]);
    expect(
      (await t.as(tok.siblingAdmin!).del(`buckets/${sibling.bucketId}/modality-dictionary/${mr.id}`)).statusCode,
    ).toBe(404);
    expect((await admin().del(`${base()}/modality-dictionary/${mr.id}`)).statusCode).toBe(204);
    expect((await admin().del(`${base()}/modality-dictionary/${mr.id}`)).statusCode).toBe(404);
  });
});

describe('who may', () => {
  const writes = () =>
    [
      ['POST', `${base()}/device-groups`, { name: '权限组' }],
      ['POST', `${base()}/devices`, { name: '权限设备', aeTitle: 'PERM_AE' }],
      ['POST', `${base()}/procedures`, { name: '权限项目', code: 'PERM', modality: 'CT' }],
      ['POST', `${base()}/modality-dictionary`, { modalityCode: 'DX', displayName: 'DR' }],
    ] as const;

  it('lets members read, and only organization or group admins write (403 otherwise)', async () => {
    for (const [method, url, body] of writes()) {
      expect((await t.call(method, url, { token: tok.member, body })).statusCode, url).toBe(403);
      expect((await t.call(method, url, { token: tok.siblingAdmin, body })).statusCode, url).toBe(403);
      expect((await t.call(method, url, { token: tok.groupAdmin, body })).statusCode, url).toBe(201);
    }
    for (const path of ['device-groups', 'devices', 'procedures', 'modality-dictionary']) {
      expect((await t.as(tok.member!).get(`${base()}/${path}`)).statusCode).toBe(200);
    }
  });

  it("answers 404 to another group's admin, reading or writing", async () => {
    for (const path of ['device-groups', 'devices', 'procedures', 'modality-dictionary']) {
      expect((await t.as(tok.otherAdmin!).get(`${base()}/${path}`)).statusCode).toBe(404);
    }
    for (const [method, url, body] of writes()) {
      expect((await t.call(method, url, { token: tok.otherAdmin, body })).statusCode, url).toBe(404);
    }
  });
});

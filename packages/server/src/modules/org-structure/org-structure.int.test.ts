import type { GroupStructure, Organization, ReportTemplate } from '@yyp/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMember } from '../../test/factories.js';
import { makeHospital, makeReportLibrary } from '../../test/factories-reports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/**
 * GET groups/{id}/structure-code, buckets/find-one and buckets/{id}/report-templates (issue 27),
 * on both databases, with the other group's refusals (tenant isolation).
 */
let t: TestApp;
let tok: Record<string, string> = {};
let renhe = '';
let teleGroup = '';
let radiology = '';
let checkup = '';
let tele = '';
const code: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const h = await makeHospital(t, ['doctor', 'senior', 'groupadmin', 'teleadmin']);
  ({ tok, groupId: renhe, teleGroupId: teleGroup, radiology, checkup, tele } = h);
  for (const [name, id, who] of [
    ['radiology', radiology, 'groupadmin'],
    ['checkup', checkup, 'senior'],
    ['tele', tele, 'teleadmin'],
  ] as const) {
    code[name] = ((await t.as(tok[who]!).get(`buckets/${id}`)).json() as Organization).code!;
  }
  await makeReportLibrary(t, radiology, tele);
});
afterAll(async () => {
  await t.close();
});

describe('GET groups/{groupId}/structure-code', () => {
  it("answers the group's organizations with their codes to its members", async () => {
    const res = await t.as(tok.doctor!).get(`groups/${renhe}/structure-code`);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json() as GroupStructure;
    expect(s).toMatchObject({ groupId: renhe, groupName: '仁和医院' });
    expect(s.organizations.map((o) => o.name).sort()).toEqual(['体检中心', '放射科', '超声科'].sort());
    expect(s.organizations.find((o) => o.id === radiology)).toMatchObject({ code: code.radiology, isPrivate: false });
    expect(s.organizations.find((o) => o.id === checkup)).toMatchObject({ code: code.checkup, isPrivate: true });
    expect(res.body).not.toContain(tele);
  });

  it('refuses another group, an unknown group and no token', async () => {
    const other = await t.as(tok.teleadmin!).get(`groups/${renhe}/structure-code`);
    expect([403, 404]).toContain(other.statusCode);
    expect(other.body).not.toContain(code.radiology);
    expect((await t.as(tok.doctor!).get('groups/no-such-group/structure-code')).statusCode).toBe(404);
    expect((await t.call('GET', `groups/${renhe}/structure-code`)).statusCode).toBe(401);
    const mine = await t.as(tok.teleadmin!).get(`groups/${teleGroup}/structure-code`);
    expect((mine.json() as GroupStructure).organizations.map((o) => o.id)).toEqual([tele]);
  });
});

describe('GET buckets/find-one', () => {
  it('finds an organization the caller can see by its code, case ignored', async () => {
    const res = await t.as(tok.doctor!).get(`buckets/find-one?code=${code.radiology!.toLowerCase()}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: radiology, groupId: renhe, name: '放射科', code: code.radiology });
  });

  it('answers 404 alike for an unknown code, another group’s organization and a private one the caller is not in', async () => {
    expect((await t.as(tok.doctor!).get('buckets/find-one?code=NO-SUCH-CODE')).statusCode).toBe(404);
    const other = await t.as(tok.teleadmin!).get(`buckets/find-one?code=${code.radiology}`);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain(radiology);
    // The private check-up centre: its member (senior) sees it, the doctor of the group does not.
    expect((await t.as(tok.doctor!).get(`buckets/find-one?code=${code.checkup}`)).statusCode).toBe(404);
    expect((await t.as(tok.senior!).get(`buckets/find-one?code=${code.checkup}`)).statusCode).toBe(200);
    expect((await t.as(tok.groupadmin!).get(`buckets/find-one?code=${code.checkup}`)).statusCode).toBe(200);
  });

  it('refuses a malformed or missing code with 400, and no token with 401', async () => {
    expect((await t.as(tok.doctor!).get('buckets/find-one?code=a%20b')).statusCode).toBe(400);
    expect((await t.as(tok.doctor!).get('buckets/find-one')).statusCode).toBe(400);
    expect((await t.call('GET', `buckets/find-one?code=${code.radiology}`)).statusCode).toBe(401);
  });
});

describe('GET buckets/{bucketId}/report-templates', () => {
  it('answers what report-templates?bucketId= answers for that organization', async () => {
    const own = await t.as(tok.doctor!).post('report-templates', {
      scope: 'personal',
      title: '我的胸片模板',
      modality: 'DX',
    });
    expect(own.statusCode, own.body).toBe(201);
    for (const q of ['', '?modality=CT', '?q=%E8%83%B8']) {
      const res = await t.as(tok.doctor!).get(`buckets/${radiology}/report-templates${q}`);
      expect(res.statusCode, res.body).toBe(200);
      const same = await t.as(tok.doctor!).get(`report-templates?bucketId=${radiology}${q.replace('?', '&')}`);
      expect(res.json()).toEqual(same.json());
      if (q === '') expect((res.json() as ReportTemplate[]).length).toBeGreaterThan(1);
    }
  });

  it("refuses another group's organization, a private one the caller is not in, and a member without report material", async () => {
    const other = await t.as(tok.teleadmin!).get(`buckets/${radiology}/report-templates`);
    expect(other.statusCode).toBe(404);
    expect((await t.as(tok.doctor!).get(`buckets/${checkup}/report-templates`)).statusCode).toBe(404);
    // A member with no role in it is refused as report-templates refuses it (403, nothing read).
    const plain = await makeMember(t, tele, { level: 'member' });
    const refused = await t.as(plain.token).get(`buckets/${tele}/report-templates`);
    expect(refused.statusCode).toBe(403);
    expect((await t.as(plain.token).get(`report-templates?bucketId=${tele}`)).statusCode).toBe(403);

    expect((await t.call('GET', `buckets/${tele}/report-templates`)).statusCode).toBe(401);
  });
});

import { PLAN_PACKAGES, type PlanStatus } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckets } from '../../db/schema.js';
import {
  joinOrganization,
  makeAccount,
  makeGroupMember,
  makeOrganization,
  type BuiltAccount,
  type BuiltOrganization,
} from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** Plans of private organizations (plans/*, user-subscriptions/mine, packages/query) on PGlite and PostgreSQL. */
let t: TestApp;
let full: BuiltOrganization;
let expired: BuiltOrganization;
let fine: BuiltOrganization;
let open: BuiltOrganization;
let member: BuiltAccount;
let admin: BuiltAccount;
let outsider: BuiltAccount;
let platformAdmin: BuiltAccount;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  const now = t.clock.now().getTime();
  const year = new Date(now + 365 * 86_400_000);
  full = await makeOrganization(t, {
    name: '甲 已用尽',
    isPrivate: true,
    plan: { kind: 'oneTime', quota: 10, expiresAt: null },
  });
  const groupId = full.groupId;
  expired = await makeOrganization(t, {
    groupId,
    name: '乙 已过期',
    isPrivate: true,
    plan: { kind: 'period', quota: 100, expiresAt: new Date(now - 1000) },
  });
  fine = await makeOrganization(t, {
    groupId,
    name: '丙 可用',
    isPrivate: true,
    plan: { kind: 'period', quota: 1000, expiresAt: year },
  });
  open = await makeOrganization(t, { groupId, name: '丁 公共' });
  await t.db.database.db.update(buckets).set({ planUsed: 10 }).where(eq(buckets.id, full.bucketId));
  await t.db.database.db.update(buckets).set({ planUsed: 5 }).where(eq(buckets.id, fine.bucketId));
  member = await makeAccount(t);
  await joinOrganization(t, full.bucketId, member.accountId);
  await joinOrganization(t, fine.bucketId, member.accountId);
  admin = await makeGroupMember(t, groupId, 1);
  outsider = await makeGroupMember(t, (await makeOrganization(t, { isPrivate: true })).groupId, 1);
  platformAdmin = await makeAccount(t, { platformAdmin: true });
});
afterAll(async () => {
  await t.close();
});

const names = (list: PlanStatus[]) => list.map((p) => p.bucketName);

describe('plans', () => {
  it("answers an organization's plan while it can receive uploads, and checks it", async () => {
    const ok = await t.as(member.token).get(`plans/available?bucketId=${fine.bucketId}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual([
      expect.objectContaining({ bucketId: fine.bucketId, kind: 'period', quota: 1000, used: 5, remaining: 995 }),
    ]);
    expect((await t.as(member.token).get(`plans/available?bucketId=${full.bucketId}`)).json()).toEqual([]);
    const check = async (bucketId: string, token = admin.token) =>
      (await t.as(token).get(`plans/check?bucketId=${bucketId}`)).json();
    expect(await check(full.bucketId)).toEqual({
      bucketId: full.bucketId,
      available: false,
      blocked: 'BucketFull',
      remaining: 0,
      expiresAt: null,
    });
    expect(await check(expired.bucketId)).toMatchObject({ available: false, blocked: 'SubscriptionExpired' });
    expect(await check(open.bucketId)).toMatchObject({ available: true, blocked: null, remaining: null });
    expect((await t.as(outsider.token).get(`plans/check?bucketId=${fine.bucketId}`)).statusCode).toBe(404);
    expect((await t.as(outsider.token).get(`plans/available?bucketId=${fine.bucketId}`)).statusCode).toBe(404);
  });

  it("lists the group's organizations that can receive uploads", async () => {
    const res = await t.as(admin.token).get(`plans/group-available?groupId=${full.groupId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(names(res.json()).sort()).toEqual(['丁 公共', '丙 可用'].sort());
    expect((await t.as(outsider.token).get(`plans/group-available?groupId=${full.groupId}`)).statusCode).toBe(404);
  });

  it('lists the dried private organizations the caller belongs to or administers', async () => {
    const dried = async (token: string) => names((await t.as(token).get('plans/dried')).json());
    expect(await dried(member.token)).toEqual(['甲 已用尽']);
    expect(await dried(admin.token)).toEqual(['乙 已过期', '甲 已用尽'].sort((a, b) => a.localeCompare(b)));
    expect(await dried(outsider.token)).toEqual([]);
    const all = await dried(platformAdmin.token);
    expect(all).toEqual(expect.arrayContaining(['甲 已用尽', '乙 已过期']));
    expect(all).not.toContain('丙 可用');
  });

  it("answers the caller's subscriptions and the packages", async () => {
    const mine = await t.as(member.token).get('user-subscriptions/mine');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(names(mine.json()).sort()).toEqual(['丙 可用', '甲 已用尽'].sort());
    expect((await t.as(outsider.token).get('user-subscriptions/mine')).json()).toEqual([]);
    expect((await t.as(member.token).get('packages/query')).json()).toEqual(PLAN_PACKAGES);
    expect((await t.call('GET', 'packages/query')).statusCode).toBe(401);
  });
});

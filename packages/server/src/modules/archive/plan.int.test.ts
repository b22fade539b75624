import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exams } from '../../db/schema.js';
import { generateStudy } from '../../dicom/testdata/generate.js';
import { makeStaffed } from '../../test/factories-archive.js';
import {
  makeAccount,
  makeGroup,
  makeGroupMember,
  makeOrganization,
  signIn,
  type BuiltAccount,
} from '../../test/factories.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { IngestRefused } from './plan.js';

let t: TestApp;
let checkupId: string;
let radId: string;
let admin: string;
let groupadmin: string;
let tele: string;
const accounts: Record<'admin' | 'groupadmin', BuiltAccount> = {} as never;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  // A hospital group's private checkup centre (a year's plan of 1000 studies) and public radiology,
  // its group admin, a platform admin, and a reading doctor of another group.
  const { groupId } = await makeGroup(t);
  checkupId = (await makeOrganization(t, { groupId, isPrivate: true })).bucketId;
  radId = (await makeOrganization(t, { groupId })).bucketId;
  accounts.admin = await makeAccount(t, { platformAdmin: true });
  accounts.groupadmin = await makeGroupMember(t, groupId, 1);
  admin = accounts.admin.token;
  groupadmin = accounts.groupadmin.token;
  tele = (await makeStaffed(t, ['teledoctor'])).teledoctor.token;
});
afterAll(() => t.close());

const day = 86_400_000;
const setPlan = (body: unknown, token = admin) => t.call('PUT', `buckets/${checkupId}/plan`, { token, body });

describe('organization plans and the uploads they allow', () => {
  it('shows the plan to the organization and lets only platform admins change it, validated', async () => {
    const seen = await t.call('GET', `buckets/${checkupId}/plan`, { token: groupadmin });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ kind: 'period', quota: 1000, used: 0, isPrivate: true, blocked: null });
    expect((await setPlan({ kind: 'period', quota: 5, expiresAt: null }, groupadmin)).statusCode).toBe(403);
    expect((await setPlan({ kind: 'weekly', quota: 5, expiresAt: null })).statusCode).toBe(400);
    expect((await setPlan({ kind: 'period', quota: -1, expiresAt: null })).statusCode).toBe(400);
    expect((await setPlan({ kind: 'period', quota: 5, expiresAt: 'tomorrow' })).statusCode).toBe(400);
    expect((await setPlan({ kind: 'period', quota: 5, expiresAt: null, extra: 1 })).statusCode).toBe(400);
    expect(
      (await t.call('PUT', `buckets/nope/plan`, { token: admin, body: { kind: null, quota: null, expiresAt: null } }))
        .statusCode,
    ).toBe(404);
    expect((await t.call('GET', `buckets/${checkupId}/plan`, { token: tele })).statusCode).toBe(404);
  });

  it('counts new studies against the quota, completes studies already received, refuses the next one', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 30 * day).toISOString();
    const res = await setPlan({ kind: 'oneTime', quota: 1, expiresAt, resetUsed: true });
    expect(res.json()).toMatchObject({ kind: 'oneTime', quota: 1, used: 0, blocked: null });
    const a = generateStudy({ modality: 'DX', series: 1, instancesPerSeries: 3, rows: 16, columns: 16 });
    const b = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    await t.services.archive.ingest(checkupId, a.instances[0]!.bytes, 'web');
    await expect(t.services.archive.ingest(checkupId, b.instances[0]!.bytes, 'web')).rejects.toBeInstanceOf(
      IngestRefused,
    );
    await expect(t.services.archive.ingest(checkupId, b.instances[0]!.bytes, 'web')).rejects.toMatchObject({
      reason: 'BucketFull',
    });
    // The rest of study a still arrives (concurrently, sharing a transaction).
    await Promise.all(a.instances.slice(1).map((i) => t.services.archive.ingest(checkupId, i.bytes, 'web')));
    const db = t.db.database.db;
    expect(await db.select().from(exams).where(eq(exams.storeUid, b.studyInstanceUid))).toHaveLength(0);
    expect((await db.select().from(exams).where(eq(exams.storeUid, a.studyInstanceUid)))[0]).toMatchObject({
      instanceCount: 3,
    });
    expect((await t.call('GET', `buckets/${checkupId}/plan`, { token: groupadmin })).json()).toMatchObject({
      used: 1,
      blocked: 'BucketFull',
    });

    // A public link into the full organization is refused up front, with the reason.
    const token = (await t.call('POST', `buckets/${checkupId}/upload/token`, { token: groupadmin })).json() as {
      token: string;
    };
    const session = await t.call('POST', 'uploads/by-token', { body: { token: token.token } });
    expect(session.statusCode).toBe(403);
    expect(session.json()).toMatchObject({ code: 'BucketFull' });
  });

  it('refuses everything once the subscription has expired, until it is renewed', async () => {
    const c = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    await setPlan({ kind: 'period', quota: null, expiresAt: new Date(t.clock.now().getTime() + day).toISOString() });
    t.clock.advance(2 * day);
    admin = await signIn(t, accounts.admin); // the earlier tokens expired with the clock
    groupadmin = await signIn(t, accounts.groupadmin);
    await expect(t.services.archive.ingest(checkupId, c.instances[0]!.bytes, 'stow')).rejects.toMatchObject({
      reason: 'SubscriptionExpired',
    });
    expect((await t.call('GET', `buckets/${checkupId}/plan`, { token: groupadmin })).json()).toMatchObject({
      blocked: 'SubscriptionExpired',
    });
    await setPlan({ kind: 'period', quota: null, expiresAt: new Date(t.clock.now().getTime() + day).toISOString() });
    await expect(t.services.archive.ingest(checkupId, c.instances[0]!.bytes, 'stow')).resolves.toMatchObject({
      duplicate: false,
    });
    // Ending the plan of a private organization ends its uploads.
    await setPlan({ kind: null, quota: null, expiresAt: null });
    const d = generateStudy({ modality: 'DX', rows: 16, columns: 16 });
    await expect(t.services.archive.ingest(checkupId, d.instances[0]!.bytes, 'web')).rejects.toMatchObject({
      reason: 'SubscriptionExpired',
    });
  });

  it('never limits a public organization', async () => {
    const e = generateStudy({ modality: 'CT', rows: 16, columns: 16 });
    await expect(t.services.archive.ingest(radId, e.instances[0]!.bytes, 'web')).resolves.toMatchObject({
      newExam: true,
    });
  });
});

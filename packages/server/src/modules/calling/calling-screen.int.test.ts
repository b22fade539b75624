import { queueTopic, type ScreenQueue, type ScreenToken } from '@yyp/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenTokens } from '../../db/schema.js';
import {
  act,
  arrivePatient,
  callNext,
  issueScreenToken,
  makeQueueType,
  screenRead,
} from '../../test/factories-calling.js';
import { makeDesk, type Desk } from '../../test/factories-registry.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { verifyScreenToken } from './index.js';

/**
 * Waiting-room screens (spec 000 §2 /calling/{bucketId}/screen-show; issue 23 "Screens"): a token
 * per screen, issued by whoever manages the organization's queue, shown once, revocable; with it a
 * screen reads that organization's queue only (names masked) and follows its live topic.
 */
let t: TestApp;
let desk: Desk;
let other: Desk;
let token: string;
let issued: ScreenToken;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  desk = await makeDesk(t, { name: '放射科' });
  other = await makeDesk(t, { name: '乙城放射科' });
  const ct = await makeQueueType(t, desk, { displayName: 'CT', modality: 'CT', roomName: 'CT 1' });
  await makeQueueType(t, other, { displayName: '乙城 CT', modality: 'CT' });
  for (const name of ['王^小东', '李^四', '张^三丰', '赵^六']) await arrivePatient(t, desk, { name, modality: 'CT' });
  await arrivePatient(t, other, { name: '孙^悟空', modality: 'CT' });
  await callNext(t, desk.tech.token, ct.id);
  const second = await callNext(t, desk.tech.token, ct.id, 'CT 3');
  await act(t, desk.tech.token, second.queueExam!.id, { action: 'pass' });
  await callNext(t, desk.tech.token, ct.id, 'CT 2');
});
afterAll(async () => {
  await t.close();
});

const tokensUrl = (bucketId = desk.org.bucketId) => `buckets/${bucketId}/screen-tokens`;

describe('screen tokens', () => {
  it('are issued by whoever manages the queue, the token in that answer only, its hash alone kept', async () => {
    const res = await t.as(desk.registrar.token).post(tokensUrl(), { label: '候诊大厅 1' });
    expect(res.statusCode, res.body).toBe(201);
    ({ token, screenToken: issued } = res.json() as { token: string; screenToken: ScreenToken });
    expect(token).toMatch(/^yyps_[A-Za-z0-9_-]{43}$/);
    expect(issued).toMatchObject({
      bucketId: desk.org.bucketId,
      label: '候诊大厅 1',
      revokedAt: null,
      lastUsedAt: null,
    });
    const listed = await t.as(desk.registrar.token).get(tokensUrl());
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([issued]);
    expect(listed.body).not.toContain(token);
    const [row] = await t.db.database.db.select().from(screenTokens).where(eq(screenTokens.id, issued.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('refuse a bad label (400), the technician (403) and another group (404)', async () => {
    for (const body of [{ label: '' }, { label: 'x'.repeat(65) }, {}, { label: 'a', extra: 1 }]) {
      expect((await t.as(desk.registrar.token).post(tokensUrl(), body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.as(desk.tech.token).post(tokensUrl(), { label: 'x' })).statusCode).toBe(403);
    expect((await t.as(desk.tech.token).get(tokensUrl())).statusCode).toBe(403);
    expect((await t.as(desk.tech.token).post(`screen-tokens/${issued.id}/revoke`)).statusCode).toBe(403);
    expect((await t.as(other.registrar.token).post(tokensUrl(), { label: 'x' })).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).get(tokensUrl())).statusCode).toBe(404);
    expect((await t.as(other.registrar.token).post(`screen-tokens/${issued.id}/revoke`)).statusCode).toBe(404);
  });

  it('are at most 50 live per organization', async () => {
    for (let i = 0; i < 49; i++) await issueScreenToken(t, other, `屏 ${i}`);
    expect((await t.as(other.registrar.token).post(tokensUrl(other.org.bucketId), { label: '屏 49' })).statusCode).toBe(
      201,
    );
    const over = await t.as(other.registrar.token).post(tokensUrl(other.org.bucketId), { label: '屏 50' });
    expect(over.statusCode).toBe(400);
  });
});

describe('GET screen/queue', () => {
  it("shows the organization's current calls, next and missed patients, names masked, and records the use", async () => {
    const res = await screenRead(t, token);
    expect(res.statusCode, res.body).toBe(200);
    const screen = res.json() as ScreenQueue;
    expect(screen).toMatchObject({ bucketId: desk.org.bucketId, bucketName: '放射科' });
    expect(screen.calls.map((c) => `${c.queueNo} ${c.name} ${c.room}`)).toEqual(['3 张*丰 CT 2', '1 王*东 CT 1']);
    expect(screen.missed.map((c) => `${c.queueNo} ${c.name}`)).toEqual(['2 李*']);
    expect(screen.queues).toEqual([
      expect.objectContaining({
        displayName: 'CT',
        roomName: 'CT 1',
        waitingCount: 1,
        next: [expect.objectContaining({ queueNo: 4, name: '赵*' })],
      }),
    ]);
    expect(Object.values(screen.announcements).sort()).toEqual([
      '请 1 号 王*东 到 CT 1 检查',
      '请 3 号 张*丰 到 CT 2 检查',
    ]);
    for (const secret of ['王小东', '小东', '孙', '乙城']) expect(res.body).not.toContain(secret);
    const [row] = await t.db.database.db.select().from(screenTokens).where(eq(screenTokens.id, issued.id));
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it('answers 401 without a screen token, to an account token and to an unknown token', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${desk.registrar.token}` },
      { authorization: 'Screen yyps_unknown' },
      { authorization: `Screen ${'x'.repeat(300)}` },
      { authorization: token },
    ]) {
      const res = await t.call('GET', 'screen/queue', { headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.body).not.toContain('王');
    }
  });

  it("lets a screen token follow its organization's live topic only, as the accounts that call there", async () => {
    const access = t.services.liveAccess;
    const screen = (await access.authenticate(token, 'Screen'))!;
    expect(screen).toMatchObject({ kind: 'token', claims: { bucketId: desk.org.bucketId } });
    expect(await access.authorize(screen, queueTopic(desk.org.bucketId))).toBe(true);
    expect(await access.authorize(screen, queueTopic(other.org.bucketId))).toBe(false);
    const asAccount = async (bearer: string, bucketId: string) =>
      access.authorize((await access.authenticate(bearer))!, queueTopic(bucketId));
    expect(await asAccount(desk.tech.token, desk.org.bucketId)).toBe(true);
    expect(await asAccount(desk.doctor.token, desk.org.bucketId)).toBe(false);
    expect(await asAccount(other.tech.token, desk.org.bucketId)).toBe(false);
  });

  it('answers 401 once the token is revoked, and the face no longer verifies it', async () => {
    expect(await verifyScreenToken(t.db.database.db, token)).toEqual({
      bucketId: desk.org.bucketId,
      tokenId: issued.id,
    });
    const res = await t.as(desk.registrar.token).post(`screen-tokens/${issued.id}/revoke`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: issued.id, revokedAt: expect.any(String) });
    expect((await screenRead(t, token)).statusCode).toBe(401);
    expect(await verifyScreenToken(t.db.database.db, token)).toBeUndefined();
    expect(await t.services.liveAccess.authenticate(token, 'Screen')).toBeNull();
  });
});

import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSULTATION_STATUS_VALUES, VIDEO_MAX_PARTICIPANTS, videoRoomTokenSchema } from '@yyp/contracts';
import { auditLogs } from '../../db/schema.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { makeVideoConsultation, makeVideoWorld, type VideoWorld } from './video.fixture.js';

/**
 * The video room's calls (issue 25 "Video"): video-meetings/start, the per-room token and
 * telemed-video admit the consultation's participants only, while it is scheduled and within its
 * window; each start and token is audited. (The socket side is in video-live.int.test.ts.)
 */
let t: TestApp;
let w: VideoWorld;
const minute = 60_000;

beforeAll(async () => {
  t = await startTestApp({ seed: false });
  w = await makeVideoWorld(t);
});
afterAll(async () => t?.close());

const start = (token: string, consultationId: string) => t.as(token).post('video-meetings/start', { consultationId });

describe('video-meetings/start', () => {
  it('gives the requester and the expert a room token for the scheduled consultation, each a peer of its own', async () => {
    const id = await makeVideoConsultation(t, w);
    const mine = await start(w.source.doctor.token, id);
    expect(mine.statusCode).toBe(200);
    const answer = videoRoomTokenSchema.parse(mine.json());
    expect(answer).toMatchObject({ roomId: id, iceServers: [], name: w.source.doctor.name });
    expect(answer.peerId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(answer.expiresAt)).toBe(t.clock.now().getTime() + 120 * minute);
    const theirs = await start(w.target.expert.token, id);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().peerId).not.toBe(answer.peerId);
    const audited = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'video.start'), eq(auditLogs.targetId, id)));
    expect(audited.map((a) => [a.actorId, a.outcome])).toEqual(
      expect.arrayContaining([
        [w.source.doctor.accountId, 'success'],
        [w.target.expert.accountId, 'success'],
      ]),
    );
  });

  it('answers 404 to a caller of another group and to a colleague who takes no part, audited as denied', async () => {
    const id = await makeVideoConsultation(t, w);
    for (const token of [w.outsider.doctor.token, w.source.tech.token]) {
      const res = await start(token, id);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NotFound');
    }
    expect((await start(w.source.doctor.token, 'no-such-consultation')).statusCode).toBe(404);
    const denied = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'video.start'), eq(auditLogs.targetId, id), eq(auditLogs.outcome, 'denied')));
    expect(denied.map((a) => a.actorId).sort()).toEqual([w.outsider.doctor.accountId, w.source.tech.accountId].sort());
  });

  it('answers 409 ConsultationWrongStatus unless the consultation is scheduled', async () => {
    for (const status of [
      CONSULTATION_STATUS_VALUES.pending,
      CONSULTATION_STATUS_VALUES.completed,
      CONSULTATION_STATUS_VALUES.canceled,
    ]) {
      const id = await makeVideoConsultation(t, w, { status });
      const res = await start(w.source.doctor.token, id);
      expect(res.statusCode, String(status)).toBe(409);
      expect(res.json().code).toBe('ConsultationWrongStatus');
    }
  });

  it('opens the room 30 minutes before the scheduled time and closes it 12 hours after (409 VideoRoomNotOpen)', async () => {
    const now = t.clock.now().getTime();
    const cases: [number, number][] = [
      [31 * minute, 409],
      [29 * minute, 200],
      [0, 200],
      [-(12 * 60 - 1) * minute, 200],
      [-12 * 60 * minute, 409],
    ];
    for (const [ahead, status] of cases) {
      const id = await makeVideoConsultation(t, w, { scheduledAt: new Date(now + ahead) });
      const res = await start(w.target.expert.token, id);
      expect(res.statusCode, `scheduled ${ahead / minute} min ahead`).toBe(status);
      if (status === 409) {
        expect(res.json()).toMatchObject({
          code: 'VideoRoomNotOpen',
          details: { opensAt: new Date(now + ahead - 30 * minute).toISOString() },
        });
      } else {
        // the token never outlives the window
        expect(Date.parse(res.json().expiresAt)).toBeLessThanOrEqual(now + ahead + 12 * 60 * minute);
      }
    }
  });

  it('refuses a bad body with 400 and nothing issued', async () => {
    const res = await t.as(w.source.doctor.token).post('video-meetings/start', { consultationId: '', extra: 1 });
    expect(res.statusCode).toBe(400);
  });

  it('answers 409 VideoRoomFull once six peers of others are in the room', async () => {
    const id = await makeVideoConsultation(t, w);
    expect((await start(w.source.doctor.token, id)).statusCode).toBe(200);
    const media = { audio: true, video: true, screen: false };
    for (let i = 0; i < VIDEO_MAX_PARTICIPANTS; i++) {
      await t.services.live.publish(`rtc:${id}`, {
        from: { peerId: `peer-${i}-0000`, accountId: `acc-${i}`, name: `P${i}` },
        data: { kind: 'join', media },
      });
    }
    await new Promise((r) => setTimeout(r, 200));
    const full = await start(w.target.expert.token, id);
    expect(full.statusCode).toBe(409);
    expect(full.json().code).toBe('VideoRoomFull');
    await t.services.live.publish(`rtc:${id}`, {
      from: { peerId: 'peer-0-0000', accountId: 'acc-0', name: 'P0' },
      data: { kind: 'leave' },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect((await start(w.target.expert.token, id)).statusCode).toBe(200);
  });
});

describe('the per-room token and telemed-video', () => {
  it('renews the token for the same peer, for participants only', async () => {
    const id = await makeVideoConsultation(t, w);
    const first = (await start(w.target.expert.token, id)).json();
    const again = await t.as(w.target.expert.token).post(`video-meetings/${id}/token`, { peerId: first.peerId });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ roomId: id, peerId: first.peerId });
    const fresh = await t.as(w.target.expert.token).post(`video-meetings/${id}/token`, {});
    expect(fresh.json().peerId).not.toBe(first.peerId);
    expect((await t.as(w.outsider.doctor.token).post(`video-meetings/${id}/token`, {})).statusCode).toBe(404);
    expect((await t.as(w.source.tech.token).post(`video-meetings/${id}/token`, {})).statusCode).toBe(404);
    expect(
      (await t.as(w.target.expert.token).post(`video-meetings/${id}/token`, { peerId: 'bad id!' })).statusCode,
    ).toBe(400);
    const audited = await t.db.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'video.token'), eq(auditLogs.targetId, id), eq(auditLogs.outcome, 'success')));
    expect(audited).toHaveLength(2);
  });

  it('tells participants the room and who is in it; null outside the window; 404 to others', async () => {
    const id = await makeVideoConsultation(t, w);
    const before = await t.as(w.source.doctor.token).get(`consultations/${id}/telemed-video`);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ roomId: id, active: false, participants: [] });
    await t.services.live.publish(`rtc:${id}`, {
      from: { peerId: 'peer-expert-1', accountId: w.target.expert.accountId, name: w.target.expert.name },
      data: { kind: 'join', media: { audio: true, video: true, screen: false } },
    });
    await new Promise((r) => setTimeout(r, 200));
    const during = await t.as(w.source.doctor.token).get(`consultations/${id}/telemed-video`);
    expect(during.json()).toMatchObject({
      roomId: id,
      active: true,
      participants: [{ accountId: w.target.expert.accountId, name: w.target.expert.name }],
    });
    expect((await t.as(w.outsider.doctor.token).get(`consultations/${id}/telemed-video`)).statusCode).toBe(404);
    expect((await t.as(w.source.tech.token).get(`consultations/${id}/telemed-video`)).statusCode).toBe(404);
    const later = await makeVideoConsultation(t, w, {
      scheduledAt: new Date(t.clock.now().getTime() + 24 * 60 * minute),
    });
    const closed = await t.as(w.target.expert.token).get(`consultations/${later}/telemed-video`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ roomId: null, active: false, participants: [] });
  });
});

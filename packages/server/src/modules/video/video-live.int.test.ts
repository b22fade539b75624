import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSULTATION_STATUS_VALUES, LIVE_CLOSE, type VideoRoomToken } from '@yyp/contracts';
import { liveUrl, openProbe, subscribedProbe, type LiveProbe } from '../../platform/live.fixture.js';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { makeVideoConsultation, makeVideoWorld, setConsultationStatus, type VideoWorld } from './video.fixture.js';

/**
 * The room token on the live socket (issue 25 "Video"): scheme 'Room' authenticates a socket that
 * may follow and publish on its own room's topic only; signals are stamped with the token's peer
 * and account; the token is verified again each heartbeat, so a socket leaves the room once the
 * consultation is no longer scheduled. On PGlite and PostgreSQL (NOTIFY between two instances).
 */
let a: TestApp;
let b: TestApp;
let w: VideoWorld;
let urlA: string;
let urlB: string;
const probes: LiveProbe[] = [];
const media = { audio: true, video: true, screen: false };

beforeAll(async () => {
  const liveTimings = { heartbeatMs: 400, authTimeoutMs: 2000 };
  a = await startTestApp({ seed: false, app: { liveTimings } });
  b = await startTestApp({ db: a.db, clock: a.clock, seed: false, app: { liveTimings } });
  await Promise.all([a.services.live.ready(), b.services.live.ready()]);
  w = await makeVideoWorld(a);
  [urlA, urlB] = [await liveUrl(a), await liveUrl(b)];
});
afterAll(async () => {
  for (const p of probes) p.close();
  await b?.close();
  await a?.close();
});

async function join(token: string, id: string): Promise<VideoRoomToken> {
  const res = await a.as(token).post('video-meetings/start', { consultationId: id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as VideoRoomToken;
}

async function roomProbe(url: string, room: VideoRoomToken): Promise<LiveProbe> {
  const p = await subscribedProbe(url, room.token, [`rtc:${room.roomId}`], 'Room');
  probes.push(p);
  return p;
}

describe('room tokens on the live socket', () => {
  it('carries signals between two participants on two instances, stamped by the server', async () => {
    const id = await makeVideoConsultation(a, w);
    const doctor = await join(w.source.doctor.token, id);
    const expert = await join(w.target.expert.token, id);
    const one = await roomProbe(urlA, doctor);
    const two = await roomProbe(urlB, expert);
    one.send({ type: 'publish', topic: `rtc:${id}`, event: { kind: 'join', media } });
    const got = await two.next((m) => m.type === 'event');
    expect(got).toMatchObject({
      type: 'event',
      topic: `rtc:${id}`,
      event: {
        from: { peerId: doctor.peerId, accountId: w.source.doctor.accountId, name: w.source.doctor.name },
        data: { kind: 'join', media },
      },
    });
    const offer = { kind: 'description', to: doctor.peerId, type: 'offer', id: 'd1', index: 0, count: 1, sdp: 'v=0' };
    two.send({ type: 'publish', topic: `rtc:${id}`, event: offer });
    const back = await one.next(
      (m) => m.type === 'event' && (m.event as { data: { kind: string } }).data.kind === 'description',
    );
    expect(back).toMatchObject({ event: { from: { peerId: expert.peerId }, data: offer } });
  });

  it("refuses another room's topic, an account's bearer token on rtc, and a signal outside the contract", async () => {
    const id = await makeVideoConsultation(a, w);
    const other = await makeVideoConsultation(a, w);
    const doctor = await join(w.source.doctor.token, id);
    const p = await roomProbe(urlA, doctor);
    p.send({ type: 'subscribe', topic: `rtc:${other}` });
    expect(await p.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      topic: `rtc:${other}`,
      code: 'Forbidden',
    });
    p.send({ type: 'publish', topic: `rtc:${other}`, event: { kind: 'join', media } });
    p.send({ type: 'publish', topic: `rtc:${id}`, event: { kind: 'join', media, from: { peerId: 'forged' } } });
    await p.next((m) => m.type === 'error' && p.messages.filter((x) => x.type === 'error').length === 3);
    expect(p.messages.filter((x) => x.type === 'error').slice(1)).toEqual([
      { type: 'error', topic: `rtc:${other}`, code: 'PublishRefused' },
      { type: 'error', topic: `rtc:${id}`, code: 'PublishRefused' },
    ]);
    const bearer = await subscribedProbe(urlA, w.source.doctor.token, []);
    probes.push(bearer);
    bearer.send({ type: 'subscribe', topic: `rtc:${id}` });
    expect(await bearer.next((m) => m.type === 'error')).toMatchObject({ code: 'Forbidden' });
  });

  it('closes 4401 a forged or altered room token', async () => {
    const id = await makeVideoConsultation(a, w);
    const doctor = await join(w.source.doctor.token, id);
    const [body, mac] = doctor.token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const altered = `${Buffer.from(JSON.stringify({ ...claims, a: w.outsider.doctor.accountId })).toString('base64url')}.${mac}`;
    for (const token of [altered, 'not.a-token', w.source.doctor.token]) {
      const p = await openProbe(urlA);
      probes.push(p);
      p.send({ type: 'auth', scheme: 'Room', token });
      expect(await p.closed).toBe(LIVE_CLOSE.unauthenticated);
    }
  });

  it('closes the room socket at the next heartbeat once the consultation leaves scheduled', async () => {
    const id = await makeVideoConsultation(a, w);
    const expert = await join(w.target.expert.token, id);
    const p = await roomProbe(urlB, expert);
    await p.next((m) => m.type === 'heartbeat', 3000);
    expect(p.socket.readyState).toBe(p.socket.OPEN);
    await setConsultationStatus(a, id, CONSULTATION_STATUS_VALUES.completed);
    expect(await p.closed).toBe(LIVE_CLOSE.unauthenticated);
  });

  it('closes it once the window ends, too', async () => {
    const id = await makeVideoConsultation(a, w, {
      scheduledAt: new Date(a.clock.now().getTime() - 12 * 3_600_000 + 60_000),
    });
    const doctor = await join(w.source.doctor.token, id);
    const p = await roomProbe(urlA, doctor);
    a.clock.advance(61_000);
    try {
      expect(await p.closed).toBe(LIVE_CLOSE.unauthenticated);
    } finally {
      a.clock.advance(-61_000);
    }
  });
});

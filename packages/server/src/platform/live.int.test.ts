import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CLOSE, LIVE_MAX_MESSAGES } from '@yyp/contracts';
import { startTestApp, type TestApp } from '../test/harness.js';
import { liveUrl, openProbe, subscribedProbe, type LiveProbe } from './live.fixture.js';

/**
 * The live socket end to end over a real WebSocket (issue 23 "Live events"), on PGlite
 * (in-process events) and on PostgreSQL (LISTEN/NOTIFY): two app instances on one database.
 */
let a: TestApp;
let b: TestApp;
let urlA: string;
let urlB: string;
let doctor: string;
const probes: LiveProbe[] = [];
/** screen tokens the 'Probe' scheme accepts; deleting one revokes it */
const probeTokens = new Map<string, string>([['screen-token-1', 'b1']]);

function registerTestFamilies(t: TestApp): void {
  // A family open to accounts on 'open' and to a Probe token for its own bucket.
  t.services.liveAccess.topicAuthorizer('test', async (principal, rest) =>
    principal.kind === 'account' ? rest === 'open' : principal.claims.bucketId === rest,
  );
  t.services.liveAccess.tokenVerifier('Probe', async (token) => {
    const bucketId = probeTokens.get(token);
    return bucketId ? { subject: token, claims: { bucketId } } : null;
  });
}

async function probe(url: string, token: string, topics: string[], scheme?: string) {
  const p = await subscribedProbe(url, token, topics, scheme);
  probes.push(p);
  return p;
}

beforeAll(async () => {
  const timings = { heartbeatMs: 1000, authTimeoutMs: 400 };
  a = await startTestApp({ app: { liveTimings: timings } });
  b = await startTestApp({ db: a.db, clock: a.clock, seed: false, app: { liveTimings: timings } });
  registerTestFamilies(a);
  registerTestFamilies(b);
  await Promise.all([a.services.live.ready(), b.services.live.ready()]);
  [urlA, urlB] = [await liveUrl(a), await liveUrl(b)];
  doctor = await a.login('doctor');
});

afterAll(async () => {
  for (const p of probes) p.close();
  await b?.close();
  await a?.close();
});

describe('live socket', () => {
  it('uses LISTEN/NOTIFY on PostgreSQL and in-process events on PGlite', () => {
    expect(a.services.live.kind).toBe(a.db.kind === 'postgres' ? 'postgres' : 'memory');
  });

  it('delivers an event published after a subscribe, with its topic and id', async () => {
    const p = await probe(urlA, doctor, ['test:open']);
    await a.services.live.publish('test:open', { call: 3 });
    const got = await p.next((m) => m.type === 'event');
    expect(got).toMatchObject({ type: 'event', topic: 'test:open', event: { call: 3 } });
    expect(got.type === 'event' && got.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('delivers an event published on instance A to a socket connected to instance B, once', async () => {
    const onB = await probe(urlB, doctor, ['test:open']);
    await a.services.live.publish('test:open', { from: 'A' });
    await onB.next((m) => m.type === 'event' && (m.event as { from?: string }).from === 'A');
    await new Promise((r) => setTimeout(r, 200));
    expect(onB.messages.filter((m) => m.type === 'event' && (m.event as { from?: string }).from === 'A')).toHaveLength(
      1,
    );
  });

  it('refuses a topic the account may not read, and one of a family nobody registered, keeping the socket', async () => {
    const p = await probe(urlA, doctor, []);
    p.send({ type: 'subscribe', topic: 'test:secret' });
    expect(await p.next((m) => m.type === 'error')).toEqual({ type: 'error', topic: 'test:secret', code: 'Forbidden' });
    p.send({ type: 'subscribe', topic: 'nobody:1' });
    expect(await p.next((m) => m.type === 'error' && m.topic === 'nobody:1')).toMatchObject({ code: 'Forbidden' });
    await a.services.live.publish('test:secret', { leaked: true });
    p.send({ type: 'subscribe', topic: 'test:open' });
    await p.next((m) => m.type === 'subscribed');
    await a.services.live.publish('test:open', { after: true });
    await p.next((m) => m.type === 'event');
    expect(p.messages.filter((m) => m.type === 'event')).toEqual([
      expect.objectContaining({ topic: 'test:open', event: { after: true } }),
    ]);
  });

  it('stops sending a topic once unsubscribed', async () => {
    const p = await probe(urlA, doctor, ['test:open']);
    p.send({ type: 'unsubscribe', topic: 'test:open' });
    await p.next((m) => m.type === 'unsubscribed');
    // the instance has heard the event (so it is not still on its way) before the socket subscribes again
    const heard = new Promise<void>((resolve) => {
      const stop = a.services.live.subscribe('test:open', () => {
        stop();
        resolve();
      });
    });
    await a.services.live.publish('test:open', { late: true });
    await heard;
    p.send({ type: 'subscribe', topic: 'test:open' });
    await p.next((m) => m.type === 'subscribed' && p.messages.filter((x) => x.type === 'subscribed').length === 2);
    await a.services.live.publish('test:open', { again: true });
    await p.next((m) => m.type === 'event');
    expect(p.messages.filter((m) => m.type === 'event').map((m) => m.type === 'event' && m.event)).toEqual([
      { again: true },
    ]);
  });

  it('answers a malformed message after auth with BadMessage and stays open', async () => {
    const p = await probe(urlA, doctor, []);
    p.send('not json');
    expect(await p.next((m) => m.type === 'error')).toEqual({ type: 'error', code: 'BadMessage' });
    p.send({ type: 'subscribe', topic: 'NOT A TOPIC' });
    p.send({ type: 'subscribe', topic: 'test:open' });
    await p.next((m) => m.type === 'subscribed');
    expect(p.messages.filter((m) => m.type === 'error')).toEqual([
      { type: 'error', code: 'BadMessage' },
      { type: 'error', code: 'BadMessage' },
    ]);
  });

  it('closes 4401 on a bad token, a message before auth, and no auth in time', async () => {
    const bad = await openProbe(urlA);
    bad.send({ type: 'auth', token: 'not-a-token' });
    expect(await bad.closed).toBe(LIVE_CLOSE.unauthenticated);
    const early = await openProbe(urlA);
    early.send({ type: 'subscribe', topic: 'test:open' });
    expect(await early.closed).toBe(LIVE_CLOSE.unauthenticated);
    const silent = await openProbe(urlA);
    expect(await silent.closed).toBe(LIVE_CLOSE.unauthenticated);
    const unknownScheme = await openProbe(urlA);
    unknownScheme.send({ type: 'auth', token: 'screen-token-1', scheme: 'Nobody' });
    expect(await unknownScheme.closed).toBe(LIVE_CLOSE.unauthenticated);
  });

  it('closes 4429 a socket that floods the server with messages', async () => {
    const p = await probe(urlA, doctor, []);
    for (let i = 0; i <= LIVE_MAX_MESSAGES; i++) p.send({ type: 'unsubscribe', topic: 'test:open' });
    expect(await p.closed).toBe(LIVE_CLOSE.tooManyMessages);
  });

  it('closes an account socket 4401 at its next subscribe once the session has ended', async () => {
    const token = await a.login('tech');
    const p = await probe(urlA, token, ['test:open']);
    expect((await a.as(token).post('accounts/logout')).statusCode).toBeLessThan(300);
    p.send({ type: 'subscribe', topic: 'test:other' });
    expect(await p.closed).toBe(LIVE_CLOSE.unauthenticated);
  });

  it("accepts a registered scheme's token for its own topic only, and closes it 4401 once revoked", async () => {
    probeTokens.set('screen-token-2', 'b2');
    const screen = await probe(urlB, 'screen-token-2', ['test:b2'], 'Probe');
    screen.send({ type: 'subscribe', topic: 'test:b1' });
    expect(await screen.next((m) => m.type === 'error')).toMatchObject({ topic: 'test:b1', code: 'Forbidden' });
    await a.services.live.publish('test:b2', { n: 1 });
    await screen.next((m) => m.type === 'event');
    probeTokens.delete('screen-token-2');
    expect(await screen.closed).toBe(LIVE_CLOSE.unauthenticated);
  });

  it('sends heartbeats to an authenticated socket', async () => {
    const p = await probe(urlA, doctor, []);
    await p.next((m) => m.type === 'heartbeat', 3000);
  });

  it('answers a plain GET of the socket path (no upgrade) with a 4xx, not the socket', async () => {
    const res = await a.app.inject({ method: 'GET', url: '/yyp/api/v1/live' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });

  it('refuses to publish an event over the NOTIFY limit or on a malformed topic', async () => {
    await expect(a.services.live.publish('test:open', { text: 'x'.repeat(9000) })).rejects.toThrow(/bytes/);
    await expect(a.services.live.publish('no topic', {})).rejects.toThrow(/topic/);
  });

  it('closes its sockets with 1001 when the app closes', async () => {
    const c = await startTestApp({ db: a.db, clock: a.clock, seed: false });
    c.services.liveAccess.topicAuthorizer('test', async () => true);
    const p = await subscribedProbe(await liveUrl(c), doctor, ['test:open']);
    await c.close();
    expect(await p.closed).toBe(LIVE_CLOSE.goingAway);
  });
});

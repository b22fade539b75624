import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CLOSE, LIVE_MAX_MESSAGES, LIVE_MAX_PUBLISHES } from '@yyp/contracts';
import { startTestApp, type TestApp } from '../test/harness.js';
import { liveUrl, subscribedProbe, type LiveProbe } from './live.fixture.js';

/**
 * Client publishes on the live socket (issue 25 video signalling): only on a family whose module
 * registered a publish authorizer, stamped with the sender the module names, across instances
 * (PGlite in-process, PostgreSQL NOTIFY), in order, within the NOTIFY size, on a budget of their own.
 */
let a: TestApp;
let b: TestApp;
let urlA: string;
let urlB: string;
const probes: LiveProbe[] = [];
/** tokens of the 'Desk' scheme: token → room */
const deskTokens = new Map<string, string>([
  ['desk-1', 'r1'],
  ['desk-2', 'r1'],
  ['desk-3', 'r2'],
]);

function register(t: TestApp): void {
  t.services.liveAccess.topicAuthorizer('room', async (p, rest) => p.kind === 'token' && p.claims.room === rest);
  t.services.liveAccess.publishAuthorizer('room', async (p, rest, event) => {
    if (p.kind !== 'token' || p.claims.room !== rest) return null;
    if (typeof event !== 'object' || event === null || 'forbidden' in event) return null;
    return { desk: p.subject };
  });
  // subscribable, but nobody may publish on it
  t.services.liveAccess.topicAuthorizer('quiet', async () => true);
  t.services.liveAccess.tokenVerifier('Desk', async (token) => {
    const room = deskTokens.get(token);
    return room ? { subject: token, claims: { room } } : null;
  });
}

async function probe(url: string, token: string, topics: string[]) {
  const p = await subscribedProbe(url, token, topics, 'Desk');
  probes.push(p);
  return p;
}

beforeAll(async () => {
  a = await startTestApp();
  b = await startTestApp({ db: a.db, clock: a.clock, seed: false });
  register(a);
  register(b);
  await Promise.all([a.services.live.ready(), b.services.live.ready()]);
  [urlA, urlB] = [await liveUrl(a), await liveUrl(b)];
});

afterAll(async () => {
  for (const p of probes) p.close();
  await b?.close();
  await a?.close();
});

const events = (p: LiveProbe) => p.messages.filter((m) => m.type === 'event').map((m) => m.type === 'event' && m.event);

describe('live publish', () => {
  it("delivers a client's event to the room on both instances, stamped with the sender the module named", async () => {
    const one = await probe(urlA, 'desk-1', ['room:r1']);
    const two = await probe(urlB, 'desk-2', ['room:r1']);
    one.send({ type: 'publish', topic: 'room:r1', event: { hello: 1, from: 'desk-2 (a lie)' } });
    const got = await two.next((m) => m.type === 'event');
    expect(got).toMatchObject({ topic: 'room:r1', event: { from: { desk: 'desk-1' }, data: { hello: 1 } } });
    // the sender hears its own event too (clients drop their own)
    await one.next((m) => m.type === 'event');
  });

  it('keeps one sender’s events in order', async () => {
    const one = await probe(urlA, 'desk-1', ['room:r1']);
    const two = await probe(urlB, 'desk-2', ['room:r1']);
    for (let n = 0; n < 30; n++) one.send({ type: 'publish', topic: 'room:r1', event: { n } });
    await two.next(() => events(two).length === 30, 5000);
    expect(events(two).map((e) => (e as { data: { n: number } }).data.n)).toEqual([...Array(30).keys()]);
  });

  it('refuses another room, a family without a publish authorizer and an event the module refuses', async () => {
    const one = await probe(urlA, 'desk-1', ['room:r1']);
    const other = await probe(urlA, 'desk-3', ['room:r2']);
    for (const [topic, event] of [
      ['room:r2', { x: 1 }],
      ['quiet:r1', { x: 1 }],
      ['nobody:r1', { x: 1 }],
      ['room:r1', { forbidden: true }],
    ] as const) {
      one.send({ type: 'publish', topic, event });
      expect(await one.next((m) => m.type === 'error' && m.topic === topic)).toEqual({
        type: 'error',
        topic,
        code: 'PublishRefused',
      });
      one.messages.length = 0;
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(events(other)).toEqual([]);
    expect(one.socket.readyState).toBe(one.socket.OPEN);
  });

  it('refuses an event that would pass the NOTIFY payload limit with TooLarge, and stays open', async () => {
    const one = await probe(urlA, 'desk-1', ['room:r1']);
    const two = await probe(urlA, 'desk-2', ['room:r1']);
    // within the socket's 8 KiB message, over the 7,900 bytes once stamped and wrapped
    one.send({ type: 'publish', topic: 'room:r1', event: { sdp: 'x'.repeat(7_880) } });
    expect(await one.next((m) => m.type === 'error')).toEqual({ type: 'error', topic: 'room:r1', code: 'TooLarge' });
    one.send({ type: 'publish', topic: 'room:r1', event: { small: true } });
    await two.next((m) => m.type === 'event');
    expect(events(two)).toEqual([{ from: { desk: 'desk-1' }, data: { small: true } }]);
  });

  it('counts publishes on their own budget: a burst beyond the message limit passes, beyond the publish limit closes 4429', async () => {
    const one = await probe(urlA, 'desk-1', ['room:r1']);
    const burst = LIVE_MAX_MESSAGES + 50;
    for (let n = 0; n < burst; n++) one.send({ type: 'publish', topic: 'room:r1', event: { n } });
    await one.next(() => events(one).length === burst, 10_000);
    // subscribes still have their whole budget
    one.send({ type: 'subscribe', topic: 'room:r1' });
    await one.next((m) => m.type === 'subscribed' && one.messages.filter((x) => x.type === 'subscribed').length === 2);
    for (let n = 0; n < LIVE_MAX_PUBLISHES; n++) one.send({ type: 'publish', topic: 'room:r1', event: { n } });
    expect(await one.closed).toBe(LIVE_CLOSE.tooManyMessages);
  });

  it('refuses publishing to an account socket on a token-only family', async () => {
    const token = await a.login('doctor');
    const p = await subscribedProbe(urlA, token, []);
    probes.push(p);
    p.send({ type: 'publish', topic: 'room:r1', event: {} });
    expect(await p.next((m) => m.type === 'error')).toMatchObject({ code: 'PublishRefused' });
  });
});

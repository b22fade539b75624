import { describe, expect, it } from 'vitest';
import { LIVE_MAX_PAYLOAD_BYTES, liveClientMessageSchema, liveTopicPrefix } from '@yyp/contracts';
import { createLiveBus, decodeLiveMessage, encodeLiveMessage, reconnectDelay, type LiveMessage } from './live.js';
import { LiveAccess, type LivePrincipal } from './live-access.js';
import { errors } from './errors.js';

describe('live protocol (contracts/live.ts)', () => {
  it('splits a topic into its family and the rest, and refuses what is not a topic', () => {
    expect(liveTopicPrefix('queue:0b7c-11')).toEqual({ prefix: 'queue', rest: '0b7c-11' });
    expect(liveTopicPrefix('queue:a:b')).toEqual({ prefix: 'queue', rest: 'a:b' });
    for (const bad of ['queue', 'queue:', 'Queue:x', ':x', 'queue:a b', `queue:${'x'.repeat(201)}`]) {
      expect(liveTopicPrefix(bad), bad).toBeNull();
    }
  });

  it('reads the client messages and nothing else', () => {
    expect(liveClientMessageSchema.safeParse({ type: 'auth', token: 't' }).success).toBe(true);
    expect(liveClientMessageSchema.safeParse({ type: 'auth', token: 't', scheme: 'Screen' }).success).toBe(true);
    expect(liveClientMessageSchema.safeParse({ type: 'subscribe', topic: 'queue:b1' }).success).toBe(true);
    for (const bad of [
      { type: 'auth', token: '' },
      { type: 'auth', token: 't', scheme: 'no spaces' },
      { type: 'subscribe', topic: 'no topic' },
      { type: 'publish', topic: 'queue:b1' },
      null,
    ]) {
      expect(liveClientMessageSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('live bus payloads', () => {
  it('encodes topic, id and event, and decodes them back', () => {
    const { message, json } = encodeLiveMessage('queue:b1', { calling: 3 });
    expect(decodeLiveMessage(json)).toEqual(message);
    expect(message.id).not.toBe(encodeLiveMessage('queue:b1', { calling: 3 }).message.id);
  });

  it('refuses an event whose payload would pass the NOTIFY limit, and a malformed topic', () => {
    const room = LIVE_MAX_PAYLOAD_BYTES - JSON.stringify(encodeLiveMessage('queue:b1', '').message).length;
    expect(() => encodeLiveMessage('queue:b1', 'x'.repeat(room))).not.toThrow();
    expect(() => encodeLiveMessage('queue:b1', 'x'.repeat(room + 1))).toThrow(/bytes/);
    // counted in bytes: three per Chinese character
    expect(() => encodeLiveMessage('queue:b1', '号'.repeat(Math.ceil(room / 3) + 1))).toThrow(/bytes/);
    expect(() => encodeLiveMessage('bad topic', {})).toThrow(/topic/);
  });

  it('ignores a payload that is not one of its messages', () => {
    expect(decodeLiveMessage('not json')).toBeNull();
    expect(decodeLiveMessage('{"topic":"queue:b1"}')).toBeNull();
  });

  it('backs off from the minimum, doubling to the maximum, with at most 25 % jitter', () => {
    expect(reconnectDelay(0, 100, 5000, () => 1)).toBe(100);
    expect(reconnectDelay(3, 100, 5000, () => 1)).toBe(800);
    expect(reconnectDelay(3, 100, 5000, () => 0)).toBe(600);
    expect(reconnectDelay(40, 100, 5000, () => 1)).toBe(5000);
  });
});

describe('in-process bus', () => {
  it('delivers after the publisher returns, to every bus sharing the key, not to others', async () => {
    const key = {};
    const [a, b, other] = [createLiveBus({ sharedBy: key }), createLiveBus({ sharedBy: key }), createLiveBus()];
    const heard: string[] = [];
    const listen = (name: string) => (m: LiveMessage) => heard.push(`${name}:${String(m.event)}`);
    b.subscribe('queue:b1', listen('b'));
    other.subscribe('queue:b1', listen('other'));
    const stop = a.subscribe('queue:b1', listen('a'));
    await a.publish('queue:b1', 'one');
    expect(heard).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(heard.sort()).toEqual(['a:one', 'b:one']);
    stop();
    await b.close();
    await a.publish('queue:b1', 'two');
    await new Promise((r) => setImmediate(r));
    expect(heard.sort()).toEqual(['a:one', 'b:one']);
    await Promise.all([a.close(), other.close()]);
  });

  it('keeps delivering to the other listeners when one throws', async () => {
    const bus = createLiveBus();
    const heard: unknown[] = [];
    bus.subscribe('queue:b1', () => {
      throw new Error('broken listener');
    });
    bus.subscribe('queue:b1', (m) => heard.push(m.event));
    await bus.publish('queue:b1', 1);
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual([1]);
    await bus.close();
  });
});

describe('LiveAccess', () => {
  const account = { id: 'acc-1' } as never;
  const access = () =>
    new LiveAccess(async (token) => {
      if (token !== 'good') throw errors.badToken();
      return { account, scope: { access: {} as never, facts: [] }, sessionId: 's1' };
    });

  it('refuses every topic of a family nobody registered, and asks the family that did', async () => {
    const live = access();
    const principal = (await live.authenticate('good'))!;
    expect(principal.kind).toBe('account');
    expect(await live.authorize(principal, 'queue:b1')).toBe(false);
    const asked: string[] = [];
    live.topicAuthorizer('queue', async (_p, rest) => {
      asked.push(rest);
      return rest === 'b1';
    });
    expect(await live.authorize(principal, 'queue:b1')).toBe(true);
    expect(await live.authorize(principal, 'queue:b2')).toBe(false);
    expect(await live.authorize(principal, 'queue')).toBe(false);
    expect(asked).toEqual(['b1', 'b2']);
  });

  it('verifies a token by its scheme, case aside, and refuses unknown schemes and tokens', async () => {
    const live = access();
    live.tokenVerifier('Screen', async (token) =>
      token === 'tv-1' ? { subject: 'tv-1', claims: { bucketId: 'b1' } } : null,
    );
    const screen = (await live.authenticate('tv-1', 'screen')) as Extract<LivePrincipal, { kind: 'token' }>;
    expect(screen).toMatchObject({ kind: 'token', subject: 'tv-1', claims: { bucketId: 'b1' } });
    expect(await live.authenticate('tv-2', 'Screen')).toBeNull();
    expect(await live.authenticate('tv-1', 'Other')).toBeNull();
    expect(await live.authenticate('bad')).toBeNull();
    expect(await live.authenticate('')).toBeNull();
  });

  it('refuses a second registration of a family or scheme, and the Bearer scheme', () => {
    const live = access();
    live.topicAuthorizer('queue', async () => true);
    expect(() => live.topicAuthorizer('queue', async () => true)).toThrow(/twice/);
    expect(() => live.topicAuthorizer('Bad Prefix', async () => true)).toThrow(/prefix/);
    live.tokenVerifier('Screen', async () => null);
    expect(() => live.tokenVerifier('screen', async () => null)).toThrow(/twice/);
    expect(() => live.tokenVerifier('bearer', async () => null)).toThrow(/scheme/);
  });

  it('gives an HTTP call the principal of its Authorization header, or the right 401', async () => {
    const live = access();
    live.tokenVerifier('Screen', async (token) => (token === 'tv-1' ? { subject: 'tv-1', claims: {} } : null));
    expect((await live.requirePrincipal('Bearer good')).kind).toBe('account');
    expect((await live.requirePrincipal('Screen tv-1')).kind).toBe('token');
    await expect(live.requirePrincipal(undefined)).rejects.toMatchObject({ code: 'Unauthenticated' });
    await expect(live.requirePrincipal('Bearer bad')).rejects.toMatchObject({ code: 'JsonWebTokenError' });
    await expect(live.requirePrincipal('Screen tv-2')).rejects.toMatchObject({ code: 'JsonWebTokenError' });
    await expect(live.requirePrincipal('garbage')).rejects.toMatchObject({ code: 'JsonWebTokenError' });
  });
});

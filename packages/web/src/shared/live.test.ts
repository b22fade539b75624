import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import { renderHook } from '@testing-library/react';
import { LiveClient, type LiveClientOptions } from './live';
import { useLiveStatus, useLiveTopic } from './liveHooks';

/**
 * The live client against a real WebSocket server (the `ws` package) speaking the protocol of
 * contracts/live.ts as the yyp server does: auth → ready, subscribe → subscribed or Forbidden.
 * The client is given the `ws` package's WebSocket (a real network client; jsdom's global one,
 * undici's, cannot dispatch jsdom's events).
 */
interface Peer {
  socket: ServerSocket;
  auth: unknown;
  topics: string[];
  published: unknown[];
}

let server: WebSocketServer;
let url: string;
let peers: Peer[];
let mute = false;
const client: { current: LiveClient | null } = { current: null };

beforeEach(async () => {
  peers = [];
  mute = false;
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  url = `ws://127.0.0.1:${(address as { port: number }).port}/yyp/api/v1/live`;
  server.on('connection', (socket) => {
    const peer: Peer = { socket, auth: null, topics: [], published: [] };
    peers.push(peer);
    socket.on('message', (data) => {
      if (mute) return;
      const m = JSON.parse(String(data)) as { type: string; topic?: string };
      if (m.type === 'auth') {
        peer.auth = m;
        socket.send(JSON.stringify({ type: 'ready' }));
      } else if (m.type === 'subscribe' && m.topic?.endsWith(':secret')) {
        socket.send(JSON.stringify({ type: 'error', topic: m.topic, code: 'Forbidden' }));
      } else if (m.type === 'subscribe') {
        peer.topics.push(m.topic!);
        socket.send(JSON.stringify({ type: 'subscribed', topic: m.topic }));
      } else if (m.type === 'publish') {
        peer.published.push(m);
      } else if (m.type === 'unsubscribe') {
        peer.topics = peer.topics.filter((t) => t !== m.topic);
      }
    });
  });
});

afterEach(async () => {
  client.current?.close();
  for (const c of server.clients) c.terminate();
  await new Promise((resolve) => server.close(resolve));
});

function start(options: Partial<LiveClientOptions> = {}): LiveClient {
  client.current = new LiveClient({
    url,
    auth: () => ({ token: 'tok-1' }),
    WebSocket: NodeWebSocket as unknown as typeof WebSocket,
    reconnectMinMs: 20,
    reconnectMaxMs: 80,
    ...options,
  });
  return client.current;
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const subscribedPeer =
  (topic: string, index = 0) =>
  () =>
    peers[index]?.topics.includes(topic) ?? false;
function push(peer: Peer, topic: string, id: string, event: unknown): void {
  peer.socket.send(JSON.stringify({ type: 'event', topic, id, event }));
}

describe('LiveClient', () => {
  it('authenticates, subscribes and hands each event to its topic, once per id', async () => {
    const got: unknown[] = [];
    start().subscribe('queue:b1', { onEvent: (e) => got.push(e) });
    await until(subscribedPeer('queue:b1'));
    expect(peers[0]!.auth).toEqual({ type: 'auth', token: 'tok-1' });
    push(peers[0]!, 'queue:b1', 'e1', { no: 3 });
    push(peers[0]!, 'queue:b1', 'e1', { no: 3 });
    push(peers[0]!, 'queue:other', 'e2', { no: 4 });
    push(peers[0]!, 'queue:b1', 'e3', { no: 5 });
    await until(() => got.length === 2);
    expect(got).toEqual([{ no: 3 }, { no: 5 }]);
  });

  it('publishes on a topic only once the socket is ready', async () => {
    const live = start({ auth: () => ({ token: 'room-1', scheme: 'Room' }) });
    expect(live.publish('rtc:c1', { kind: 'view-request' })).toBe(false);
    live.subscribe('rtc:c1', { onEvent: () => {} });
    await until(subscribedPeer('rtc:c1'));
    expect(live.publish('rtc:c1', { kind: 'present', on: true })).toBe(true);
    await until(() => peers[0]!.published.length === 1);
    expect(peers[0]!.published).toEqual([{ type: 'publish', topic: 'rtc:c1', event: { kind: 'present', on: true } }]);
    live.close();
    expect(live.publish('rtc:c1', { kind: 'present', on: false })).toBe(false);
  });

  it('sends a screen token with its scheme', async () => {
    start({ auth: () => ({ token: 'screen-1', scheme: 'Screen' }) }).subscribe('queue:b1', { onEvent: () => {} });
    await until(subscribedPeer('queue:b1'));
    expect(peers[0]!.auth).toEqual({ type: 'auth', token: 'screen-1', scheme: 'Screen' });
  });

  it('reconnects after a drop, subscribes again and asks the page to resynchronise', async () => {
    let resyncs = 0;
    const got: unknown[] = [];
    start().subscribe('queue:b1', { onEvent: (e) => got.push(e), onResync: () => resyncs++ });
    await until(subscribedPeer('queue:b1'));
    // once confirmed: what came before the subscription is read again
    await until(() => resyncs === 1);
    peers[0]!.socket.terminate();
    await until(subscribedPeer('queue:b1', 1));
    await until(() => resyncs === 2);
    push(peers[1]!, 'queue:b1', 'after', { back: true });
    await until(() => got.length === 1);
    expect(got).toEqual([{ back: true }]);
  });

  it('keeps trying while the server is down and comes back when it does', async () => {
    const statuses: string[] = [];
    const live = start({ onStatus: (s) => statuses.push(s) });
    live.subscribe('queue:b1', { onEvent: () => {} });
    await until(subscribedPeer('queue:b1'));
    const port = (server.address() as { port: number }).port;
    for (const c of server.clients) c.terminate();
    await new Promise((resolve) => server.close(resolve));
    await new Promise((r) => setTimeout(r, 200));
    expect(live.status).not.toBe('open');
    // the same port again: a restarted server
    const restarted = new WebSocketServer({ port, host: '127.0.0.1' });
    const back = new Promise<ServerSocket>((resolve) => restarted.on('connection', resolve));
    const socket = await back;
    const auth = await new Promise((resolve) => socket.once('message', (d) => resolve(JSON.parse(String(d)))));
    expect(auth).toEqual({ type: 'auth', token: 'tok-1' });
    expect(statuses).toContain('waiting');
    live.close();
    socket.terminate();
    await new Promise((resolve) => restarted.close(resolve));
  });

  it('connects at once when the browser says the network is back, without waiting out the backoff', async () => {
    start({ reconnectMinMs: 60_000, reconnectMaxMs: 60_000 }).subscribe('queue:b1', { onEvent: () => {} });
    await until(subscribedPeer('queue:b1'));
    peers[0]!.socket.terminate();
    await new Promise((r) => setTimeout(r, 100));
    expect(peers).toHaveLength(1);
    window.dispatchEvent(new Event('online'));
    await until(subscribedPeer('queue:b1', 1));
  });

  it('takes a silent connection for dead and reconnects', async () => {
    start({ silenceMs: 150 }).subscribe('queue:b1', { onEvent: () => {} });
    await until(subscribedPeer('queue:b1'));
    mute = true;
    await until(() => peers.length === 2, 2000);
    mute = false;
  });

  it('closes a socket still connecting without an uncaught error', async () => {
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onError);
    try {
      const live = start();
      live.subscribe('queue:b1', { onEvent: () => {} });
      expect(live.status).toBe('connecting');
      live.close();
      await new Promise((r) => setTimeout(r, 50));
      expect(errors).toEqual([]);
      expect(live.status).toBe('idle');
    } finally {
      process.off('uncaughtException', onError);
    }
  });

  it('passes on a resync message and a refused topic', async () => {
    let resyncs = 0;
    let refused = 0;
    const live = start();
    live.subscribe('queue:b1', { onEvent: () => {}, onResync: () => resyncs++ });
    live.subscribe('queue:secret', { onEvent: () => {}, onRefused: () => refused++ });
    await until(() => refused === 1 && resyncs === 1);
    peers[0]!.socket.send(JSON.stringify({ type: 'resync' }));
    await until(() => resyncs === 2);
  });

  it('unsubscribes a topic when its last listener leaves and closes with the last topic', async () => {
    const live = start();
    const stopA = live.subscribe('queue:b1', { onEvent: () => {} });
    const stopB = live.subscribe('queue:b1', { onEvent: () => {} });
    await until(subscribedPeer('queue:b1'));
    stopA();
    await new Promise((r) => setTimeout(r, 50));
    expect(peers[0]!.topics).toEqual(['queue:b1']);
    const closed = new Promise((resolve) => peers[0]!.socket.once('close', resolve));
    stopB();
    await closed;
    expect(live.status).toBe('idle');
    await new Promise((r) => setTimeout(r, 150));
    expect(peers).toHaveLength(1);
  });

  it('waits for a token before connecting', async () => {
    let token: string | null = null;
    start({ auth: () => (token ? { token } : null) }).subscribe('queue:b1', { onEvent: () => {} });
    await new Promise((r) => setTimeout(r, 100));
    expect(peers).toHaveLength(0);
    token = 'late';
    await until(subscribedPeer('queue:b1'));
    expect(peers[0]!.auth).toEqual({ type: 'auth', token: 'late' });
  });
});

describe('useLiveTopic', () => {
  it('follows the topic while mounted, with the latest callbacks, and leaves it on unmount', async () => {
    const live = start();
    const got: string[] = [];
    const { rerender, unmount } = renderHook(
      ({ tag }: { tag: string }) => useLiveTopic('queue:b1', (e) => got.push(`${tag}:${String(e)}`), { client: live }),
      { initialProps: { tag: 'first' } },
    );
    await until(subscribedPeer('queue:b1'));
    rerender({ tag: 'second' });
    push(peers[0]!, 'queue:b1', 'x1', 'called');
    await until(() => got.length === 1);
    expect(got).toEqual(['second:called']);
    // one subscription for the whole life of the component
    expect(peers).toHaveLength(1);
    unmount();
    expect(live.followed).toEqual([]);
  });
});

describe('useLiveStatus', () => {
  it('re-renders with the client status as it connects and closes', async () => {
    const live = start();
    const { result } = renderHook(() => useLiveStatus(live));
    expect(result.current).toBe('idle');
    const stop = live.subscribe('queue:b1', { onEvent: () => {} });
    await until(() => result.current === 'open');
    stop();
    await until(() => result.current === 'idle');
  });
});

import { API_PREFIX } from '../app.js';
import { WebSocket, type ClientOptions } from 'ws';
import type { LiveServerMessage } from '@yyp/contracts';
import type { TestApp } from '../test/harness.js';

/** A real WebSocket client of the live endpoint that records what it hears (test support). */
export interface LiveProbe {
  socket: WebSocket;
  messages: LiveServerMessage[];
  send(message: unknown): void;
  /** the first message (from now on or already heard) that matches, within ms */
  next(match: (m: LiveServerMessage) => boolean, ms?: number): Promise<LiveServerMessage>;
  /** the close code, once closed */
  closed: Promise<number>;
  close(): void;
}

/** Listens on a free local port (once) and answers the live socket's URL. */
export async function liveUrl(t: TestApp): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `ws://127.0.0.1:${address.port}${API_PREFIX}/live`;
}

export async function openProbe(url: string, options: ClientOptions = {}): Promise<LiveProbe> {
  const socket = new WebSocket(url, options);
  const messages: LiveServerMessage[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as LiveServerMessage);
    for (const w of waiters) w();
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    messages,
    closed,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: (match, ms = 3000) =>
      new Promise((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < messages.length; seen++) {
            if (match(messages[seen]!)) {
              clearTimeout(timer);
              waiters.delete(check);
              return resolve(messages[seen]!);
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching live message in ${ms} ms; heard ${JSON.stringify(messages)}`));
        }, ms);
        waiters.add(check);
        check();
      }),
    close: () => socket.close(),
  };
}

/** A probe signed in with the token (scheme absent: an account's) and subscribed to the topics. */
export async function subscribedProbe(
  url: string,
  token: string,
  topics: string[],
  scheme?: string,
  options: ClientOptions = {},
) {
  const probe = await openProbe(url, options);
  probe.send({ type: 'auth', token, ...(scheme ? { scheme } : {}) });
  await probe.next((m) => m.type === 'ready');
  for (const topic of topics) {
    probe.send({ type: 'subscribe', topic });
    await probe.next((m) => m.type === 'subscribed' && m.topic === topic);
  }
  return probe;
}

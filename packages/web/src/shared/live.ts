import { API_BASE, LIVE_PATH, liveServerMessageSchema, type LiveServerMessage } from '@yyp/contracts';
import { sessionStore } from '../api/sessionStore';
import {
  LIVE_RECONNECT_MAX_MS,
  LIVE_RECONNECT_MIN_MS,
  LIVE_SILENCE_MS,
  LIVE_STABLE_MS,
  RecentIds,
  liveReconnectDelay,
  liveSocketUrl,
} from './liveBackoff';

/**
 * The live events client (issue 23; server: platform/live-socket.ts, protocol: contracts/live.ts).
 * One WebSocket carries every topic a page follows. It authenticates with the account's token (or
 * a screen token), subscribes, hands events to their listeners, and when the connection drops
 * (network, server restart, silence past LIVE_SILENCE_MS) reconnects with exponential backoff and
 * jitter, subscribes again and calls each listener's onResync: events of the gap are lost, the page
 * refetches from the API. Events are hints; the API stays the record (and polling the fallback).
 */
export interface LiveAuth {
  token: string;
  /** absent: an account's bearer token; 'Screen': a waiting-room screen's token */
  scheme?: string;
}

export type LiveStatus = 'idle' | 'connecting' | 'open' | 'waiting';

export interface LiveListener {
  onEvent(event: unknown, id: string): void;
  /**
   * events may have been missed: refetch. Called once the topic is confirmed (closing the gap
   * between the page's first read and the subscription), after every reconnect, and when the
   * server lost events itself.
   */
  onResync?(): void;
  /** the server refused the topic (Forbidden) */
  onRefused?(): void;
}

export interface LiveClientOptions {
  /** the token to authenticate with, read at each connect; null: wait and try again */
  auth: () => LiveAuth | null;
  /** default: the page's origin + /yyp/api/v1/live */
  url?: string;
  WebSocket?: typeof WebSocket;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  silenceMs?: number;
  random?: () => number;
  onStatus?: (status: LiveStatus) => void;
}

export class LiveClient {
  private readonly topics = new Map<string, Set<LiveListener>>();
  private socket: WebSocket | null = null;
  private ready = false;
  private attempt = 0;
  private openedAt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly recent = new RecentIds();
  private stopped = false;
  private readonly statusListeners = new Set<(status: LiveStatus) => void>();
  status: LiveStatus = 'idle';

  constructor(private readonly options: LiveClientOptions) {}

  /** Follows a topic; the answer stops following it. */
  subscribe(topic: string, listener: LiveListener): () => void {
    let listeners = this.topics.get(topic);
    if (!listeners) {
      listeners = new Set();
      this.topics.set(topic, listeners);
      if (this.ready) this.send({ type: 'subscribe', topic });
    }
    listeners.add(listener);
    this.stopped = false;
    if (!this.socket && !this.retryTimer) this.connect();
    return () => {
      const set = this.topics.get(topic);
      if (!set?.delete(listener) || set.size > 0) return;
      this.topics.delete(topic);
      if (this.ready) this.send({ type: 'unsubscribe', topic });
      if (this.topics.size === 0) this.disconnect();
    };
  }

  /**
   * Sends an event to a topic's subscribers (a family whose module allows publishing: a video
   * room's signals). Only while connected and authenticated: answers false otherwise (the event is
   * dropped; the caller sends again after its next onResync).
   */
  publish(topic: string, event: unknown): boolean {
    if (!this.ready || this.socket?.readyState !== 1) return false;
    this.send({ type: 'publish', topic, event });
    return true;
  }

  /** Drops the connection and connects again now (e.g. another account signed in). */
  restart(): void {
    this.disconnect();
    this.attempt = 0;
    if (this.topics.size > 0) this.connect();
  }

  /** Stops for good: no reconnect until the next subscribe. */
  close(): void {
    this.topics.clear();
    this.disconnect();
  }

  /** Topics followed now (for tests and diagnostics). */
  get followed(): string[] {
    return [...this.topics.keys()];
  }

  /** Calls listener at each change of status; the answer stops it. */
  watchStatus(listener: (status: LiveStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private setStatus(status: LiveStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.options.onStatus?.(status);
    for (const listener of [...this.statusListeners]) listener(status);
  }

  private send(message: unknown): void {
    if (this.socket?.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  private connect(): void {
    this.stopWaiting();
    if (this.stopped || this.topics.size === 0) return;
    const auth = this.options.auth();
    if (!auth) return this.retry();
    const Impl = this.options.WebSocket ?? globalThis.WebSocket;
    const url = this.options.url ?? liveSocketUrl(window.location, `${API_BASE}${LIVE_PATH}`);
    let socket: WebSocket;
    try {
      socket = new Impl(url);
    } catch {
      return this.retry();
    }
    this.socket = socket;
    this.setStatus('connecting');
    socket.onopen = () => {
      socket.send(JSON.stringify({ type: 'auth', token: auth.token, ...(auth.scheme ? { scheme: auth.scheme } : {}) }));
      this.watch();
    };
    socket.onmessage = (e: MessageEvent) => {
      if (this.socket !== socket) return;
      this.watch();
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(e.data));
      } catch {
        return;
      }
      const message = liveServerMessageSchema.safeParse(parsed);
      if (message.success) this.onMessage(message.data);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.dropped();
    };
    // an error is followed by close
    socket.onerror = () => undefined;
  }

  private onMessage(message: LiveServerMessage): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.openedAt = Date.now();
        this.setStatus('open');
        for (const topic of this.topics.keys()) this.send({ type: 'subscribe', topic });
        return;
      case 'subscribed':
        // Whatever happened before the topic was confirmed (since the page's first read, or during
        // a drop) was not heard: the page reads again.
        this.each(message.topic, (l) => l.onResync?.());
        return;
      case 'event':
        if (!this.recent.add(message.id)) return;
        this.each(message.topic, (l) => l.onEvent(message.event, message.id));
        return;
      case 'resync':
        for (const topic of this.topics.keys()) this.each(topic, (l) => l.onResync?.());
        return;
      case 'error':
        if (message.topic && message.code === 'Forbidden') this.each(message.topic, (l) => l.onRefused?.());
        return;
      default:
        return;
    }
  }

  private each(topic: string, fn: (listener: LiveListener) => void): void {
    for (const listener of [...(this.topics.get(topic) ?? [])]) {
      try {
        fn(listener);
      } catch (err) {
        console.error('live listener failed', err);
      }
    }
  }

  /** Restarts the silence watchdog: a connection that hears nothing for silenceMs is dead. */
  private watch(): void {
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    const socket = this.socket;
    this.silenceTimer = setTimeout(() => {
      if (this.socket === socket) {
        socket?.close();
        this.dropped();
      }
    }, this.options.silenceMs ?? LIVE_SILENCE_MS);
  }

  private dropped(): void {
    const stable = this.ready && Date.now() - this.openedAt >= LIVE_STABLE_MS;
    this.release();
    if (stable) this.attempt = 0;
    this.retry();
  }

  private retry(): void {
    if (this.stopped || this.topics.size === 0 || this.retryTimer) return;
    this.setStatus('waiting');
    const delay = liveReconnectDelay(
      this.attempt++,
      this.options.random,
      this.options.reconnectMinMs ?? LIVE_RECONNECT_MIN_MS,
      this.options.reconnectMaxMs ?? LIVE_RECONNECT_MAX_MS,
    );
    this.retryTimer = setTimeout(() => this.connect(), delay);
    // The network came back (a laptop's wifi, a TV's cable): no need to wait out the backoff.
    if (typeof window !== 'undefined') window.addEventListener('online', this.onOnline);
  }

  /** Forgets the socket (closing it) and its timers. */
  private release(): void {
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = null;
      // Closing a socket still connecting makes it report an error (an uncaught one in Node's ws,
      // which the tests use, when nobody listens): it is expected here and ignored.
      socket.onerror = () => undefined;
      if (socket.readyState === 0 || socket.readyState === 1) socket.close();
    }
  }

  private readonly onOnline = (): void => {
    this.attempt = 0;
    this.connect();
  };

  private stopWaiting(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (typeof window !== 'undefined') window.removeEventListener('online', this.onOnline);
  }

  private disconnect(): void {
    this.stopWaiting();
    this.release();
    this.setStatus('idle');
  }
}

let accountClient: LiveClient | null = null;

/**
 * The signed-in account's live client, shared by every page of the app: it reads the stored token
 * at each connect and starts over when another token is stored (sign-in, sign-out).
 */
export function accountLiveClient(): LiveClient {
  if (accountClient) return accountClient;
  const client = new LiveClient({
    auth: () => {
      const token = sessionStore.getAccessToken();
      return token ? { token } : null;
    },
  });
  let token = sessionStore.getAccessToken();
  sessionStore.subscribe(() => {
    const now = sessionStore.getAccessToken();
    if (now === token) return;
    token = now;
    client.restart();
  });
  accountClient = client;
  return client;
}

import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { LIVE_MAX_PAYLOAD_BYTES, LIVE_TOPIC_PATTERN } from '@yyp/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';

/**
 * Live events between instances (issue 23 "Live events"): a module publishes a small event on a
 * topic (`calling:<bucketId>`), every instance's subscribers of that topic receive it. Generic:
 * the calling queue, later notifications and consultations publish through it.
 *
 * On PostgreSQL one dedicated connection LISTENs on one channel and publish is
 * `pg_notify(channel, {topic, event, id})`, so an event published on instance A reaches a socket
 * on instance B (and A's own subscribers through the same path, never twice). That connection is
 * re-opened with backoff after a drop (a PostgreSQL restart); events sent meanwhile are lost, so
 * subscribers are told to resynchronise (`onResync`). On PGlite (one process) it is in-process.
 *
 * Events are hints, not the record: keep them small (ids, numbers) and let clients refetch.
 */
export interface LiveMessage {
  topic: string;
  /** unique per publish (clients may drop a repeat) */
  id: string;
  event: unknown;
}
export type LiveListener = (message: LiveMessage) => void;

export interface LiveBus {
  readonly kind: 'memory' | 'postgres';
  /** Sends the event to every instance's subscribers of the topic. Refuses a bad topic or an event too big. */
  publish(topic: string, event: unknown): Promise<void>;
  /** Calls listener for each event on the topic; returns the unsubscribe. */
  subscribe(topic: string, listener: LiveListener): () => void;
  /** Calls listener when events may have been lost (the listening connection came back). */
  onResync(listener: () => void): () => void;
  /** Resolves once events are being received (PostgreSQL: the LISTEN is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const LIVE_CHANNEL = 'yyp_live';

export class LivePayloadError extends Error {}

export interface LiveBusOptions {
  /** PostgreSQL: LISTEN/NOTIFY across instances; absent: in-process (PGlite) */
  databaseUrl?: string | undefined;
  /**
   * In-process only: buses made with the same key share their events (app.ts passes the database:
   * two apps on one embedded database are two instances of one deployment, as in the tests).
   */
  sharedBy?: object | undefined;
  logger?: FastifyBaseLogger | undefined;
  /** reconnect backoff of the listening connection (default 100 ms doubling to 5 s) */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

/** The wire form of a publish; throws LivePayloadError for a bad topic or a payload PostgreSQL would refuse. */
export function encodeLiveMessage(topic: string, event: unknown): { message: LiveMessage; json: string } {
  if (!LIVE_TOPIC_PATTERN.test(topic)) throw new LivePayloadError(`not a live topic: ${JSON.stringify(topic)}`);
  const message: LiveMessage = { topic, id: crypto.randomUUID(), event: event ?? null };
  const json = JSON.stringify(message);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > LIVE_MAX_PAYLOAD_BYTES) {
    throw new LivePayloadError(`live event on ${topic} is ${bytes} bytes, over ${LIVE_MAX_PAYLOAD_BYTES}`);
  }
  return { message, json };
}

/** A received payload, or null when it is not one of ours. */
export function decodeLiveMessage(json: string): LiveMessage | null {
  try {
    const value = JSON.parse(json) as Partial<LiveMessage>;
    if (typeof value.topic !== 'string' || typeof value.id !== 'string' || !('event' in value)) return null;
    return { topic: value.topic, id: value.id, event: value.event };
  } catch {
    return null;
  }
}

/** Delay before reconnect attempt n (0-based): doubling from min to max, with up to 25 % jitter. */
export function reconnectDelay(attempt: number, minMs: number, maxMs: number, random = Math.random): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.75 + 0.25 * random()));
}

/** Subscribers per topic; one listener's failure never stops the others. */
class Fanout {
  private readonly emitter = new EventEmitter();
  private readonly resync = new EventEmitter();
  constructor(private readonly logger?: FastifyBaseLogger) {
    this.emitter.setMaxListeners(0);
    this.resync.setMaxListeners(0);
  }
  subscribe(topic: string, listener: LiveListener): () => void {
    const safe = (message: LiveMessage) => {
      try {
        listener(message);
      } catch (err) {
        this.logger?.error({ err, topic }, 'live listener failed');
      }
    };
    this.emitter.on(topic, safe);
    return () => this.emitter.off(topic, safe);
  }
  onResync(listener: () => void): () => void {
    this.resync.on('resync', listener);
    return () => this.resync.off('resync', listener);
  }
  deliver(message: LiveMessage): void {
    this.emitter.emit(message.topic, message);
  }
  announceResync(): void {
    for (const listener of this.resync.listeners('resync')) {
      try {
        (listener as () => void)();
      } catch (err) {
        this.logger?.error({ err }, 'live resync listener failed');
      }
    }
  }
  clear(): void {
    this.emitter.removeAllListeners();
    this.resync.removeAllListeners();
  }
}

export function createLiveBus(options: LiveBusOptions = {}): LiveBus {
  if (options.databaseUrl) return new PostgresLiveBus(options.databaseUrl, options);
  return new MemoryLiveBus(options.logger, options.sharedBy);
}

/** The in-process buses sharing one key. */
const memoryHubs = new WeakMap<object, Set<MemoryLiveBus>>();

class MemoryLiveBus implements LiveBus {
  readonly kind = 'memory';
  private readonly fanout: Fanout;
  private readonly hub: Set<MemoryLiveBus>;
  private closed = false;
  constructor(logger: FastifyBaseLogger | undefined, sharedBy: object | undefined) {
    this.fanout = new Fanout(logger);
    if (sharedBy) {
      this.hub = memoryHubs.get(sharedBy) ?? new Set();
      memoryHubs.set(sharedBy, this.hub);
    } else {
      this.hub = new Set();
    }
    this.hub.add(this);
  }
  async publish(topic: string, event: unknown): Promise<void> {
    const { message } = encodeLiveMessage(topic, event);
    if (this.closed) return;
    // Delivered after the publisher's turn, as NOTIFY is: a publisher never runs its listeners inline.
    setImmediate(() => {
      for (const bus of this.hub) bus.fanout.deliver(message);
    });
  }
  subscribe(topic: string, listener: LiveListener): () => void {
    return this.fanout.subscribe(topic, listener);
  }
  onResync(listener: () => void): () => void {
    return this.fanout.onResync(listener);
  }
  ready(): Promise<void> {
    return Promise.resolve();
  }
  async close(): Promise<void> {
    this.closed = true;
    this.hub.delete(this);
    this.fanout.clear();
  }
}

type PgClient = pg.Client;
type PgPool = pg.Pool;

class PostgresLiveBus implements LiveBus {
  readonly kind = 'postgres';
  private readonly fanout: Fanout;
  private client: PgClient | null = null;
  /** publishes go through a small pool of their own, not the listening connection */
  private pool: PgPool | null = null;
  private closed = false;
  private attempt = 0;
  private timer: NodeJS.Timeout | null = null;
  private connectedOnce = false;
  private readonly firstReady: Promise<void>;
  private resolveReady!: () => void;
  private readonly minMs: number;
  private readonly maxMs: number;

  constructor(
    private readonly url: string,
    private readonly options: LiveBusOptions,
  ) {
    this.fanout = new Fanout(options.logger);
    this.minMs = options.reconnectMinMs ?? 100;
    this.maxMs = options.reconnectMaxMs ?? 5_000;
    this.firstReady = new Promise((resolve) => (this.resolveReady = resolve));
    void this.connect();
  }

  private async pg() {
    return (await import('pg')).default;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const pg = await this.pg();
    const client = new pg.Client({ connectionString: this.url, keepAlive: true, connectionTimeoutMillis: 5_000 });
    let failed = false;
    const fail = (err?: unknown) => {
      if (failed) return;
      failed = true;
      if (this.client === client) this.client = null;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.options.logger?.warn({ err }, 'live listener connection lost; reconnecting');
      this.scheduleReconnect();
    };
    client.on('error', fail);
    client.on('end', () => fail());
    client.on('notification', (n) => {
      if (n.channel !== LIVE_CHANNEL || n.payload === undefined) return;
      const message = decodeLiveMessage(n.payload);
      if (message) this.fanout.deliver(message);
    });
    try {
      await client.connect();
      await client.query(`listen ${LIVE_CHANNEL}`);
    } catch (err) {
      fail(err);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.attempt = 0;
    if (this.connectedOnce) this.fanout.announceResync();
    this.connectedOnce = true;
    this.resolveReady();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.timer) return;
    const delay = reconnectDelay(this.attempt++, this.minMs, this.maxMs);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, delay);
    this.timer.unref();
  }

  async publish(topic: string, event: unknown): Promise<void> {
    const { json } = encodeLiveMessage(topic, event);
    if (this.closed) return;
    if (!this.pool) {
      const pg = await this.pg();
      // A database that does not answer fails a publish in 5 s rather than holding its caller.
      this.pool = new pg.Pool({
        connectionString: this.url,
        max: 2,
        idleTimeoutMillis: 30_000,
        connectionTimeoutMillis: 5_000,
      });
      this.pool.on('error', () => {
        /* an idle client dropped by the server; the pool replaces it */
      });
    }
    await this.pool.query('select pg_notify($1, $2)', [LIVE_CHANNEL, json]);
  }

  subscribe(topic: string, listener: LiveListener): () => void {
    return this.fanout.subscribe(topic, listener);
  }
  onResync(listener: () => void): () => void {
    return this.fanout.onResync(listener);
  }
  ready(): Promise<void> {
    return this.firstReady;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.fanout.clear();
    const client = this.client;
    this.client = null;
    this.resolveReady();
    await Promise.all([client?.end().catch(() => undefined), this.pool?.end().catch(() => undefined)]);
    this.pool = null;
  }
}

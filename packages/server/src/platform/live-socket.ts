import fastifyWebsocket from '@fastify/websocket';
import {
  LIVE_AUTH_TIMEOUT_MS,
  LIVE_CLOSE,
  LIVE_HEARTBEAT_MS,
  LIVE_MAX_MESSAGES,
  LIVE_MAX_PUBLISHES,
  LIVE_MAX_TOPICS,
  LIVE_MESSAGE_WINDOW_MS,
  liveClientMessageSchema,
  type LiveServerMessage,
} from '@yyp/contracts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { LivePayloadError, type LiveBus, type LiveMessage } from './live.js';
import type { LiveAccess, LivePrincipal } from './live-access.js';

/**
 * The live WebSocket (contracts/live.ts has the protocol): the first message authenticates
 * (LIVE_AUTH_TIMEOUT_MS, else 4401), then subscribe/unsubscribe to topics the LiveAccess registry
 * authorizes; bus events on those topics are pushed as they come. Every LIVE_HEARTBEAT_MS the
 * server pings (a socket that did not answer the previous ping is terminated), sends a heartbeat
 * message (the browser cannot see pings) and re-verifies token principals (a revoked screen token
 * is closed 4401). A client may publish on a family whose module registered a publish authorizer
 * (LiveAccess.publishAuthorizer): the event goes out as `{from, data}` with the sender the module
 * stamped; publishes are counted in a budget of their own (LIVE_MAX_PUBLISHES per window). A client whose send buffer passes maxBufferedBytes is dropped (4408) rather than
 * let memory grow. Closing the app closes every socket (1001).
 */
export interface LiveSocketOptions {
  bus: LiveBus;
  access: LiveAccess;
  /** full path, e.g. /yyp/api/v1/live */
  path: string;
  logger: FastifyBaseLogger;
  heartbeatMs?: number;
  authTimeoutMs?: number;
  /** unsent bytes a socket may hold before it is dropped (default 1 MiB) */
  maxBufferedBytes?: number;
}

const MAX_MESSAGE_BYTES = 8 * 1024;

export async function installLiveSocket(app: FastifyInstance, options: LiveSocketOptions): Promise<void> {
  const sockets = new Set<WebSocket>();
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    preClose: (done) => {
      closeAll(sockets).then(() => done(), done);
    },
  });
  const heartbeatMs = options.heartbeatMs ?? LIVE_HEARTBEAT_MS;
  const unsubscribeResync = options.bus.onResync(() => {
    for (const socket of sockets) send(socket, { type: 'resync' }, options.maxBufferedBytes);
  });
  app.addHook('onClose', async () => unsubscribeResync());
  app.get(
    options.path,
    { websocket: true, config: { auth: 'public' }, schema: { hide: true } },
    (socket: WebSocket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      new LiveSession(socket, options, heartbeatMs).start();
    },
  );
}

/** Closes every socket with 1001; one that does not finish its close handshake soon is cut. */
async function closeAll(sockets: Set<WebSocket>): Promise<void> {
  await Promise.all(
    [...sockets].map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === socket.CLOSED) return resolve();
          const cut = setTimeout(() => socket.terminate(), 500);
          socket.once('close', () => {
            clearTimeout(cut);
            resolve();
          });
          socket.close(LIVE_CLOSE.goingAway, 'server closing');
        }),
    ),
  );
}

/** Sends a message unless the socket's unsent bytes are over the limit: then it is dropped. */
function send(socket: WebSocket, message: LiveServerMessage, maxBufferedBytes = 1024 * 1024): void {
  if (socket.readyState !== socket.OPEN) return;
  if (socket.bufferedAmount > maxBufferedBytes) {
    socket.close(LIVE_CLOSE.slowConsumer, 'too slow');
    // A client too slow to read will not read the close frame either.
    setTimeout(() => socket.terminate(), 1000).unref();
    return;
  }
  socket.send(JSON.stringify(message));
}

class LiveSession {
  private principal: LivePrincipal | null = null;
  /** topic → the bus unsubscribe */
  private readonly topics = new Map<string, () => void>();
  private alive = true;
  private authTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** messages are handled one at a time, in order (auth before the first subscribe) */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** messages heard in the current window (a client flooding subscribes is closed) */
  private window = { start: Date.now(), count: 0 };
  /** publishes heard in the current window (their own budget: a video call's ICE burst) */
  private publishes = { start: Date.now(), count: 0 };

  constructor(
    private readonly socket: WebSocket,
    private readonly options: LiveSocketOptions,
    private readonly heartbeatMs: number,
  ) {}

  start(): void {
    const { socket } = this;
    this.authTimer = setTimeout(
      () => this.close(LIVE_CLOSE.unauthenticated, 'auth timeout'),
      this.options.authTimeoutMs ?? LIVE_AUTH_TIMEOUT_MS,
    );
    socket.on('pong', () => (this.alive = true));
    socket.on('message', (data, isBinary) => {
      const parsed = parseMessage(data, isBinary);
      if (this.flooding(parsed)) return this.close(LIVE_CLOSE.tooManyMessages, 'too many messages');
      this.queue = this.queue
        .then(() => this.onMessage(parsed))
        .catch((err: unknown) => {
          this.options.logger.error({ err }, 'live message failed');
          this.close(LIVE_CLOSE.badMessage, 'failed');
        });
    });
    socket.on('error', () => this.cleanup());
    socket.on('close', () => this.cleanup());
    this.heartbeat = setInterval(
      () => void this.beat().catch((err: unknown) => this.options.logger.warn({ err }, 'live heartbeat check failed')),
      this.heartbeatMs,
    );
  }

  private flooding(parsed: unknown): boolean {
    const now = Date.now();
    if ((parsed as { type?: unknown } | undefined)?.type === 'publish') {
      if (now - this.publishes.start >= LIVE_MESSAGE_WINDOW_MS) this.publishes = { start: now, count: 0 };
      return ++this.publishes.count > LIVE_MAX_PUBLISHES;
    }
    if (now - this.window.start >= LIVE_MESSAGE_WINDOW_MS) this.window = { start: now, count: 0 };
    return ++this.window.count > LIVE_MAX_MESSAGES;
  }

  private send(message: LiveServerMessage): void {
    send(this.socket, message, this.options.maxBufferedBytes);
  }

  private close(code: number, reason: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(code, reason);
    this.cleanup();
  }

  private cleanup(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.authTimer) clearTimeout(this.authTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const unsubscribe of this.topics.values()) unsubscribe();
    this.topics.clear();
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    if (!this.alive) {
      this.socket.terminate();
      this.cleanup();
      return;
    }
    this.alive = false;
    this.socket.ping();
    if (!this.principal) return;
    this.send({ type: 'heartbeat' });
    // A screen token revoked while connected stops here. (An account's token is checked again at
    // each subscribe, not here: a check would count as activity and keep an idle session alive.)
    if (this.principal.kind === 'token') {
      const again = await this.options.access.authenticate(this.principalToken!, this.principal.scheme);
      if (!again) this.close(LIVE_CLOSE.unauthenticated, 'token revoked');
    }
  }

  private principalToken: string | null = null;

  private async onMessage(parsed: unknown): Promise<void> {
    if (this.closed) return;
    const message = liveClientMessageSchema.safeParse(parsed);
    if (!message.success) {
      if (!this.principal) return this.close(LIVE_CLOSE.unauthenticated, 'auth expected');
      this.send({ type: 'error', code: 'BadMessage' });
      return;
    }
    const m = message.data;
    if (m.type === 'auth') return this.authenticate(m.token, m.scheme);
    if (!this.principal) return this.close(LIVE_CLOSE.unauthenticated, 'auth expected');
    if (m.type === 'publish') return this.publish(m.topic, m.event);
    if (m.type === 'unsubscribe') {
      this.topics.get(m.topic)?.();
      this.topics.delete(m.topic);
      this.send({ type: 'unsubscribed', topic: m.topic });
      return;
    }
    await this.subscribe(m.topic);
  }

  private async authenticate(token: string, scheme: string | undefined): Promise<void> {
    if (this.principal) {
      this.send({ type: 'error', code: 'BadMessage' });
      return;
    }
    const principal = await this.options.access.authenticate(token, scheme);
    if (!principal) return this.close(LIVE_CLOSE.unauthenticated, 'bad token');
    if (this.authTimer) clearTimeout(this.authTimer);
    this.principal = principal;
    this.principalToken = token;
    this.send({ type: 'ready' });
  }

  private async publish(topic: string, event: unknown): Promise<void> {
    const from = await this.options.access.authorizePublish(this.principal!, topic, event);
    if (!from) {
      this.send({ type: 'error', topic, code: 'PublishRefused' });
      return;
    }
    if (this.closed) return;
    try {
      // awaited: one client's events reach the bus in the order it sent them
      await this.options.bus.publish(topic, { from, data: event });
    } catch (err) {
      if (!(err instanceof LivePayloadError)) throw err;
      this.send({ type: 'error', topic, code: 'TooLarge' });
    }
  }

  private async subscribe(topic: string): Promise<void> {
    const principal = this.principal!;
    if (this.topics.has(topic)) {
      this.send({ type: 'subscribed', topic });
      return;
    }
    if (this.topics.size >= LIVE_MAX_TOPICS) {
      this.send({ type: 'error', topic, code: 'TooManyTopics' });
      return;
    }
    // The account's token again (ended sessions, disabled accounts), then the topic's family.
    if (principal.kind === 'account') {
      const again = await this.options.access.authenticate(this.principalToken!);
      if (!again) return this.close(LIVE_CLOSE.unauthenticated, 'session ended');
      this.principal = again;
    }
    if (!(await this.options.access.authorize(this.principal!, topic))) {
      this.send({ type: 'error', topic, code: 'Forbidden' });
      return;
    }
    if (this.closed || this.topics.has(topic)) return;
    const unsubscribe = this.options.bus.subscribe(topic, (event: LiveMessage) =>
      this.send({ type: 'event', topic: event.topic, id: event.id, event: event.event }),
    );
    this.topics.set(topic, unsubscribe);
    this.send({ type: 'subscribed', topic });
  }
}

/** A client message's JSON (undefined when binary or not JSON); the schema is checked in order. */
function parseMessage(data: unknown, isBinary: boolean): unknown {
  if (isBinary) return undefined;
  try {
    return JSON.parse(String(data)) as unknown;
  } catch {
    return undefined;
  }
}

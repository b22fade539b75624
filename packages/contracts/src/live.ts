import { z } from 'zod';

/**
 * Live events (issue 23 "Live events"): one WebSocket at API_BASE + LIVE_PATH
 * (`/yyp/api/v1/live`). Browsers cannot set headers on a WebSocket, so the client's first message
 * authenticates: `{type:'auth', token}` with the account's bearer token, or a token of a registered
 * scheme (`scheme: 'Screen'`: a waiting-room screen's token). Then it subscribes to topics, each
 * `<prefix>:<rest>` (e.g. `calling:<bucketId>`), and the server pushes `{type:'event'}` messages.
 * Events are hints: after a gap (reconnect, `{type:'resync'}`) the client refetches from the API.
 */
export const LIVE_PATH = 'live';
/** the client has this long after opening to send its auth message, else the socket closes 4401 */
export const LIVE_AUTH_TIMEOUT_MS = 5_000;
/** the server pings (and sends a heartbeat message) this often; a socket silent for two closes */
export const LIVE_HEARTBEAT_MS = 25_000;
/** topics one socket may hold */
export const LIVE_MAX_TOPICS = 32;
/** messages a client may send within LIVE_MESSAGE_WINDOW_MS (each subscribe costs a check) */
export const LIVE_MAX_MESSAGES = 100;
export const LIVE_MESSAGE_WINDOW_MS = 10_000;
/**
 * publish messages have a budget of their own within the same window (a video call's ICE burst,
 * its description parts and keep-alives must not close the socket, nor eat the subscribes' budget)
 */
export const LIVE_MAX_PUBLISHES = 300;
/** an event's topic, id and JSON together stay under PostgreSQL's NOTIFY payload limit (8000 bytes) */
export const LIVE_MAX_PAYLOAD_BYTES = 7_900;

/** Close codes of the live socket (4000–4999 are the application's). */
export const LIVE_CLOSE = {
  /** server shutting down, or a restart: reconnect */
  goingAway: 1001,
  /** no auth in time, a bad or expired token, or a token revoked while connected: sign in again */
  unauthenticated: 4401,
  /** a message that is not the protocol */
  badMessage: 4400,
  /** the client read too slowly and its send buffer filled: reconnect and refetch */
  slowConsumer: 4408,
  /** more than LIVE_MAX_MESSAGES messages (or LIVE_MAX_PUBLISHES publishes) from the client within LIVE_MESSAGE_WINDOW_MS */
  tooManyMessages: 4429,
} as const;

/** `<prefix>:<rest>`: prefix names the topic family (the module that authorizes it). */
export const LIVE_TOPIC_PATTERN = /^[a-z][a-z0-9-]{0,31}:[A-Za-z0-9._:-]{1,200}$/;
export const liveTopicSchema = z.string().regex(LIVE_TOPIC_PATTERN);
/** A token scheme other than the account's Bearer, as registered by a module (e.g. 'Screen'). */
export const LIVE_SCHEME_PATTERN = /^[A-Za-z][A-Za-z0-9-]{0,31}$/;

/** The family of a topic: `calling` of `calling:b1`. */
export function liveTopicPrefix(topic: string): { prefix: string; rest: string } | null {
  if (!LIVE_TOPIC_PATTERN.test(topic)) return null;
  const at = topic.indexOf(':');
  return { prefix: topic.slice(0, at), rest: topic.slice(at + 1) };
}

export const liveClientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('auth'),
    token: z.string().min(1).max(4096),
    /** absent or 'Bearer': an account's token; else a registered scheme */
    scheme: z.string().regex(LIVE_SCHEME_PATTERN).optional(),
  }),
  z.object({ type: z.literal('subscribe'), topic: liveTopicSchema }),
  z.object({ type: z.literal('unsubscribe'), topic: liveTopicSchema }),
  /**
   * Sends an event to the topic's subscribers, for families whose module allows it (a video room's
   * signalling). The server stamps the sender (`event` arrives as `{from, data}`, `from` as the
   * module names the principal: never the client's word) and refuses what does not fit a live
   * event (TooLarge) or what the family refuses (PublishRefused).
   */
  z.object({ type: z.literal('publish'), topic: liveTopicSchema, event: z.unknown() }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

export const LIVE_ERROR_CODES = [
  'Forbidden',
  'BadMessage',
  'TooManyTopics',
  'Unauthenticated',
  'PublishRefused',
  'TooLarge',
] as const;
export type LiveErrorCode = (typeof LIVE_ERROR_CODES)[number];

export const liveServerMessageSchema = z.discriminatedUnion('type', [
  /** the auth message was accepted */
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('subscribed'), topic: z.string() }),
  z.object({ type: z.literal('unsubscribed'), topic: z.string() }),
  /** a refusal; with a topic when it answers a subscribe (the socket stays open) */
  z.object({ type: z.literal('error'), topic: z.string().optional(), code: z.enum(LIVE_ERROR_CODES) }),
  z.object({ type: z.literal('event'), topic: z.string(), id: z.string(), event: z.unknown() }),
  /** events may have been missed (the server's own listener reconnected): refetch from the API */
  z.object({ type: z.literal('resync') }),
  /** sent every LIVE_HEARTBEAT_MS: a client that hears nothing for twice that reconnects */
  z.object({ type: z.literal('heartbeat') }),
]);
export type LiveServerMessage = z.infer<typeof liveServerMessageSchema>;

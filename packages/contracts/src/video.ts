import { z } from 'zod';
import { viewStateSchema } from './viewer-follow.js';

/**
 * Built-in video for consultations (issue 25 "Video"; spec 001 §7 video-meetings/start and the
 * per-room video token): WebRTC in the browser, a mesh of up to VIDEO_MAX_PARTICIPANTS, signalled
 * over the live socket (contracts/live.ts) on the topic `rtc:<roomId>`. The room of a consultation
 * is the consultation (room id = consultation id). A room token, asked per room by a participant,
 * authenticates a live socket with the scheme 'Room'; only such a socket may follow and publish on
 * its room's topic. The room is open from VIDEO_OPENS_BEFORE_MS before the scheduled time until
 * VIDEO_CLOSES_AFTER_MS after it, while the consultation is scheduled.
 */
export const VIDEO_MAX_PARTICIPANTS = 6;
export const VIDEO_OPENS_BEFORE_MS = 30 * 60_000;
export const VIDEO_CLOSES_AFTER_MS = 12 * 3_600_000;
/** a room token lives at most this long (and never past the window's close); the client asks again before */
export const VIDEO_TOKEN_TTL_MS = 2 * 3_600_000;
/** the live socket's scheme of a room token (`{type:'auth', scheme:'Room', token}`) */
export const VIDEO_TOKEN_SCHEME = 'Room';
export const VIDEO_TOPIC_PREFIX = 'rtc';
/** a participant's media state is sent at least this often; one silent for 3× is gone */
export const VIDEO_KEEPALIVE_MS = 15_000;
/** a session description travels in parts of at most this many bytes of JSON (pg_notify's limit) */
export const VIDEO_SIGNAL_PART_BYTES = 5_000;
/** ICE candidates are batched client-side: at most this many per message */
export const VIDEO_MAX_CANDIDATES = 20;

export function videoTopic(roomId: string): string {
  return `${VIDEO_TOPIC_PREFIX}:${roomId}`;
}

/** When a consultation's room opens and closes, given its scheduled time. */
export function videoRoomWindow(scheduledAt: Date): { opensAt: Date; closesAt: Date } {
  return {
    opensAt: new Date(scheduledAt.getTime() - VIDEO_OPENS_BEFORE_MS),
    closesAt: new Date(scheduledAt.getTime() + VIDEO_CLOSES_AFTER_MS),
  };
}

/** 'early' before the room opens, 'late' once it closed, else 'open' (opensAt ≤ now < closesAt). */
export function videoWindowState(now: Date, scheduledAt: Date): 'early' | 'open' | 'late' {
  const { opensAt, closesAt } = videoRoomWindow(scheduledAt);
  if (now.getTime() < opensAt.getTime()) return 'early';
  return now.getTime() < closesAt.getTime() ? 'open' : 'late';
}

/** A room token issued now expires after VIDEO_TOKEN_TTL_MS or at the window's close, whichever is first. */
export function videoTokenExpiry(now: Date, scheduledAt: Date): Date {
  const ttl = now.getTime() + VIDEO_TOKEN_TTL_MS;
  return new Date(Math.min(ttl, videoRoomWindow(scheduledAt).closesAt.getTime()));
}

const id = z.string().min(1).max(64);

/** An RTCIceServer: STUN or TURN; TURN with time-limited credentials (coturn's REST API scheme). */
export const iceServerSchema = z.object({
  urls: z.array(z.string().min(1).max(512)).min(1),
  username: z.string().max(256).optional(),
  credential: z.string().max(256).optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

export const videoStartSchema = z.object({ consultationId: id }).strict();
export type VideoStart = z.infer<typeof videoStartSchema>;

/** The per-room token call's body: the peer id to keep (a refresh of the same join), or none for a new join. */
export const videoTokenRequestSchema = z
  .object({
    peerId: z
      .string()
      .regex(/^[A-Za-z0-9-]{8,64}$/)
      .optional(),
  })
  .strict();
export type VideoTokenRequest = z.infer<typeof videoTokenRequestSchema>;

/** The answer of video-meetings/start and of the per-room token call. */
export const videoRoomTokenSchema = z.object({
  roomId: id,
  /** the live socket's credential for this room (scheme VIDEO_TOKEN_SCHEME) */
  token: z.string().min(1),
  /** ISO time; ask the token call again before it */
  expiresAt: z.string(),
  iceServers: z.array(iceServerSchema),
  /** this join's peer (one account may join from two tabs: two peers) */
  peerId: id,
  /** the caller's name as the others see it */
  name: z.string(),
});
export type VideoRoomToken = z.infer<typeof videoRoomTokenSchema>;

export const videoParticipantSchema = z.object({ accountId: id, name: z.string() });
export type VideoParticipant = z.infer<typeof videoParticipantSchema>;

/** GET consultations/{id}/telemed-video: the room and who is in it now. */
export const telemedVideoSchema = z.object({
  /** null while the room is not open (not scheduled, or outside its window) */
  roomId: id.nullable(),
  active: z.boolean(),
  participants: z.array(videoParticipantSchema),
  /** the room's window, ISO times */
  opensAt: z.string(),
  closesAt: z.string(),
});
export type TelemedVideo = z.infer<typeof telemedVideoSchema>;

// ---------- signalling (the events published on rtc:<roomId>) ----------

export const mediaStateSchema = z.object({ audio: z.boolean(), video: z.boolean(), screen: z.boolean() }).strict();
export type MediaState = z.infer<typeof mediaStateSchema>;

const peer = z.string().min(1).max(64);

export const iceCandidateSchema = z
  .object({
    candidate: z.string().max(1024),
    sdpMid: z.string().max(64).nullable().optional(),
    sdpMLineIndex: z.number().int().min(0).max(1024).nullable().optional(),
    usernameFragment: z.string().max(256).nullable().optional(),
  })
  .strict();
export type IceCandidate = z.infer<typeof iceCandidateSchema>;

/**
 * What a client publishes on its room's topic. `join` on entering (everyone there answers `here`
 * to the newcomer), `state` at each media change and every VIDEO_KEEPALIVE_MS, `leave` on leaving;
 * `description` (an offer or answer, in parts) and `candidates` go to one peer (`to`), the others
 * ignore them.
 */
export const videoSignalSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('join'), media: mediaStateSchema }).strict(),
  z.object({ kind: z.literal('here'), to: peer, media: mediaStateSchema }).strict(),
  z.object({ kind: z.literal('state'), media: mediaStateSchema }).strict(),
  z.object({ kind: z.literal('leave') }).strict(),
  z
    .object({
      kind: z.literal('description'),
      to: peer,
      type: z.enum(['offer', 'answer']),
      /** the description's id, its part's index and the number of parts */
      id: z.string().min(1).max(64),
      index: z.number().int().min(0).max(31),
      count: z.number().int().min(1).max(32),
      sdp: z.string().max(VIDEO_SIGNAL_PART_BYTES),
    })
    .strict()
    .refine((d) => d.index < d.count, { message: 'index must be below count' }),
  z
    .object({
      kind: z.literal('candidates'),
      to: peer,
      candidates: z.array(iceCandidateSchema).min(1).max(VIDEO_MAX_CANDIDATES),
    })
    .strict(),
  // shared viewing (contracts/viewer-follow.ts): who presents (the latest `present on` wins),
  // the presenter's view, and a (re)joining follower's request for it
  z.object({ kind: z.literal('present'), on: z.boolean() }).strict(),
  z.object({ kind: z.literal('view'), state: viewStateSchema }).strict(),
  z.object({ kind: z.literal('view-request') }).strict(),
]);
export type VideoSignal = z.infer<typeof videoSignalSchema>;

/** Who sent a signal, stamped by the server from the sender's room token (never from the client). */
export const videoSenderSchema = z.object({ peerId: peer, accountId: id, name: z.string() });
export type VideoSender = z.infer<typeof videoSenderSchema>;

/** A signal as delivered: `{from, data}` (the live socket's publish envelope). */
export const videoEnvelopeSchema = z.object({ from: videoSenderSchema, data: videoSignalSchema });
export type VideoEnvelope = z.infer<typeof videoEnvelopeSchema>;

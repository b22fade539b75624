import crypto from 'node:crypto';
import {
  CONSULTATION_STATUS_VALUES,
  VIDEO_MAX_PARTICIPANTS,
  videoRoomWindow,
  videoTokenExpiry,
  videoWindowState,
  type ConsultationStatus,
  type TelemedVideo,
  type VideoRoomToken,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { writeAudit, type AuditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Signer } from '../../platform/signed.js';
import { iceServersFor, type VideoIceConfig } from './video-ice.js';
import type { VideoPresence } from './video-presence.js';

/** What the video module needs to know of a consultation for one account (the consultations face). */
export interface RoomFacts {
  participant: boolean;
  status: ConsultationStatus;
  scheduledAt: Date;
  name: string;
}
export interface VideoRoomDirectory {
  roomFacts(consultationId: string, accountId: string): Promise<RoomFacts | null>;
}

export interface VideoActor {
  account: Pick<AccountRow, 'id' | 'username' | 'name'>;
  ctx: AuditContext;
}

/** The signed room token's purpose (platform/signed.ts keys each purpose apart). */
export const ROOM_TOKEN_PURPOSE = 'video-room';

/** Why a room is closed to this account now, or null when it is open to it. */
export function roomRefusal(facts: RoomFacts | null, now: Date): AppError | null {
  if (!facts || !facts.participant) return errors.notFound('Consultation');
  if (facts.status !== CONSULTATION_STATUS_VALUES.scheduled) {
    return new AppError('ConsultationWrongStatus', 'The video room is open only while the consultation is scheduled');
  }
  if (videoWindowState(now, facts.scheduledAt) !== 'open') {
    const { opensAt, closesAt } = videoRoomWindow(facts.scheduledAt);
    return new AppError('VideoRoomNotOpen', 'The video room is not open now', {
      opensAt: opensAt.toISOString(),
      closesAt: closesAt.toISOString(),
    });
  }
  return null;
}

/**
 * The consultation's video room (issue 25 "Video"): room id = consultation id. Starting it and
 * asking a fresh token are for its participants (any side), while it is scheduled and within its
 * window; both are audited (security rows, allowed and refused). The token is what the live socket
 * takes (scheme 'Room', video.live.ts); the ICE servers come with it.
 */
export class VideoService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly signer: Signer,
    private readonly directory: VideoRoomDirectory,
    private readonly presence: VideoPresence,
    private readonly ice: VideoIceConfig | undefined,
  ) {}

  /** Stops following rooms on the live bus (the app closes). */
  close(): void {
    this.presence.close();
  }

  start(actor: VideoActor, consultationId: string): Promise<VideoRoomToken> {
    return this.issue(actor, consultationId, 'video.start', undefined);
  }

  token(actor: VideoActor, roomId: string, peerId: string | undefined): Promise<VideoRoomToken> {
    return this.issue(actor, roomId, 'video.token', peerId);
  }

  async telemedVideo(actor: VideoActor, consultationId: string): Promise<TelemedVideo> {
    const facts = await this.directory.roomFacts(consultationId, actor.account.id);
    if (!facts?.participant) throw errors.notFound('Consultation');
    const { opensAt, closesAt } = videoRoomWindow(facts.scheduledAt);
    const open = roomRefusal(facts, this.clock.now()) === null;
    const participants = open ? this.presence.participants(consultationId) : [];
    return {
      roomId: open ? consultationId : null,
      active: participants.length > 0,
      participants,
      opensAt: opensAt.toISOString(),
      closesAt: closesAt.toISOString(),
    };
  }

  private async issue(
    actor: VideoActor,
    roomId: string,
    action: 'video.start' | 'video.token',
    keepPeer: string | undefined,
  ): Promise<VideoRoomToken> {
    const now = this.clock.now();
    const facts = await this.directory.roomFacts(roomId, actor.account.id);
    const refusal = roomRefusal(facts, now) ?? this.fullRefusal(roomId, actor.account.id, keepPeer);
    if (refusal) {
      await this.audit(actor, action, roomId, 'denied', { code: refusal.code });
      throw refusal;
    }
    const peerId = keepPeer ?? crypto.randomUUID();
    const expiresAt = videoTokenExpiry(now, facts!.scheduledAt);
    const name = actor.account.name || actor.account.username;
    const { token } = this.signer.sign(
      ROOM_TOKEN_PURPOSE,
      { r: roomId, a: actor.account.id, s: peerId, n: name },
      expiresAt,
    );
    await this.audit(actor, action, roomId, 'success', { peerId });
    return {
      roomId,
      token,
      expiresAt: expiresAt.toISOString(),
      iceServers: iceServersFor(this.ice, actor.account.id, expiresAt),
      peerId,
      name,
    };
  }

  /** VideoRoomFull when VIDEO_MAX_PARTICIPANTS peers of other joins are in the room already. */
  private fullRefusal(roomId: string, accountId: string, keepPeer: string | undefined): AppError | null {
    const others = this.presence.peers(roomId).filter((p) => p.peerId !== keepPeer && p.accountId !== accountId);
    return others.length >= VIDEO_MAX_PARTICIPANTS
      ? new AppError('VideoRoomFull', `The video room has ${VIDEO_MAX_PARTICIPANTS} participants already`)
      : null;
  }

  private audit(
    actor: VideoActor,
    action: string,
    roomId: string,
    outcome: 'success' | 'denied',
    details: Record<string, unknown>,
  ): Promise<void> {
    return writeAudit(this.db, actor.ctx, {
      action,
      category: 'security',
      outcome,
      actorId: actor.account.id,
      actorUsername: actor.account.username,
      targetType: 'consultation',
      targetId: roomId,
      details: { roomId, ...details },
    });
  }
}

import { VIDEO_TOKEN_SCHEME, VIDEO_TOPIC_PREFIX, videoSignalSchema } from '@yyp/contracts';
import type { Clock } from '../../platform/clock.js';
import type { Signer } from '../../platform/signed.js';
import { ROOM_TOKEN_PURPOSE, roomRefusal, type VideoRoomDirectory } from './video.service.js';

/** Who is on a live socket, as far as the video module reads it (platform/live-access.ts LivePrincipal). */
export type RoomPrincipal =
  { kind: 'account' } | { kind: 'token'; scheme: string; claims: Readonly<Record<string, string>> };

const isRoomToken = (p: RoomPrincipal): p is Extract<RoomPrincipal, { kind: 'token' }> =>
  p.kind === 'token' && p.scheme.toLowerCase() === VIDEO_TOKEN_SCHEME.toLowerCase();

/**
 * The live side of the video room, for app.ts to register on LiveAccess: the 'Room' token scheme
 * (a signed room token whose consultation still admits its account: verified at the socket's auth
 * and again at every heartbeat, so a room closes for a socket once the consultation leaves
 * 'scheduled', its window ends or the account stops taking part), the topic family `rtc` (only a
 * room token of that room may follow `rtc:<roomId>`) and its publish authorizer (the same, for a
 * signal of contracts videoSignalSchema; the sender is stamped from the token).
 */
export function videoLive(signer: Signer, clock: Clock, directory: VideoRoomDirectory) {
  return {
    scheme: VIDEO_TOKEN_SCHEME,
    topicPrefix: VIDEO_TOPIC_PREFIX,
    async verifyRoomToken(token: string): Promise<{ subject: string; claims: Record<string, string> } | null> {
      const now = clock.now();
      const payload = signer.verify(ROOM_TOKEN_PURPOSE, token, now);
      if (!payload) return null;
      const { r, a, s, n } = payload;
      if (typeof r !== 'string' || typeof a !== 'string' || typeof s !== 'string' || typeof n !== 'string') return null;
      if (roomRefusal(await directory.roomFacts(r, a), now)) return null;
      return { subject: s, claims: { roomId: r, accountId: a, peerId: s, name: n } };
    },
    async authorizeTopic(principal: RoomPrincipal, roomId: string): Promise<boolean> {
      return isRoomToken(principal) && principal.claims.roomId === roomId;
    },
    async authorizePublish(principal: RoomPrincipal, roomId: string, event: unknown) {
      if (!isRoomToken(principal) || principal.claims.roomId !== roomId) return null;
      if (!videoSignalSchema.safeParse(event).success) return null;
      const { peerId, accountId, name } = principal.claims;
      if (!peerId || !accountId || name === undefined) return null;
      return { peerId, accountId, name };
    },
  };
}

import { videoCalls, type TelemedVideo, type VideoRoomToken } from '@yyp/contracts';
import { callApi } from './call';

/**
 * The consultation's video room (contracts video-calls.ts): room id = consultation id. The room
 * token authenticates a live socket with the scheme 'Room' on `rtc:<roomId>` (shared/live.ts
 * LiveClient, contracts video.ts).
 */
export const startVideoMeeting = (consultationId: string): Promise<VideoRoomToken> =>
  callApi(videoCalls.start, { body: { consultationId } });

/** A room token for a room the caller takes part in: a new peer, or the same peer renewed. */
export const videoRoomToken = (roomId: string, peerId?: string): Promise<VideoRoomToken> =>
  callApi(videoCalls.token, { params: { roomId }, body: peerId ? { peerId } : {} });

export const fetchTelemedVideo = (consultationId: string): Promise<TelemedVideo> =>
  callApi(videoCalls.telemedVideo, { params: { id: consultationId } });

/** The same call by the name the video room uses (shared/video/mesh.ts renews its token with it). */
export const renewVideoToken = videoRoomToken;

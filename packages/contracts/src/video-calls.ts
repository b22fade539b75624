import { defineCall } from './call.js';
import { idParams } from './report-calls.js';
import { telemedVideoSchema, videoRoomTokenSchema, videoStartSchema, videoTokenRequestSchema } from './video.js';

/**
 * The video room of a consultation (issue 25 "Video"; spec 001 §7 "POST video-meetings/start" and
 * "a real-time video token is requested per room", whose path the spec does not show: ours is
 * video-meetings/:roomId/token; "telemed-video" of the consultation calls). Both token calls are
 * for the consultation's participants while it is scheduled and its room is open (contracts
 * video.ts videoRoomWindow); routes in modules/video/.
 */
export const videoCalls = {
  /** opens (or joins) the consultation's room: the room token, ICE servers and this join's peer id */
  start: defineCall({
    method: 'POST',
    path: 'video-meetings/start',
    body: videoStartSchema,
    answer: videoRoomTokenSchema,
  }),
  /** a fresh token for a room the caller is in (before the last one expires, or to rejoin) */
  token: defineCall({
    method: 'POST',
    path: 'video-meetings/:roomId/token',
    params: idParams('roomId'),
    body: videoTokenRequestSchema,
    answer: videoRoomTokenSchema,
  }),
  /** the room of a consultation and who is in it now */
  telemedVideo: defineCall({
    method: 'GET',
    path: 'consultations/:id/telemed-video',
    params: idParams('id'),
    answer: telemedVideoSchema,
  }),
};

// The face of the video module (issue 25 "Video": the consultation's WebRTC room, signalled over
// the live socket): what app.ts uses. Everything else in this folder is private to it.
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { Signer } from '../../platform/signed.js';
import type { VideoIceConfig } from './video-ice.js';
import { VideoPresence, type VideoBus } from './video-presence.js';
import { VideoService, type VideoRoomDirectory } from './video.service.js';

export { videoRoutes } from './video.routes.js';
export { videoLive } from './video-live.js';
export { iceServersFor, turnCredential, type VideoIceConfig } from './video-ice.js';
export { VideoPresence, VideoService, type VideoBus, type VideoRoomDirectory };

/** The video service with its presence on the live bus (app.ts closes it with the app). */
export function videoService(options: {
  db: Db;
  clock: Clock;
  signer: Signer;
  directory: VideoRoomDirectory;
  bus: VideoBus | undefined;
  ice: VideoIceConfig | undefined;
}): VideoService {
  const presence = new VideoPresence(options.bus);
  return new VideoService(options.db, options.clock, options.signer, options.directory, presence, options.ice);
}

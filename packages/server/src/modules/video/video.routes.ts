import { videoCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import type { Resolve } from '../../platform/route.js';
import type { VideoActor, VideoService } from './video.service.js';

/**
 * The video room's calls (contracts video-calls.ts). The room id is the consultation's id: the
 * calls naming it resolve its owner with the consultations face's side resolver (another tenant's
 * caller gets 404 before anything is read), and the service then admits only the participants.
 * video-meetings/start names it in the body (auth 'account'; the service answers 404 the same way).
 */
export function videoRoutes(app: FastifyInstance, video: VideoService, sideOf: (param: string) => Resolve): void {
  const actor = ({ account, request }: { account: AccountRow; request: FastifyRequest }): VideoActor => ({
    account,
    ctx: auditContext(request),
  });
  defineCallRoute(app, videoCalls.start, {
    summary: "Open or join a consultation's video room: the room token, ICE servers and this join's peer id",
    auth: 'account',
    handler: (input) => video.start(actor(input), input.body.consultationId),
  });
  defineCallRoute(app, videoCalls.token, {
    summary: 'A fresh token for a video room the caller takes part in (the same peer when named)',
    auth: { action: 'bucket_read', owner: sideOf('roomId') },
    handler: (input) => video.token(actor(input), input.params.roomId, input.body.peerId),
  });
  defineCallRoute(app, videoCalls.telemedVideo, {
    summary: "A consultation's video room and who is in it now",
    auth: { action: 'bucket_read', owner: sideOf('id') },
    handler: (input) => video.telemedVideo(actor(input), input.params.id),
  });
}

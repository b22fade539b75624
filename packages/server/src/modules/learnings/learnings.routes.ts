import { learningCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { LearningsService } from './learnings.service.js';

/**
 * Learning videos (contracts learningCalls, issue 27). The list is any signed-in user's; one
 * published video and its signed stream are anyone's (/learning/{id} is a public route of spec 000
 * §2); upload, edit and delete are the platform admins'. The upload's body is the video itself,
 * read raw: that route lives in a plugin whose only content-type parser passes the body through.
 */
export function learningRoutes(app: FastifyInstance, learnings: LearningsService): void {
  defineCallRoute(app, learningCalls.list, {
    summary: 'The learning videos in order: the published ones (platform admins: all)',
    auth: 'account',
    handler: ({ account, query }) => learnings.list(account, query),
  });
  definePublicCallRoute(app, learningCalls.get, {
    summary: 'One learning video and a signed URL that streams it (published: anyone; unpublished: platform admins)',
    handler: ({ params, request }) => learnings.get(request.account, params.learningId),
  });
  definePublicCallRoute(app, learningCalls.video, {
    summary: "A learning video's bytes from its signed URL, with HTTP Range (206; 416 past the end)",
    handler: async ({ params, query, request, reply }) => {
      const answer = await learnings.video(params.learningId, query.token, request.headers.range);
      if (answer.status === 416) return reply.status(416).headers(answer.headers).send() as never;
      return reply.status(answer.status).headers(answer.headers).send(answer.stream) as never;
    },
  });
  defineCallRoute(app, learningCalls.update, {
    summary: "Edit a learning video's title, description, order, duration or publication (platform admins; audited)",
    auth: 'platformAdmin',
    handler: ({ account, params, body, request }) =>
      learnings.update(account, params.learningId, body, auditContext(request)),
  });
  defineCallRoute(app, learningCalls.remove, {
    summary: 'Delete a learning video and its file (platform admins; audited)',
    auth: 'platformAdmin',
    handler: ({ account, params, request }) => learnings.remove(account, params.learningId, auditContext(request)),
  });
  void app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null));
    defineCallRoute(raw, learningCalls.upload, {
      summary: 'Upload a learning video: the raw body, video/mp4 or video/webm by its bytes (platform admins; audited)',
      auth: 'platformAdmin',
      handler: async ({ account, query, request, reply }) => {
        try {
          return await learnings.upload(
            account,
            query,
            { contentType: request.headers['content-type'], contentLength: request.headers['content-length'] },
            request.raw,
            auditContext(request),
          );
        } catch (err) {
          // The rest of a refused body is not worth reading: close instead of draining it.
          void reply.header('connection', 'close');
          throw err;
        }
      },
    });
  });
}

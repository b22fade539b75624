import { blobCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { definePublicCallRoute } from '../../platform/call-route.js';
import type { BlobTransferService } from './blobs.service.js';

/**
 * Presigned transfer for the local blob store (the URLs of policies/* and avatars; contracts
 * blobCalls). Public: the signed token in the query is the credential. The upload body is read raw,
 * whatever its type: the routes live in a plugin whose only content-type parser passes it through.
 */
export function blobRoutes(app: FastifyInstance, transfer: BlobTransferService): void {
  void app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null));
    definePublicCallRoute(raw, blobCalls.upload, {
      summary: 'Upload one file to the key of a signed upload URL (local blob store)',
      handler: async ({ query, request, reply }) => {
        try {
          await transfer.receive(
            query.token,
            { contentType: request.headers['content-type'], contentLength: request.headers['content-length'] },
            request.raw,
          );
        } catch (err) {
          // The rest of a refused body is not worth reading: close instead of draining it.
          void reply.header('connection', 'close');
          throw err;
        }
      },
    });
    definePublicCallRoute(raw, blobCalls.download, {
      summary: 'Download the file of a signed download URL (local blob store)',
      handler: async ({ query, request, reply }) => {
        const file = await transfer.open(query.token, request.headers.range);
        return reply.status(file.status).headers(file.headers).send(file.stream) as never;
      },
    });
  });
}

import fs from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_UPLOAD_FILE_BYTES, UPLOAD_ENDPOINT, type UploadsService } from './uploads.service.js';

const refuse = (status_code: number, body: string) => ({ status_code, body });

/** The file's own name (last path part, control characters dropped), for the summary only: never used as a path. */
function displayName(raw: string): string {
  const cleaned = Array.from(raw)
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join('')
    .split(/[\\/]+/)
    .filter((part) => part && part !== '.' && part !== '..')
    .pop();
  return (cleaned ?? '').slice(0, 255) || 'file';
}

/**
 * The tus resumable-upload endpoint (a dropped hospital connection resumes where it stopped).
 * Its only credential is the signed upload-session token in the Upload-Session header; each
 * finished file is ingested at once and its temporary copy removed.
 */
export function installTus(app: FastifyInstance, uploads: UploadsService, directory: string): void {
  fs.mkdirSync(directory, { recursive: true });
  const tus = new Server({
    path: UPLOAD_ENDPOINT.replace(/\/$/, ''),
    datastore: new FileStore({ directory, expirationPeriodInMilliseconds: 24 * 3600_000 }),
    maxSize: MAX_UPLOAD_FILE_BYTES,
    respectForwardedHeaders: true,
    onIncomingRequest: async (req) => {
      if (!uploads.claims(req.headers.get('upload-session'))) {
        throw refuse(401, 'Upload-Session header missing, invalid or expired');
      }
    },
    onUploadCreate: async (req, upload) => {
      const claims = await uploads.openClaims(req.headers.get('upload-session'));
      if (!claims) throw refuse(401, 'Upload-Session header missing, invalid, expired or closed');
      // The session is fixed at creation: later requests cannot move the file elsewhere.
      return { metadata: { ...upload.metadata, uploadId: claims.uploadId, bucketId: claims.bucketId } };
    },
    onUploadFinish: async (_req, upload) => {
      const meta = upload.metadata ?? {};
      if (typeof meta.uploadId === 'string' && typeof meta.bucketId === 'string') {
        const name = displayName(meta.filename ?? meta.name ?? upload.id);
        await uploads.ingestFile(
          { uploadId: meta.uploadId, bucketId: meta.bucketId },
          path.join(directory, upload.id),
          name,
        );
      }
      return {};
    },
  });
  // tus reads the request body itself.
  app.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  for (const url of ['uploads/files', 'uploads/files/*']) {
    app.route({
      method: ['POST', 'PATCH', 'HEAD', 'DELETE', 'OPTIONS', 'GET'],
      url,
      config: { auth: 'public' },
      schema: { hide: true },
      handler,
    });
  }
}

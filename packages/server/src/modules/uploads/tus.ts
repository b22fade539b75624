import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
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

const HOST = /^[A-Za-z0-9.\-_~]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin of the tus Location header: PUBLIC_BASE_URL when configured; otherwise the scheme and
 * Host the request came with, which Fastify takes from X-Forwarded-Proto/-Host only when the peer
 * is a trusted proxy (TRUST_PROXY). A Host that is no plain host[:port] gives a relative Location.
 */
function originOf(request: FastifyRequest, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl) return publicBaseUrl;
  const proto = request.protocol === 'https' ? 'https' : 'http';
  return HOST.test(request.host) ? `${proto}://${request.host}` : '';
}

/**
 * The tus resumable-upload endpoint (a dropped hospital connection resumes where it stopped).
 * Its only credential is the signed upload-session token in the Upload-Session header. Each upload
 * belongs to the upload session that created it (its id is kept in the upload's metadata): HEAD,
 * PATCH, DELETE and GET with any other session, of any organization, answer 404 and change
 * nothing. Each finished file is ingested at once into its own session and its temporary copy
 * removed.
 */
export function installTus(
  app: FastifyInstance,
  uploads: UploadsService,
  directory: string,
  publicBaseUrl?: string,
): void {
  fs.mkdirSync(directory, { recursive: true });
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: 24 * 3600_000 });
  const origins = new WeakMap<IncomingMessage, string>();
  const ownerOf = async (id: string) => {
    try {
      const meta = (await datastore.getUpload(id)).metadata ?? {};
      return { uploadId: meta.uploadId, bucketId: meta.bucketId };
    } catch {
      return null;
    }
  };
  const tus = new Server({
    path: UPLOAD_ENDPOINT.replace(/\/$/, ''),
    datastore,
    maxSize: MAX_UPLOAD_FILE_BYTES,
    respectForwardedHeaders: false,
    generateUrl: (req, { path: base, id }) => {
      const raw = (req as Request & { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
      return `${(raw && origins.get(raw)) ?? ''}${base}/${id}`;
    },
    onIncomingRequest: async (req, id) => {
      const token = req.headers.get('upload-session');
      const claims = uploads.claims(token);
      if (!claims) throw refuse(401, 'Upload-Session header missing, invalid or expired');
      if (req.method === 'POST') return; // a new upload: onUploadCreate records its session
      const owner = await ownerOf(id);
      if (!owner || owner.uploadId !== claims.uploadId || owner.bucketId !== claims.bucketId) {
        throw refuse(404, 'Not found\n');
      }
      if (req.method === 'PATCH' && !(await uploads.openClaims(token))) {
        throw refuse(401, 'This upload session is closed');
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
    origins.set(request.raw, originOf(request, publicBaseUrl));
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

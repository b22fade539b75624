import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { boundaryOf, closing, multipartBoundary, parseMultipart, partHeader } from '../../dicom/multipart.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { defineRoute, type RawInput } from '../../platform/route.js';
import { bucketsWith } from '../../platform/access.js';
import type { DicomWebService, Page } from './dicomweb.service.js';
import type { Query } from './qido.js';

const DICOM_JSON = 'application/dicom+json';
const UNCOMPRESSED = ['1.2.840.10008.1.2', '1.2.840.10008.1.2.1', '1.2.840.10008.1.2.2'];
const CRLF = Buffer.from('\r\n');

function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/dicom-web`;
}

/** The instances of a STOW-RS body: multipart/related of application/dicom parts, or one application/dicom. */
function stowParts(request: FastifyRequest): Buffer[] {
  const body = request.body as Buffer | undefined;
  const type = request.headers['content-type'] ?? '';
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw new AppError('ValidationError', 'The request has no DICOM instances');
  }
  if (type.startsWith('application/dicom')) return [body];
  const boundary = boundaryOf(type);
  if (!boundary) throw new AppError('ValidationError', 'multipart/related needs a boundary');
  const parts = parseMultipart(body, boundary).filter((p) =>
    (p.headers['content-type'] ?? 'application/dicom').startsWith('application/dicom'),
  );
  if (parts.length === 0) throw new AppError('ValidationError', 'The request has no application/dicom parts');
  return parts.map((p) => p.body);
}

/**
 * DICOMweb under /dicom-web (PS3.18): STOW-RS into one organization (the bucketId query, or the
 * caller's only organization with exam_upload), QIDO-RS and WADO-RS over the organizations where
 * the caller holds exam_get.
 */
export function dicomWebRoutes(app: FastifyInstance, db: Db, web: DicomWebService): void {
  // The bucketId query names the organization; without it, the caller's only upload organization.
  // Several: the caller must choose. None: any organization of the caller, so the answer is 403.
  const uploadBucket = async ({ query, callerId }: RawInput) => {
    if (typeof query.bucketId === 'string') return query.bucketId;
    const buckets = await bucketsWith(db, callerId, 'exam_upload');
    if (buckets.length === 1) return buckets[0];
    if (buckets.length > 1) {
      throw new AppError('ValidationError', 'You can upload to several organizations: name one with ?bucketId=');
    }
    return (await bucketsWith(db, callerId, 'bucket_read'))[0];
  };
  const stow = {
    auth: { bucket: 'exam_upload', bucketId: uploadBucket },
    handler: async ({
      bucket,
      request,
      reply,
      params,
    }: {
      bucket: { id: string };
      request: FastifyRequest;
      reply: FastifyReply;
      params: unknown;
    }) => {
      const studyUid = (params as { study?: string }).study;
      const outcome = await web.store(bucket.id, stowParts(request), baseUrl(request), studyUid);
      void reply.status(outcome.status).header('content-type', DICOM_JSON);
      return outcome.body;
    },
  } as const;
  defineRoute(app, { method: 'POST', url: 'studies', summary: 'STOW-RS: store instances', ...stow });
  defineRoute(app, {
    method: 'POST',
    url: 'studies/:study',
    summary: 'STOW-RS: store instances of one study',
    ...stow,
  });

  const json = <T>(reply: FastifyReply, result: Page<T>) => {
    void reply.header('content-type', DICOM_JSON);
    if (result.truncated) void reply.header('warning', '299 yyp "There are additional results that can be requested"');
    if (result.items.length === 0) void reply.status(204);
    return result.items;
  };
  defineRoute(app, {
    method: 'GET',
    url: 'studies',
    summary: 'QIDO-RS: search studies',
    auth: 'account',
    handler: async ({ account, request, reply }) =>
      json(reply, await web.studies(account.id, request.query as Query, baseUrl(request))),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'series',
    summary: 'QIDO-RS: search series',
    auth: 'account',
    handler: async ({ account, request, reply }) =>
      json(reply, await web.series(account.id, request.query as Query, baseUrl(request))),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'instances',
    summary: 'QIDO-RS: search instances',
    auth: 'account',
    handler: async ({ account, request, reply }) =>
      json(reply, await web.instances(account.id, request.query as Query, baseUrl(request))),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series',
    summary: 'QIDO-RS: series of a study',
    auth: 'account',
    handler: async ({ account, request, reply, params }) =>
      json(
        reply,
        await web.series(account.id, request.query as Query, baseUrl(request), (params as { study: string }).study),
      ),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/instances',
    summary: 'QIDO-RS: instances of a study',
    auth: 'account',
    handler: async ({ account, request, reply, params }) =>
      json(
        reply,
        await web.instances(account.id, request.query as Query, baseUrl(request), (params as { study: string }).study),
      ),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances',
    summary: 'QIDO-RS: instances of a series',
    auth: 'account',
    handler: async ({ account, request, reply, params }) => {
      const p = params as { study: string; series: string };
      return json(reply, await web.instances(account.id, request.query as Query, baseUrl(request), p.study, p.series));
    },
  });

  const retrieve = async (accountId: string, reply: FastifyReply, study: string, seriesUid?: string, sop?: string) => {
    const files = await web.files(accountId, study, seriesUid, sop);
    const boundary = multipartBoundary();
    const out = new PassThrough();
    void reply.header(
      'content-type',
      `multipart/related; type="application/dicom"; transfer-syntax=*; boundary=${boundary}`,
    );
    void (async () => {
      try {
        for (const [i, f] of files.entries()) {
          if (i > 0) out.write('\r\n');
          out.write(partHeader(boundary, 'application/dicom', { 'Content-Length': String(f.size) }));
          for await (const chunk of web.stream(f.blobKey)) out.write(chunk);
        }
        out.end(closing(boundary));
      } catch (err) {
        out.destroy(err as Error);
      }
    })();
    return reply.send(out);
  };
  type P = { study: string; series?: string; instance?: string; frames?: string; tag?: string };
  const meta = async (accountId: string, request: FastifyRequest, reply: FastifyReply) => {
    const p = request.params as P;
    void reply.header('content-type', DICOM_JSON);
    return web.metadata(accountId, baseUrl(request), p.study, p.series, p.instance);
  };
  for (const url of [
    'studies/:study/metadata',
    'studies/:study/series/:series/metadata',
    'studies/:study/series/:series/instances/:instance/metadata',
  ]) {
    defineRoute(app, {
      method: 'GET',
      url,
      summary: 'WADO-RS: metadata (DICOM JSON, UTF-8)',
      auth: 'account',
      handler: ({ account, request, reply }) => meta(account.id, request, reply),
    });
  }
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances/:instance/frames/:frames',
    summary: 'WADO-RS: frames of an instance, as stored',
    auth: 'account',
    handler: async ({ account, request, reply }) => {
      const p = request.params as Required<P>;
      const numbers = p.frames.split(',').map((f) => Number.parseInt(f, 10));
      if (numbers.some((n) => !Number.isInteger(n) || n < 1) || numbers.length > 1000) {
        throw new AppError('ValidationError', 'Frame numbers are 1-based integers');
      }
      const frames = await web.frames(account.id, p.study, p.series, p.instance, numbers);
      const boundary = multipartBoundary();
      const ts = frames[0]!.transferSyntaxUid;
      const uncompressed = UNCOMPRESSED.includes(ts);
      const type = uncompressed ? 'application/octet-stream' : `application/octet-stream; transfer-syntax=${ts}`;
      const chunks: Buffer[] = [];
      frames.forEach((f, i) => {
        if (i > 0) chunks.push(CRLF);
        chunks.push(partHeader(boundary, type), Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength));
      });
      chunks.push(closing(boundary));
      void reply.header('content-type', `multipart/related; type="application/octet-stream"; boundary=${boundary}`);
      return reply.send(Buffer.concat(chunks)) as never;
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances/:instance/bulkdata/:tag',
    summary: 'WADO-RS: a binary value referenced by BulkDataURI',
    auth: 'account',
    handler: async ({ account, request, reply }) => {
      const p = request.params as Required<P>;
      const value = await web.bulkData(account.id, p.study, p.series, p.instance, p.tag);
      const boundary = multipartBoundary();
      void reply.header('content-type', `multipart/related; type="application/octet-stream"; boundary=${boundary}`);
      return reply.send(
        Buffer.concat([partHeader(boundary, 'application/octet-stream'), Buffer.from(value), closing(boundary)]),
      ) as never;
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study',
    summary: 'WADO-RS: retrieve a study',
    auth: 'account',
    handler: ({ account, reply, params }) => retrieve(account.id, reply, (params as { study: string }).study) as never,
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series',
    summary: 'WADO-RS: retrieve a series',
    auth: 'account',
    handler: ({ account, reply, params }) => {
      const p = params as { study: string; series: string };
      return retrieve(account.id, reply, p.study, p.series) as never;
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances/:instance',
    summary: 'WADO-RS: retrieve an instance',
    auth: 'account',
    handler: ({ account, reply, params }) => {
      const p = params as { study: string; series: string; instance: string };
      return retrieve(account.id, reply, p.study, p.series, p.instance) as never;
    },
  });
}

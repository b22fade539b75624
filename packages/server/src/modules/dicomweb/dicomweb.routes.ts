import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  boundaryOf,
  closing,
  multipartBoundary,
  MultipartSplitter,
  partHeader,
  type Part,
} from '../../dicom/multipart.js';
import { auditContext } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { AccountRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { defineRoute, type RawInput } from '../../platform/route.js';
import { bucketsWith } from '../../platform/access.js';
import { DicomWebAudit } from './dicomweb.audit.js';
import { renderedRoutes } from './dicomweb.rendered.js';
import type { DicomWebService, SearchPage } from './dicomweb.service.js';
import type { Query } from './qido-query.js';
import { QueryRefused } from './qido-query.js';
import { canDecode, encodesSyntax } from '../../dicom/codecs/index.js';
import { acceptable, bulkDataAcceptable, instanceSyntax, offersFor, wantedParts } from './accept.js';
import { bulkDataMultipart, frameNumbers, framesMultipart } from './wado-multipart.js';

const DICOM_JSON = 'application/dicom+json';

function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/dicom-web`;
}

const noInstances = () => new AppError('ValidationError', 'The request has no DICOM instances');
const tooLarge = (maxBytes: number) =>
  new AppError('PayloadTooLarge', `A STOW-RS request is at most ${maxBytes} bytes`, { maxBytes });

/**
 * The instances of a STOW-RS body as they arrive: multipart/related of application/dicom parts
 * (each answered once its closing delimiter is read), or one application/dicom. The body is read
 * only as fast as the instances are stored, and never held whole; a declared length over the
 * limit is refused before anything is read.
 */
async function* stowParts(request: FastifyRequest, maxBytes: number): AsyncGenerator<Buffer> {
  const body = request.body as Readable | undefined;
  const type = request.headers['content-type'] ?? '';
  // Only instances are taken: a JSON or XML metadata request (application/dicom+json, a
  // multipart of application/dicom+xml parts…) is not supported (PS3.18 10.5: 415).
  const essence = type.split(';')[0]!.trim().toLowerCase();
  const partType = /;\s*type="?([^";]+)"?/i.exec(type)?.[1]?.trim().toLowerCase();
  if (
    essence !== 'application/dicom' &&
    !(essence === 'multipart/related' && (partType ?? 'application/dicom') === 'application/dicom')
  ) {
    throw new AppError(
      'UnsupportedMediaType',
      'STOW-RS takes application/dicom instances (multipart/related; type="application/dicom")',
    );
  }
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw tooLarge(maxBytes);
  if (!body || typeof body[Symbol.asyncIterator] !== 'function') throw noInstances();
  let total = 0;
  async function* chunks(): AsyncGenerator<Buffer> {
    for await (const chunk of body!) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooLarge(maxBytes);
      yield chunk as Buffer;
    }
  }
  if (essence === 'application/dicom') {
    const whole: Buffer[] = [];
    for await (const chunk of chunks()) whole.push(chunk);
    if (total === 0) throw noInstances();
    yield Buffer.concat(whole);
    return;
  }
  const boundary = boundaryOf(type);
  if (!boundary) throw new AppError('ValidationError', 'multipart/related needs a boundary');
  const splitter = new MultipartSplitter(boundary);
  let found = 0;
  for await (const chunk of chunks()) {
    let parts: Part[];
    try {
      parts = splitter.push(chunk);
    } catch (err) {
      throw new AppError('ValidationError', `The multipart/related body is malformed: ${(err as Error).message}`);
    }
    for (const part of parts) {
      if (!(part.headers['content-type'] ?? 'application/dicom').startsWith('application/dicom')) continue;
      found++;
      yield part.body;
    }
  }
  splitter.end();
  if (total === 0) throw noInstances();
  if (found === 0) throw new AppError('ValidationError', 'The request has no application/dicom parts');
}

/**
 * DICOMweb under /dicom-web (PS3.18): STOW-RS into one organization (the bucketId query, or the
 * caller's only organization with exam_upload), QIDO-RS and WADO-RS over the organizations where
 * the caller holds exam_get. Each is audited as PHI (dicomweb.audit.ts says how often).
 */
export function dicomWebRoutes(
  app: FastifyInstance,
  db: Db,
  web: DicomWebService,
  { stowLimitBytes, clock }: { stowLimitBytes: number; clock: Clock },
): void {
  const audit = new DicomWebAudit(db, clock);
  renderedRoutes(app, db, web, audit);
  // An Accept header the answer cannot meet is refused before any work (accept.ts).
  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions.url;
    if (url && !acceptable(request.headers.accept, offersFor(request.method, url))) {
      throw new AppError('NotAcceptable', 'The Accept header names no type this resource answers with');
    }
  });
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
    auth: { action: 'exam_upload', owner: uploadBucket },
    handler: async ({
      account,
      bucket,
      request,
      reply,
      params,
    }: {
      account: AccountRow;
      bucket: { id: string };
      request: FastifyRequest;
      reply: FastifyReply;
      params: unknown;
    }) => {
      const studyUid = (params as { study?: string }).study;
      const outcome = await web.store(bucket.id, stowParts(request, stowLimitBytes), baseUrl(request), studyUid, (s) =>
        audit.stow(account, auditContext(request), bucket.id, s),
      );
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

  type SearchPath = { study?: string; series?: string };
  type Search = (caller: AccountRow, q: Query, base: string, p: SearchPath) => Promise<SearchPage>;
  // One QIDO-RS answer: the search, its PHI audit row, DICOM JSON (204 when empty).
  const searchHandler =
    (level: 'studies' | 'series' | 'instances', search: Search) =>
    async ({ account, request, reply }: { account: AccountRow; request: FastifyRequest; reply: FastifyReply }) => {
      const q = request.query as Query;
      const p = request.params as SearchPath;
      let result: SearchPage;
      try {
        result = await search(account, q, baseUrl(request), p);
      } catch (err) {
        // A query the archive cannot apply says why in a Warning header too (PS3.18 8.3.4).
        if (err instanceof QueryRefused) void reply.header('warning', err.warning);
        throw err;
      }
      await audit.search(account, auditContext(request), level, q, p, result.items.length, result.exams);
      void reply.header('content-type', DICOM_JSON);
      const warnings = [...result.warnings];
      if (result.truncated) warnings.push('299 yyp "There are additional results that can be requested"');
      if (warnings.length > 0) void reply.header('warning', warnings.join(', '));
      if (result.items.length === 0) void reply.status(204);
      return result.items;
    };
  defineRoute(app, {
    method: 'GET',
    url: 'studies',
    summary: 'QIDO-RS: search studies',
    auth: 'account',
    handler: searchHandler('studies', (a, q, b) => web.studies(a, q, b)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'series',
    summary: 'QIDO-RS: search series',
    auth: 'account',
    handler: searchHandler('series', (a, q, b) => web.series(a, q, b)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'instances',
    summary: 'QIDO-RS: search instances',
    auth: 'account',
    handler: searchHandler('instances', (a, q, b) => web.instances(a, q, b)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series',
    summary: 'QIDO-RS: series of a study',
    auth: 'account',
    handler: searchHandler('series', (a, q, b, p) => web.series(a, q, b, p.study)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/instances',
    summary: 'QIDO-RS: instances of a study',
    auth: 'account',
    handler: searchHandler('instances', (a, q, b, p) => web.instances(a, q, b, p.study)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances',
    summary: 'QIDO-RS: instances of a series',
    auth: 'account',
    handler: searchHandler('instances', (a, q, b, p) => web.instances(a, q, b, p.study, p.series)),
  });

  type P = { study: string; series?: string; instance?: string; frames?: string; tag?: string };
  // A whole study or series is a copy of its files: one audit row each; one instance is a
  // viewer's read, audited once per window.
  const retrieve = async (account: AccountRow, request: FastifyRequest, reply: FastifyReply) => {
    const p = request.params as P;
    // The transfer-syntax asked for (accept.ts): "*" serves the files as stored, another is transcoded.
    const target = instanceSyntax(wantedParts(request.headers.accept), (ts) => canDecode(ts) || encodesSyntax(ts));
    if (!target) throw new AppError('NotAcceptable', 'The Accept header names no transfer syntax this server produces');
    const files = await web.files(account, p.study, p.series, p.instance);
    const ctx = auditContext(request);
    if (p.instance) await audit.read(account, ctx, 'instance', p.study, p.series, p.instance);
    else await audit.retrieve(account, ctx, p.study, p.series);
    // The first instance is transcoded before the answer starts, so that it can still be a 406.
    const first = target === '*' ? undefined : await web.transcoded(files[0]!.blobKey, target);
    const boundary = multipartBoundary();
    const out = new PassThrough();
    void reply.header(
      'content-type',
      `multipart/related; type="application/dicom"; transfer-syntax=${target}; boundary=${boundary}`,
    );
    void (async () => {
      try {
        for (const [i, f] of files.entries()) {
          if (i > 0) out.write('\r\n');
          const bytes = target === '*' ? undefined : i === 0 ? first! : await web.transcoded(f.blobKey, target);
          out.write(
            partHeader(boundary, 'application/dicom', {
              'Content-Length': String(bytes ? bytes.length : f.size),
              'Content-Location': `${baseUrl(request)}/studies/${p.study}/series/${f.seriesUid}/instances/${f.sopUid}`,
            }),
          );
          if (bytes) out.write(bytes);
          else for await (const chunk of web.stream(f.blobKey)) out.write(chunk);
        }
        out.end(closing(boundary));
      } catch (err) {
        out.destroy(err as Error);
      }
    })();
    return reply.send(out);
  };
  const meta = async (account: AccountRow, request: FastifyRequest, reply: FastifyReply) => {
    const p = request.params as P;
    const metadata = await web.metadata(account, baseUrl(request), p.study, p.series, p.instance);
    await audit.read(account, auditContext(request), 'metadata', p.study, p.series, p.instance);
    void reply.header('content-type', DICOM_JSON);
    return metadata;
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
      handler: ({ account, request, reply }) => meta(account, request, reply),
    });
  }
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances/:instance/frames/:frames',
    summary: 'WADO-RS: frames of an instance, as stored or in the transfer syntax asked for',
    auth: 'account',
    handler: async ({ account, request, reply }) => {
      const p = request.params as Required<P>;
      const numbers = frameNumbers(p.frames);
      const wanted = wantedParts(request.headers.accept);
      const frames = await web.frames(account, p.study, p.series, p.instance, numbers, wanted);
      await audit.read(account, auditContext(request), 'frames', p.study, p.series, p.instance);
      const instanceUrl = `${baseUrl(request)}/studies/${p.study}/series/${p.series}/instances/${p.instance}`;
      const { body, boundary, transferSyntax } = framesMultipart(
        frames,
        numbers.map((n) => `${instanceUrl}/frames/${n}`),
      );
      void reply.header(
        'content-type',
        `multipart/related; type="${frames[0]!.mediaType ?? 'application/octet-stream'}"; transfer-syntax=${transferSyntax}; boundary=${boundary}`,
      );
      return reply.send(body) as never;
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances/:instance/bulkdata/:tag',
    summary: 'WADO-RS: a binary value referenced by BulkDataURI',
    auth: 'account',
    handler: async ({ account, request, reply }) => {
      const p = request.params as Required<P>;
      if (!bulkDataAcceptable(wantedParts(request.headers.accept))) {
        throw new AppError('NotAcceptable', 'Bulk data is answered in explicit VR little endian only');
      }
      const value = await web.bulkData(account, p.study, p.series, p.instance, p.tag);
      await audit.read(account, auditContext(request), 'bulkdata', p.study, p.series, p.instance);
      const { body, boundary } = bulkDataMultipart(
        value,
        `${baseUrl(request)}/studies/${p.study}/series/${p.series}/instances/${p.instance}/bulkdata/${p.tag}`,
      );
      void reply.header('content-type', `multipart/related; type="application/octet-stream"; boundary=${boundary}`);
      return reply.send(body) as never;
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study',
    summary: 'WADO-RS: retrieve a study',
    auth: 'account',
    handler: ({ account, request, reply }) => retrieve(account, request, reply) as never,
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series',
    summary: 'WADO-RS: retrieve a series',
    auth: 'account',
    handler: ({ account, request, reply }) => retrieve(account, request, reply) as never,
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/:study/series/:series/instances/:instance',
    summary: 'WADO-RS: retrieve an instance',
    auth: 'account',
    handler: ({ account, request, reply }) => retrieve(account, request, reply) as never,
  });
}

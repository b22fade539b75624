import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE, KEY_IMAGE_MAX_BYTES, KEY_IMAGE_TYPES, VIEWER_TOKEN_HEADER, viewingCalls } from '@yyp/contracts';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { ownerFrom } from '../../platform/route.js';
import { bulkDataMultipart, frameNumbers, framesMultipart } from '../dicomweb/index.js';
import { ownerOfReport } from '../reports/index.js';
import { viewerObjectRoutes } from './viewer-objects.routes.js';
import type { ViewingService } from './viewing.service.js';

/** Images of a study do not change under one path: the browser may keep them while the path lives. */
const IMMUTABLE = 'private, max-age=3600';
const VIEWER_ROOT = `${API_BASE}viewer`;

/** A multipart/related answer of octet-stream parts (frames, bulk data), kept by the browser (IMMUTABLE). */
function sendImageParts(reply: FastifyReply, { body, boundary }: { body: Buffer; boundary: string }): never {
  void reply
    .header('content-type', `multipart/related; type="application/octet-stream"; boundary=${boundary}`)
    .header('cache-control', IMMUTABLE);
  return reply.send(body) as never;
}

const tokenOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers[VIEWER_TOKEN_HEADER];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/**
 * The viewer's calls (spec 000 §2 /viewer/{openpath}). Public at the HTTP level: the signed
 * openpath in the x-yyp-viewer header is the credential, checked by the service on every call
 * (contracts viewingCalls).
 */
export function viewingRoutes(app: FastifyInstance, db: Db, viewing: ViewingService): void {
  definePublicCallRoute(app, viewingCalls.context, {
    summary: "The viewer path's study: patient and study fields (masked as the caller's rights say), series, rights",
    handler: ({ request }) => viewing.context(tokenOf(request), auditContext(request)),
  });

  const metadata = async (request: FastifyRequest, reply: FastifyReply, study: string, series?: string) => {
    const json = await viewing.metadata(tokenOf(request), VIEWER_ROOT, study, series);
    void reply.header('content-type', 'application/dicom+json').header('cache-control', IMMUTABLE);
    return reply.send(JSON.stringify(json)) as never;
  };
  const metadataSummary =
    "WADO-RS metadata of the viewer path's study (DICOM JSON, masked when the caller may not see private fields)";
  definePublicCallRoute(app, viewingCalls.studyMetadata, {
    summary: metadataSummary,
    handler: ({ request, reply, params }) => metadata(request, reply, params.study),
  });
  definePublicCallRoute(app, viewingCalls.seriesMetadata, {
    summary: metadataSummary,
    handler: ({ request, reply, params }) => metadata(request, reply, params.study, params.series),
  });

  definePublicCallRoute(app, viewingCalls.frames, {
    summary: "WADO-RS frames of an instance of the viewer path's study, as stored",
    handler: async ({ request, reply, params: p }) => {
      const frames = await viewing.frames(tokenOf(request), p.study, p.series, p.instance, frameNumbers(p.frames));
      return sendImageParts(reply, framesMultipart(frames));
    },
  });

  definePublicCallRoute(app, viewingCalls.bulkData, {
    summary: "WADO-RS bulk data of an instance of the viewer path's study",
    handler: async ({ request, reply, params: p }) => {
      const value = await viewing.bulkData(tokenOf(request), p.study, p.series, p.instance, p.tag);
      return sendImageParts(reply, bulkDataMultipart(value));
    },
  });

  definePublicCallRoute(app, viewingCalls.priors, {
    summary: "The patient's other exams with images (viewer paths only; share paths answer 403)",
    handler: async ({ request }) => ({ priors: await viewing.priors(tokenOf(request), auditContext(request)) }),
  });

  definePublicCallRoute(app, viewingCalls.priorPath, {
    summary: 'A viewer path for one prior exam, expiring with the current one',
    handler: ({ request, params }) => viewing.priorPath(tokenOf(request), params.examId, auditContext(request)),
  });

  // Key images arrive as the image itself; the parser is scoped to this route's plugin.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      [...KEY_IMAGE_TYPES],
      { parseAs: 'buffer', bodyLimit: KEY_IMAGE_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );
    definePublicCallRoute(scope, viewingCalls.keyImage, {
      summary: "A captured key image (PNG or JPEG, ≤ 5 MB) into the viewer path's report, at most 6 per report",
      handler: ({ request, query }) => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new AppError('UnsupportedMediaType', 'Send the image as image/png or image/jpeg');
        }
        return viewing.addKeyImage(tokenOf(request), body, query.desc ?? '', auditContext(request));
      },
    });
  });

  viewerObjectRoutes(app, viewing.objects);

  const reportOwner = ownerFrom('reportId', ownerOfReport, db);
  defineCallRoute(app, viewingCalls.reportImages, {
    summary: "The report's key images in order, each with an expiring download link",
    auth: { action: 'exam_get', owner: reportOwner },
    handler: ({ params }) => viewing.keyImages.images(params.reportId),
  });
  defineCallRoute(app, viewingCalls.removeReportImage, {
    summary: 'Remove a key image from the report',
    auth: { action: 'report_upsert', owner: reportOwner },
    handler: async ({ account, bucket, params, request }) => {
      const report = { reportId: params.reportId, bucketId: bucket.id };
      await viewing.keyImages.deleteImage(account, report, params.imageId, auditContext(request));
    },
  });
}

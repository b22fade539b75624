import {
  bindCandidateSchema,
  bindCandidatesQuerySchema,
  bindResultSchema,
  downloadTokenQuerySchema,
  downloadTokenSchema,
  studyPackageQuerySchema,
  viewerPathRequestSchema,
  viewerPathSchema,
} from '@yyp/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { definePublicRoute, defineRoute, ownerFrom, type RawInput } from '../../platform/route.js';
import type { ExamsService } from './exams.service.js';
import { ownerOfExam } from './exams.owners.js';

const examParams = z.object({ examId: z.string() });

function sendZip(reply: FastifyReply, pkg: { stream: NodeJS.ReadableStream; size: number; filename: string }) {
  void reply
    .header('content-type', 'application/zip')
    .header('content-length', String(pkg.size))
    .header('content-disposition', `attachment; filename="${pkg.filename}"`);
  return reply.send(pkg.stream) as never;
}

export function examRoutes(app: FastifyInstance, db: Db, exams: ExamsService): void {
  const examOwner = ownerFrom('examId', ownerOfExam, db);
  const fromQuery = ({ query }: RawInput) => (typeof query.bucketId === 'string' ? query.bucketId : undefined);
  defineRoute(app, {
    method: 'POST',
    url: 'viewers/:examId/path',
    summary: 'A signed viewer path for the exam',
    auth: { action: 'exam_get', owner: examOwner },
    params: examParams,
    body: viewerPathRequestSchema,
    response: viewerPathSchema,
    handler: ({ account, params, body, request }) =>
      exams.viewerPath(account, params.examId, 'viewer', body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'viewers/:examId/share-path',
    summary: 'A signed read-only share path that works without an account until it expires',
    auth: { action: 'study_package', owner: examOwner },
    params: examParams,
    body: viewerPathRequestSchema,
    response: viewerPathSchema,
    handler: ({ account, params, body, request }) =>
      exams.viewerPath(account, params.examId, 'share', body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'exams/:examId/study-package',
    summary: 'The study as a zip (repackage at most once per hour)',
    auth: { action: 'study_package', owner: examOwner },
    params: examParams,
    query: studyPackageQuerySchema,
    handler: async ({ account, access, bucket, params, query, request, reply }) =>
      sendZip(
        reply,
        await exams.studyPackage(
          { account, access, bucket },
          params.examId,
          query.repackage === '1' || query.repackage === 'true',
          auditContext(request),
        ),
      ),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'studies/download-token',
    summary: 'A 10-minute link that downloads a study package',
    auth: { action: 'study_package', owner: fromQuery },
    query: downloadTokenQuerySchema,
    response: downloadTokenSchema,
    handler: ({ account, access, bucket, query, request }) =>
      exams.downloadToken({ account, access, bucket }, query.bucketId, query.storeUid, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId/merge-study/:otherId',
    summary: 'Merge another exam of the same patient into this one',
    auth: { action: 'exam_update', owner: examOwner },
    params: z.object({ examId: z.string(), otherId: z.string() }),
    response: z.object({
      id: z.string(),
      storeUid: z.string(),
      seriesCount: z.number().int(),
      instanceCount: z.number().int(),
    }),
    handler: ({ account, params, request }) =>
      exams.merge(account, params.examId, params.otherId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'exams/:examId/schedules',
    summary: 'Exams of the same organization these images can be bound to (admins)',
    auth: { action: 'exam_bind', owner: examOwner },
    params: examParams,
    query: bindCandidatesQuerySchema,
    response: z.array(bindCandidateSchema),
    handler: ({ account, params, query, request }) =>
      exams.bindCandidates(account, params.examId, query.q, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId/match/:otherId',
    summary: "Bind this exam's images to another exam of the organization, replacing its images (admins)",
    auth: { action: 'exam_bind', owner: examOwner },
    params: z.object({ examId: z.string(), otherId: z.string() }),
    response: bindResultSchema,
    handler: ({ account, params, request }) =>
      exams.bind(account, params.examId, params.otherId, auditContext(request)),
  });
  definePublicRoute(app, {
    method: 'GET',
    url: 'studies/download',
    summary: 'Download a study package with a download link token',
    query: z.object({ token: z.string().max(4096) }),
    handler: async ({ query, request, reply }) =>
      sendZip(reply, await exams.download(query.token, auditContext(request))),
  });
}

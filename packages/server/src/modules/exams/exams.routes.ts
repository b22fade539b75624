import { examCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import type { ExamsService } from './exams.service.js';
import { ownerOfExam } from './exams.owners.js';
import { studyPackagesRoutes } from './study-packages.routes.js';

function sendZip(reply: FastifyReply, pkg: { stream: NodeJS.ReadableStream; size: number; filename: string }) {
  void reply
    .header('content-type', 'application/zip')
    .header('content-length', String(pkg.size))
    .header('content-disposition', `attachment; filename="${pkg.filename}"`);
  return reply.send(pkg.stream) as never;
}

/**
 * Viewer paths, study packages and merging of an exam. Paths and schemas are contracts examCalls;
 * binding is the registry's (registry-match.routes.ts).
 */
export function examRoutes(app: FastifyInstance, db: Db, exams: ExamsService): void {
  const owner = ownerFrom('examId', ownerOfExam, db);
  const fromQuery = ({ query }: RawInput) => (typeof query.bucketId === 'string' ? query.bucketId : undefined);
  const pkg = { action: 'study_package', owner } as const;
  defineCallRoute(app, examCalls.viewerPath, {
    summary: 'A signed viewer path for the exam',
    auth: { action: 'exam_get', owner },
    handler: ({ account, params, body, request }) =>
      exams.viewerPath(account, params.examId, 'viewer', body, auditContext(request)),
  });
  defineCallRoute(app, examCalls.sharePath, {
    summary: 'A signed read-only share path that works without an account until it expires',
    auth: pkg,
    handler: ({ account, params, body, request }) =>
      exams.viewerPath(account, params.examId, 'share', body, auditContext(request)),
  });
  defineCallRoute(app, examCalls.studyPackage, {
    summary: 'The study as a zip (repackage at most once per hour)',
    auth: pkg,
    handler: async ({ account, access, bucket, params, query, request, reply }) =>
      sendZip(
        reply,
        await exams.studyPackage(
          { account, access, bucket },
          params.examId,
          query.repackage === '1' || query.repackage === 'true',
          auditContext(request),
          account.preferences.language ?? 'chs',
        ),
      ),
  });
  defineCallRoute(app, examCalls.downloadToken, {
    summary: 'A 10-minute link that downloads a study package',
    auth: { action: 'study_package', owner: fromQuery },
    handler: ({ account, access, bucket, query, request }) =>
      exams.downloadToken({ account, access, bucket }, query.bucketId, query.storeUid, auditContext(request)),
  });
  defineCallRoute(app, examCalls.merge, {
    summary: 'Merge another exam of the same patient into this one',
    auth: { action: 'exam_update', owner },
    handler: ({ account, params, request }) =>
      exams.merge(account, params.examId, params.otherId, auditContext(request)),
  });
  definePublicCallRoute(app, examCalls.download, {
    summary: 'Download a study package with a download link token',
    handler: async ({ query, request, reply }) =>
      sendZip(reply, await exams.download(query.token, auditContext(request))),
  });
  studyPackagesRoutes(app, exams);
}

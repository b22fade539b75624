import { uploadCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import { ownerOfExam } from '../exams/index.js';
import type { UploadsService } from './uploads.service.js';

/**
 * The upload calls; paths and schemas are contracts uploadCalls. The files themselves go to the
 * tus endpoint (tus.ts), which reads raw request bodies and so is no call route.
 */
export function uploadRoutes(app: FastifyInstance, db: Db, uploads: UploadsService): void {
  const upload = { action: 'exam_upload', owner: ({ params }: RawInput) => params.bucketId } as const;
  defineCallRoute(app, uploadCalls.uploadable, {
    summary: 'Organizations the caller may upload into',
    auth: 'account',
    handler: ({ account }) => uploads.uploadable(account.id),
  });
  defineCallRoute(app, uploadCalls.start, {
    summary: 'Open an upload session (files then go to the tus endpoint)',
    auth: upload,
    handler: ({ account, bucket: b }) => uploads.startForAccount(account, b.id),
  });
  defineCallRoute(app, uploadCalls.refresh, {
    summary: 'Fresh credentials for an open upload session of the caller',
    auth: upload,
    handler: ({ account, bucket: b, query }) => uploads.refresh(account, b.id, query.uploadId, query.delta),
  });
  defineCallRoute(app, uploadCalls.uploaded, {
    summary: "Mark an exam's upload complete",
    auth: { action: 'exam_upload', owner: ownerFrom('examId', ownerOfExam, db) },
    handler: ({ params }) => uploads.markUploaded(params.examId),
  });
  definePublicCallRoute(app, uploadCalls.byToken, {
    summary: 'Open an upload session with an organization upload link token (no account)',
    handler: ({ body, request }) => uploads.startWithToken(body.token, auditContext(request)),
  });
  definePublicCallRoute(app, uploadCalls.summary, {
    summary: 'What an upload session has stored and skipped so far',
    handler: ({ body }) => uploads.summary(body.sessionToken),
  });
  definePublicCallRoute(app, uploadCalls.complete, {
    summary: "Close an upload session, apply the wizard's corrections to its exams, and answer its summary",
    handler: ({ body, request }) => uploads.complete(body.sessionToken, auditContext(request), body.corrections),
  });
}

import {
  completeUploadRequestSchema,
  examUploadedSchema,
  postUploadRequestSchema,
  refreshUploadQuerySchema,
  tokenUploadRequestSchema,
  uploadableBucketSchema,
  uploadSessionSchema,
  uploadSummarySchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { definePublicRoute, defineRoute, ownerFrom, type RawInput } from '../../platform/route.js';
import { ownerOfExam } from '../exams/index.js';
import type { UploadsService } from './uploads.service.js';

const bucketParams = z.object({ bucketId: z.string() });

export function uploadRoutes(app: FastifyInstance, db: Db, uploads: UploadsService): void {
  const bucket = ({ params }: RawInput) => params.bucketId;
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/uploadable',
    summary: 'Organizations the caller may upload into',
    auth: 'account',
    response: z.array(uploadableBucketSchema),
    handler: ({ account }) => uploads.uploadable(account.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'buckets/:bucketId/studies/upload',
    summary: 'Open an upload session (files then go to the tus endpoint)',
    auth: { action: 'exam_upload', owner: bucket },
    params: bucketParams,
    status: 201,
    response: uploadSessionSchema,
    handler: ({ account, bucket: b }) => uploads.startForAccount(account, b.id),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'buckets/:bucketId/studies/refresh-upload-credentials',
    summary: 'Fresh credentials for an open upload session of the caller',
    auth: { action: 'exam_upload', owner: bucket },
    params: bucketParams,
    query: refreshUploadQuerySchema,
    response: uploadSessionSchema,
    handler: ({ account, bucket: b, query }) => uploads.refresh(account, b.id, query.uploadId, query.delta),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId/uploaded',
    summary: "Mark an exam's upload complete",
    auth: { action: 'exam_upload', owner: ownerFrom('examId', ownerOfExam, db) },
    params: z.object({ examId: z.string() }),
    response: examUploadedSchema,
    handler: ({ params }) => uploads.markUploaded(params.examId),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'uploads/by-token',
    summary: 'Open an upload session with an organization upload link token (no account)',
    status: 201,
    body: tokenUploadRequestSchema,
    response: uploadSessionSchema,
    handler: ({ body, request }) => uploads.startWithToken(body.token, auditContext(request)),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'uploads/summary',
    summary: 'What an upload session has stored and skipped so far',
    body: postUploadRequestSchema,
    response: uploadSummarySchema,
    handler: ({ body }) => uploads.summary(body.sessionToken),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'exams/post-upload',
    summary: "Close an upload session, apply the wizard's corrections to its exams, and answer its summary",
    body: completeUploadRequestSchema,
    response: uploadSummarySchema,
    handler: ({ body, request }) => uploads.complete(body.sessionToken, auditContext(request), body.corrections),
  });
}

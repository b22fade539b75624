import {
  attachmentCodeRequestSchema,
  codeQuerySchema,
  codeUploadPolicyQuerySchema,
  codeUploadSchema,
  examAttachmentListSchema,
  serviceAttachmentSchema,
  uploadByCodeRequestSchema,
  uploadCodeSchema,
  uploadPolicySchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { definePublicRoute, defineRoute, type RawInput } from '../../platform/route.js';
import { bucketOfExam } from '../exams/exams.store.js';
import type { AttachmentsService } from './attachments.service.js';

const examParams = z.object({ examId: z.string() });
const attachmentParams = z.object({ examId: z.string(), attachmentId: z.string() });

export function attachmentRoutes(app: FastifyInstance, db: Db, attachments: AttachmentsService): void {
  const examBucket = ({ params }: RawInput) => bucketOfExam(db, params.examId ?? '');
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId/attachment-code',
    summary: 'A 24-hour code (link) that lets anyone upload order forms or attachments to this exam',
    auth: { bucket: 'attachment_create', bucketId: examBucket },
    params: examParams,
    body: attachmentCodeRequestSchema,
    response: uploadCodeSchema,
    handler: ({ account, params, body, request }) =>
      attachments.issueCode(account, params.examId, body.kind, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'exams/:examId/attachments',
    summary: "The exam's attachments, with 10-minute download URLs for callers with attachment_presigned_url",
    auth: { bucket: 'exam_get', bucketId: examBucket },
    params: examParams,
    response: examAttachmentListSchema,
    handler: ({ access, bucket, params }) => attachments.list(access, bucket, params.examId),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'exams/:examId/attachments/:attachmentId',
    summary: 'Deletes one attachment of the exam',
    auth: { bucket: 'attachment_delete', bucketId: examBucket },
    params: attachmentParams,
    status: 204,
    handler: ({ account, params, request }) =>
      attachments.remove(account, params.examId, params.attachmentId, auditContext(request)),
  });
  definePublicRoute(app, {
    method: 'GET',
    url: 'service-attachment',
    summary: 'What an attachment code is for: organization, exam, masked patient name, limits, its uploads',
    query: codeQuerySchema,
    response: serviceAttachmentSchema,
    handler: ({ query }) => attachments.describe(query.code),
  });
  definePublicRoute(app, {
    method: 'GET',
    url: 'service-attachment/policies',
    summary: "An upload URL for one file of an attachment code's kind",
    query: codeUploadPolicyQuerySchema,
    response: uploadPolicySchema,
    handler: ({ query }) => attachments.policy(query),
  });
  definePublicRoute(app, {
    method: 'POST',
    url: 'attachments/upload-by-code',
    summary: "Records a file uploaded with an attachment code on the code's exam",
    body: uploadByCodeRequestSchema,
    response: codeUploadSchema,
    handler: ({ body, request }) => attachments.uploadByCode(body, auditContext(request)),
  });
}

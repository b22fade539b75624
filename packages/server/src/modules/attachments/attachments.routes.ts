import {
  attachmentCodeRequestSchema,
  attachmentDownloadUrlSchema,
  codeQuerySchema,
  codeUploadPolicyQuerySchema,
  codeUploadSchema,
  examAttachmentListSchema,
  examAttachmentSchema,
  reportAttachmentUploadSchema,
  serviceAttachmentSchema,
  uploadByCodeRequestSchema,
  uploadCodeSchema,
  uploadPolicySchema,
} from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { auditContext } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { definePublicRoute, defineRoute, ownerFrom } from '../../platform/route.js';
import { ownerOfExam } from '../exams/index.js';
import { ownerOfReport } from '../reports/index.js';
import type { AttachmentsService } from './attachments.service.js';

const examParams = z.object({ examId: z.string() });
const attachmentParams = z.object({ examId: z.string(), attachmentId: z.string() });
// A report's id is its exam's id (spec 001 §7 "Reports": attachments under reports/{id}).
const reportParams = z.object({ reportId: z.string().max(64) });
const reportAttachmentParams = z.object({ reportId: z.string().max(64), attachmentId: z.string().max(64) });

export function attachmentRoutes(app: FastifyInstance, db: Db, attachments: AttachmentsService): void {
  const examOwner = ownerFrom('examId', ownerOfExam, db);
  const reportOwner = ownerFrom('reportId', ownerOfReport, db);
  defineRoute(app, {
    method: 'POST',
    url: 'exams/:examId/attachment-code',
    summary: 'A 24-hour code (link) that lets anyone upload order forms or attachments to this exam',
    auth: { action: 'attachment_create', owner: examOwner },
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
    auth: { action: 'exam_get', owner: examOwner },
    params: examParams,
    response: examAttachmentListSchema,
    handler: ({ access, bucket, params }) => attachments.list(access, bucket, params.examId),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'exams/:examId/attachments/:attachmentId',
    summary: 'Deletes one attachment of the exam',
    auth: { action: 'attachment_delete', owner: examOwner },
    params: attachmentParams,
    status: 204,
    handler: ({ account, params, request }) =>
      attachments.remove(account, params.examId, params.attachmentId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'POST',
    url: 'reports/:reportId/attachments/upload',
    summary: "Records on the report's exam a file the caller uploaded with GET policies/attachments (or forms)",
    auth: { action: 'attachment_upload', owner: reportOwner },
    params: reportParams,
    body: reportAttachmentUploadSchema,
    response: examAttachmentSchema,
    handler: ({ account, access, bucket, params, body, request }) =>
      attachments.upload({ account, access, bucket }, params.reportId, body, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/attachments',
    summary: "The report exam's attachments, as GET exams/{id}/attachments answers them",
    auth: { action: 'exam_get', owner: reportOwner },
    params: reportParams,
    response: examAttachmentListSchema,
    handler: ({ access, bucket, params }) => attachments.list(access, bucket, params.reportId),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: 'reports/:reportId/attachments/:attachmentId',
    summary: "Deletes one attachment of the report's exam",
    auth: { action: 'attachment_delete', owner: reportOwner },
    params: reportAttachmentParams,
    status: 204,
    handler: ({ account, params, request }) =>
      attachments.remove(account, params.reportId, params.attachmentId, auditContext(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: 'reports/:reportId/attachments/:attachmentId/presign-url',
    summary: 'A 10-minute download URL for one attachment (audited as patient data access)',
    auth: { action: 'attachment_presigned_url', owner: reportOwner },
    params: reportAttachmentParams,
    response: attachmentDownloadUrlSchema,
    handler: ({ account, params, request }) =>
      attachments.presignUrl(account, params.reportId, params.attachmentId, auditContext(request)),
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

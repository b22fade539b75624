import { attachmentCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom } from '../../platform/route.js';
import { ownerOfExam } from '../exams/index.js';
import { ownerOfReport } from '../reports/index.js';
import type { AttachmentsService } from './attachments.service.js';

/**
 * Attachments and order forms of an exam, under exams/{id} and reports/{id} (a report's id is its
 * exam's id), and by an attachment code for anyone. Paths and schemas are contracts attachmentCalls.
 */
export function attachmentRoutes(app: FastifyInstance, db: Db, attachments: AttachmentsService): void {
  const examOwner = ownerFrom('examId', ownerOfExam, db);
  const reportOwner = ownerFrom('reportId', ownerOfReport, db);
  defineCallRoute(app, attachmentCalls.issueCode, {
    summary: 'A 24-hour code (link) that lets anyone upload order forms or attachments to this exam',
    auth: { action: 'attachment_create', owner: examOwner },
    handler: ({ account, params, body, request }) =>
      attachments.issueCode(account, params.examId, body.kind, auditContext(request)),
  });
  defineCallRoute(app, attachmentCalls.examList, {
    summary: "The exam's attachments, with 10-minute download URLs for callers with attachment_presigned_url",
    auth: { action: 'exam_get', owner: examOwner },
    handler: ({ access, bucket, params }) => attachments.list(access, bucket, params.examId),
  });
  defineCallRoute(app, attachmentCalls.examRemove, {
    summary: 'Deletes one attachment of the exam',
    auth: { action: 'attachment_delete', owner: examOwner },
    handler: ({ account, params, request }) =>
      attachments.remove(account, params.examId, params.attachmentId, auditContext(request)),
  });
  defineCallRoute(app, attachmentCalls.reportUpload, {
    summary: "Records on the report's exam a file the caller uploaded with GET policies/attachments (or forms)",
    auth: { action: 'attachment_upload', owner: reportOwner },
    handler: ({ account, access, bucket, params, body, request }) =>
      attachments.upload({ account, access, bucket }, params.reportId, body, auditContext(request)),
  });
  defineCallRoute(app, attachmentCalls.reportList, {
    summary: "The report exam's attachments, as GET exams/{id}/attachments answers them",
    auth: { action: 'exam_get', owner: reportOwner },
    handler: ({ access, bucket, params }) => attachments.list(access, bucket, params.reportId),
  });
  defineCallRoute(app, attachmentCalls.reportRemove, {
    summary: "Deletes one attachment of the report's exam",
    auth: { action: 'attachment_delete', owner: reportOwner },
    handler: ({ account, params, request }) =>
      attachments.remove(account, params.reportId, params.attachmentId, auditContext(request)),
  });
  defineCallRoute(app, attachmentCalls.presignUrl, {
    summary: 'A 10-minute download URL for one attachment (audited as patient data access)',
    auth: { action: 'attachment_presigned_url', owner: reportOwner },
    handler: ({ account, params, request }) =>
      attachments.presignUrl(account, params.reportId, params.attachmentId, auditContext(request)),
  });
  definePublicCallRoute(app, attachmentCalls.describe, {
    summary: 'What an attachment code is for: organization, exam, masked patient name, limits, its uploads',
    handler: ({ query }) => attachments.describe(query.code),
  });
  definePublicCallRoute(app, attachmentCalls.policy, {
    summary: "An upload URL for one file of an attachment code's kind",
    handler: ({ query }) => attachments.policy(query),
  });
  definePublicCallRoute(app, attachmentCalls.uploadByCode, {
    summary: "Records a file uploaded with an attachment code on the code's exam",
    handler: ({ body, request }) => attachments.uploadByCode(body, auditContext(request)),
  });
}

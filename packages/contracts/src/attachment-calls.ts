import { z } from 'zod';
import { defineCall } from './call.js';
import { uploadPolicySchema } from './policies.js';
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
} from './upload-codes.js';

const examParams = z.object({ examId: z.string() });
// A report's id is its exam's id (spec 001 §7 "Reports": attachments under reports/{id}).
const reportParams = z.object({ reportId: z.string().max(64) });

/**
 * Attachments and order forms of an exam (spec 001 §7 "Service attachments"): under exams/{id} and
 * reports/{id} for signed-in callers, and by an attachment code for anyone (public: the code is the
 * credential). The server's routes (modules/attachments/attachments.routes.ts) and the web's
 * client (api/uploadCodes.ts) are built from these.
 */
export const attachmentCalls = {
  issueCode: defineCall({
    method: 'POST',
    path: 'exams/:examId/attachment-code',
    params: examParams,
    body: attachmentCodeRequestSchema,
    answer: uploadCodeSchema,
  }),
  examList: defineCall({
    method: 'GET',
    path: 'exams/:examId/attachments',
    params: examParams,
    answer: examAttachmentListSchema,
  }),
  /** 204 */
  examRemove: defineCall({
    method: 'DELETE',
    path: 'exams/:examId/attachments/:attachmentId',
    params: examParams.extend({ attachmentId: z.string() }),
    status: 204,
  }),
  reportUpload: defineCall({
    method: 'POST',
    path: 'reports/:reportId/attachments/upload',
    params: reportParams,
    body: reportAttachmentUploadSchema,
    answer: examAttachmentSchema,
  }),
  reportList: defineCall({
    method: 'GET',
    path: 'reports/:reportId/attachments',
    params: reportParams,
    answer: examAttachmentListSchema,
  }),
  /** 204 */
  reportRemove: defineCall({
    method: 'DELETE',
    path: 'reports/:reportId/attachments/:attachmentId',
    params: reportParams.extend({ attachmentId: z.string().max(64) }),
    status: 204,
  }),
  presignUrl: defineCall({
    method: 'GET',
    path: 'reports/:reportId/attachments/:attachmentId/presign-url',
    params: reportParams.extend({ attachmentId: z.string().max(64) }),
    answer: attachmentDownloadUrlSchema,
  }),
  /** public */
  describe: defineCall({
    method: 'GET',
    path: 'service-attachment',
    query: codeQuerySchema,
    answer: serviceAttachmentSchema,
  }),
  /** public */
  policy: defineCall({
    method: 'GET',
    path: 'service-attachment/policies',
    query: codeUploadPolicyQuerySchema,
    answer: uploadPolicySchema,
  }),
  /** public */
  uploadByCode: defineCall({
    method: 'POST',
    path: 'attachments/upload-by-code',
    body: uploadByCodeRequestSchema,
    answer: codeUploadSchema,
  }),
} as const;

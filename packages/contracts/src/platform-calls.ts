import { z } from 'zod';
import { healthSchema } from './accounts.js';
import { defineCall } from './call.js';
import { aiCallbackSchema, aiTaskQuerySchema, aiTaskRequestSchema, aiTaskResultSchema } from './exam-detail.js';
import { notificationListQuerySchema, notificationListSchema, notificationStatusSchema } from './notifications.js';
import {
  downloadPolicyQuerySchema,
  downloadPolicySchema,
  uploadPolicyQuerySchema,
  uploadPolicySchema,
  type UploadKind,
} from './policies.js';
import {
  codeUploadPolicyQuerySchema,
  setSignatureRequestSchema,
  signatureByCodeRequestSchema,
  signatureSchema,
  uploadCodeSchema,
} from './upload-codes.js';

/** The server's liveness call (public). Server: modules/health/health.routes.ts. */
export const healthCalls = {
  health: defineCall({ method: 'GET', path: 'health', answer: healthSchema }),
} as const;

/**
 * The caller's own notifications (the bell). Server: modules/notifications/notifications.routes.ts;
 * web: api/notifications.ts.
 */
export const notificationCalls = {
  list: defineCall({
    method: 'GET',
    path: 'notifications',
    query: notificationListQuerySchema,
    answer: notificationListSchema,
  }),
  status: defineCall({ method: 'GET', path: 'notifications/status', answer: notificationStatusSchema }),
  readAll: defineCall({ method: 'POST', path: 'notifications/read-all', status: 204 }),
  read: defineCall({
    method: 'POST',
    path: 'notifications/:notificationId/read',
    params: z.object({ notificationId: z.string().max(64) }),
    status: 204,
  }),
} as const;

/**
 * The signature calls of spec 001 §7 "Signature". Server: modules/signature/signature.routes.ts;
 * web: api/uploadCodes.ts. `policies` and `byCode` are public: the signature code is the credential.
 */
export const signatureCalls = {
  mine: defineCall({ method: 'GET', path: 'signature/mine', answer: signatureSchema }),
  setMine: defineCall({
    method: 'PUT',
    path: 'signature/mine',
    body: setSignatureRequestSchema,
    answer: signatureSchema,
  }),
  removeMine: defineCall({ method: 'DELETE', path: 'signature/mine', answer: signatureSchema }),
  issueCode: defineCall({ method: 'POST', path: 'signature/code', answer: uploadCodeSchema }),
  policy: defineCall({
    method: 'GET',
    path: 'signature/policies',
    query: codeUploadPolicyQuerySchema,
    answer: uploadPolicySchema,
  }),
  byCode: defineCall({
    method: 'POST',
    path: 'signature',
    body: signatureByCodeRequestSchema,
    answer: signatureSchema,
  }),
} as const;

const uploadPolicy = <K extends UploadKind>(kind: K) =>
  defineCall({ method: 'GET', path: `policies/${kind}`, query: uploadPolicyQuerySchema, answer: uploadPolicySchema });

/**
 * Upload policies (one call per UploadKind, keyed by it) and a study's download links.
 * Server: modules/policies/policies.routes.ts; web: api/policies.ts.
 */
export const policyCalls = {
  avatars: uploadPolicy('avatars'),
  forms: uploadPolicy('forms'),
  attachments: uploadPolicy('attachments'),
  images: uploadPolicy('images'),
  consultations: uploadPolicy('consultations'),
  downloadToken: defineCall({
    method: 'GET',
    path: 'policies/download-token',
    query: downloadPolicyQuerySchema,
    answer: downloadPolicySchema,
  }),
} as const satisfies Record<UploadKind | 'downloadToken', unknown>;

const tokenQuery = z.object({ token: z.string().min(1).max(4096) });

/**
 * The local blob store's transfer (the URLs the policies answer on a single server; public, the
 * signed token is the credential). The upload's body is the file itself; the download answers it.
 * Server: modules/blobs/blobs.routes.ts.
 */
export const blobCalls = {
  upload: defineCall({ method: 'PUT', path: 'blobs/upload', query: tokenQuery, status: 204 }),
  download: defineCall({ method: 'GET', path: 'blobs/download', query: tokenQuery }),
} as const;

/**
 * The AI task of spec 001 §7 and the AI service's callback (public, on its signed link).
 * Server: modules/ai/ai.routes.ts; web: api/exams.ts (sendAiTask).
 */
export const aiCalls = {
  task: defineCall({
    method: 'POST',
    path: 'exams/:examId/ai/task',
    params: z.object({ examId: z.string().max(64) }),
    query: aiTaskQuerySchema,
    body: aiTaskRequestSchema,
    answer: aiTaskResultSchema,
  }),
  callback: defineCall({
    method: 'POST',
    path: 'ai/callback',
    query: z.object({ token: z.string().max(4096) }),
    body: aiCallbackSchema,
    answer: z.object({ id: z.string(), aiStatus: z.string() }),
  }),
} as const;

import { z } from 'zod';
import {
  examUploadedSchema,
  modalitySchema,
  postUploadRequestSchema,
  refreshUploadQuerySchema,
  tokenUploadRequestSchema,
  uploadableBucketSchema,
  uploadSessionSchema,
  uploadSummarySchema,
  upsertModalitySchema,
} from './archive.js';
import { defineCall } from './call.js';
import { completeUploadRequestSchema } from './exam-detail.js';

const bucketParams = z.object({ bucketId: z.string() });

/**
 * The upload calls (spec 001 §7 "Exams" uploads): a session is opened for an organization (signed
 * in) or by an upload link (public); its files go to the tus endpoint (modules/uploads/tus.ts, not a
 * call of its own), and the session is read back and closed with its token (public). The server's
 * routes (modules/uploads/uploads.routes.ts) and the web's client (api/uploads.ts) are built from these.
 */
export const uploadCalls = {
  uploadable: defineCall({ method: 'GET', path: 'buckets/uploadable', answer: z.array(uploadableBucketSchema) }),
  start: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/studies/upload',
    params: bucketParams,
    answer: uploadSessionSchema,
    status: 201,
  }),
  refresh: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/studies/refresh-upload-credentials',
    params: bucketParams,
    query: refreshUploadQuerySchema,
    answer: uploadSessionSchema,
  }),
  uploaded: defineCall({
    method: 'POST',
    path: 'exams/:examId/uploaded',
    params: z.object({ examId: z.string() }),
    answer: examUploadedSchema,
  }),
  /** public: the link token is the credential */
  byToken: defineCall({
    method: 'POST',
    path: 'uploads/by-token',
    body: tokenUploadRequestSchema,
    answer: uploadSessionSchema,
    status: 201,
  }),
  /** public: the session token is the credential */
  summary: defineCall({
    method: 'POST',
    path: 'uploads/summary',
    body: postUploadRequestSchema,
    answer: uploadSummarySchema,
  }),
  /** public: closes the session, applying the wizard's corrections */
  complete: defineCall({
    method: 'POST',
    path: 'exams/post-upload',
    body: completeUploadRequestSchema,
    answer: uploadSummarySchema,
  }),
} as const;

/** The modalities registered to store into an organization (modules/archive/archive.routes.ts). */
export const archiveCalls = {
  modalities: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/modalities',
    params: bucketParams,
    answer: z.array(modalitySchema),
  }),
  addModality: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/modalities',
    params: bucketParams,
    body: upsertModalitySchema,
    answer: modalitySchema,
    status: 201,
  }),
  /** 204 */
  removeModality: defineCall({
    method: 'DELETE',
    path: 'buckets/:bucketId/modalities/:modalityId',
    params: bucketParams.extend({ modalityId: z.string() }),
    status: 204,
  }),
} as const;

import { z } from 'zod';
import { defineCall } from './call.js';
import {
  callingBoardSchema,
  callingBucketSchema,
  callingSettingsSchema,
  callNextSchema,
  checkInSchema,
  issuedScreenTokenSchema,
  missedListSchema,
  missedQuerySchema,
  queueActionResultSchema,
  queueActionSchema,
  queueDayQuerySchema,
  queueExamSchema,
  queuePageSchema,
  queueQuerySchema,
  queueResortSchema,
  queueTypeAddSchema,
  queueTypeInputSchema,
  queueTypeSchema,
  screenQueueSchema,
  screenTokenInputSchema,
  screenTokenSchema,
} from './calling.js';

const bucketParams = z.object({ bucketId: z.string() });
const idParams = z.object({ id: z.string() });

/**
 * Patient calling (spec 001 §7 "Queue calling"; issue 23). The server's routes
 * (modules/calling/calling.routes.ts) and the web's client are built from these. POST
 * /yyp/api/text2speech (speech, outside API_BASE) is not here.
 */
export const callingCalls = {
  /** the organizations where the caller calls or manages the queue, in groups with enableCalling on */
  buckets: defineCall({ method: 'GET', path: 'calling-buckets', answer: z.array(callingBucketSchema) }),
  queueTypes: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/queue-types',
    params: bucketParams,
    answer: z.array(queueTypeSchema),
  }),
  addQueueType: defineCall({
    method: 'POST',
    path: 'queue-types/add',
    body: queueTypeAddSchema,
    answer: queueTypeSchema,
    status: 201,
  }),
  updateQueueType: defineCall({
    method: 'POST',
    path: 'queue-types/:id/update',
    params: idParams,
    body: queueTypeInputSchema,
    answer: queueTypeSchema,
  }),
  /** refused (409) while the queue holds patients of today who are not done */
  deleteQueueType: defineCall({ method: 'DELETE', path: 'queue-types/:id/delete', params: idParams, status: 204 }),
  query: defineCall({ method: 'POST', path: 'queue-exams/query', body: queueQuerySchema, answer: queuePageSchema }),
  checkIn: defineCall({
    method: 'POST',
    path: 'queue-exams/check-in',
    body: checkInSchema,
    answer: queueExamSchema,
    status: 201,
  }),
  action: defineCall({
    method: 'POST',
    path: 'queue-exams/:id/action',
    params: idParams,
    body: queueActionSchema,
    answer: queueActionResultSchema,
  }),
  /** the queue of the exam's day, after the move */
  resort: defineCall({
    method: 'POST',
    path: 'queue-exams/:id/resort',
    params: idParams,
    body: queueResortSchema,
    answer: z.array(queueExamSchema),
  }),
  /** queueExam and call are null when nobody waits */
  callNext: defineCall({
    method: 'POST',
    path: 'queue-exams/call-next',
    body: callNextSchema,
    answer: queueActionResultSchema,
  }),
  calling: defineCall({
    method: 'GET',
    path: 'queue-exams/calling',
    query: queueDayQuerySchema,
    answer: callingBoardSchema,
  }),
  missed: defineCall({ method: 'GET', path: 'queue-exams/missed', query: missedQuerySchema, answer: missedListSchema }),
} as const;

/** The organization's calling settings (spec 000 §2 organization settings "call queues"). */
export const callingSettingsCalls = {
  get: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/calling-settings',
    params: bucketParams,
    answer: callingSettingsSchema,
  }),
  update: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId/calling-settings',
    params: bucketParams,
    body: callingSettingsSchema,
    answer: callingSettingsSchema,
  }),
} as const;

/**
 * Screen tokens: an organization's admin (calling_manage_queue) issues one per waiting-room TV; the
 * screen sends it as `Authorization: Screen <token>` and reads only that organization's queue.
 */
export const screenTokenCalls = {
  list: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/screen-tokens',
    params: bucketParams,
    answer: z.array(screenTokenSchema),
  }),
  issue: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/screen-tokens',
    params: bucketParams,
    body: screenTokenInputSchema,
    answer: issuedScreenTokenSchema,
    status: 201,
  }),
  revoke: defineCall({
    method: 'POST',
    path: 'screen-tokens/:id/revoke',
    params: idParams,
    answer: screenTokenSchema,
  }),
} as const;

/** What a screen reads with its token (public calls, authorized by the screen token itself). */
export const screenCalls = {
  queue: defineCall({ method: 'GET', path: 'screen/queue', answer: screenQueueSchema }),
} as const;

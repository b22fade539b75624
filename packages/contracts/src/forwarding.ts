import { z } from 'zod';
import { defineCall } from './call.js';
import { aeTitleSchema } from './procedures.js';

/**
 * Sending studies to other DICOM nodes (issue 28): forwarding rules that send each new study that
 * matches to one of the organization's devices on arrival, and sends made by hand from the exam's
 * menu. The destination is a device of procedure management with its host and port.
 */

const text = (max: number) => z.string().trim().max(max);
/** '' matches any value; otherwise a code (CT, CHEST …) compared without case. */
const codeFilter = text(16)
  .regex(/^[A-Za-z0-9_ ]*$/, 'letters, digits, _ and spaces')
  .default('');

export const forwardingRuleInputSchema = z
  .object({
    name: text(64).min(1),
    destinationId: z.string().min(1).max(64),
    /** the study's modality (any of its series'): CT, MR …; '' any */
    modality: codeFilter,
    /** the AE title that sent it; '' any (studies that arrive by upload or STOW-RS have none) */
    sourceAe: z.union([aeTitleSchema, z.literal('')]).default(''),
    /** BodyPartExamined of any of its series; '' any */
    bodyPart: codeFilter,
    enabled: z.boolean().default(true),
  })
  .strict();
export type ForwardingRuleInput = z.input<typeof forwardingRuleInputSchema>;

export const forwardingRuleSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  name: z.string(),
  destinationId: z.string(),
  destinationAe: z.string(),
  modality: z.string(),
  sourceAe: z.string(),
  bodyPart: z.string(),
  enabled: z.boolean(),
  updated: z.string(),
});
export type ForwardingRule = z.infer<typeof forwardingRuleSchema>;

export const DICOM_SEND_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type DicomSendStatus = (typeof DICOM_SEND_STATUSES)[number];

/** A send lists at most this many of the instances that failed. */
export const SEND_FAILED_LIST_MAX = 100;
/** A send by hand names at most this many series. */
export const SEND_SERIES_MAX = 200;

export const dicomSendRequestSchema = z
  .object({
    destinationId: z.string().min(1).max(64),
    /** some series of the study (SeriesInstanceUID); absent: the whole study */
    seriesUids: z
      .array(
        z
          .string()
          .regex(/^[0-9]+(\.[0-9]+)*$/)
          .max(64),
      )
      .min(1)
      .max(SEND_SERIES_MAX)
      .optional(),
  })
  .strict();
export type DicomSendRequest = z.input<typeof dicomSendRequestSchema>;

export const dicomSendSchema = z.object({
  id: z.string(),
  examId: z.string(),
  destinationId: z.string().nullable(),
  destinationAe: z.string(),
  seriesUids: z.array(z.string()).nullable(),
  trigger: z.enum(['manual', 'rule']),
  ruleId: z.string().nullable(),
  status: z.enum(DICOM_SEND_STATUSES),
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /** SOP Instance UIDs of failed instances (the first SEND_FAILED_LIST_MAX) */
  failedInstances: z.array(z.string()),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  created: z.string(),
  finished: z.string().nullable(),
});
export type DicomSend = z.infer<typeof dicomSendSchema>;

const bucketParams = z.object({ bucketId: z.string() });
const ruleParams = bucketParams.extend({ id: z.string() });
const examParams = z.object({ examId: z.string() });

export const forwardingCalls = {
  listRules: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/forwarding-rules',
    params: bucketParams,
    answer: z.array(forwardingRuleSchema),
  }),
  createRule: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/forwarding-rules',
    params: bucketParams,
    body: forwardingRuleInputSchema,
    answer: forwardingRuleSchema,
    status: 201,
  }),
  updateRule: defineCall({
    method: 'PUT',
    path: 'buckets/:bucketId/forwarding-rules/:id',
    params: ruleParams,
    body: forwardingRuleInputSchema,
    answer: forwardingRuleSchema,
  }),
  removeRule: defineCall({
    method: 'DELETE',
    path: 'buckets/:bucketId/forwarding-rules/:id',
    params: ruleParams,
    status: 204,
  }),
  /** the organization's recent sends (newest first, at most 100) */
  listSends: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/dicom-sends',
    params: bucketParams,
    answer: z.array(dicomSendSchema),
  }),
  /** send the study (or some series) to a device: answered queued; a job sends it */
  send: defineCall({
    method: 'POST',
    path: 'exams/:examId/dicom-sends',
    params: examParams,
    body: dicomSendRequestSchema,
    answer: dicomSendSchema,
    status: 202,
  }),
  /** the exam's sends, newest first */
  examSends: defineCall({
    method: 'GET',
    path: 'exams/:examId/dicom-sends',
    params: examParams,
    answer: z.array(dicomSendSchema),
  }),
  /** send again what a failed send did not deliver */
  retrySend: defineCall({
    method: 'POST',
    path: 'exams/:examId/dicom-sends/:sendId/retry',
    params: examParams.extend({ sendId: z.string() }),
    answer: dicomSendSchema,
    status: 202,
  }),
} as const;

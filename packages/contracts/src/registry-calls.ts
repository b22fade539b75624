import { z } from 'zod';
import { defineCall } from './call.js';
import {
  deviceGroupInputSchema,
  deviceGroupSchema,
  deviceInputSchema,
  deviceSchema,
  modalityEntryInputSchema,
  modalityEntrySchema,
  procedureInputSchema,
  procedureSchema,
  resortSchema,
} from './procedures.js';
import {
  patientPageSchema,
  patientQuerySchema,
  registrationCreateSchema,
  registrationSchema,
  registrationUpdateSchema,
  registryBucketSchema,
  registryPageSchema,
  registryQuerySchema,
  registryStatusChangeSchema,
  scheduledExamSchema,
  scheduledIdsSchema,
} from './registry.js';

const bucketParams = z.object({ bucketId: z.string() });
const idParams = z.object({ id: z.string() });
const scheduledExams = z.array(scheduledExamSchema);

/**
 * The front desk's calls (spec 001 §7 "Registry", "Others" patients; issue 22). The server's
 * routes (modules/registry/registry.routes.ts) and the web's client (api/registry.ts) are built
 * from these.
 */
export const registryCalls = {
  buckets: defineCall({ method: 'GET', path: 'registry-buckets', answer: z.array(registryBucketSchema) }),
  query: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/registry/query',
    params: bucketParams,
    body: registryQuerySchema,
    answer: registryPageSchema,
  }),
  create: defineCall({
    method: 'POST',
    path: 'registry',
    body: registrationCreateSchema,
    answer: registrationSchema,
    status: 201,
  }),
  update: defineCall({ method: 'PUT', path: 'registry', body: registrationUpdateSchema, answer: registrationSchema }),
  /** arrival of several scheduled exams (a registration's, at the desk) */
  arrive: defineCall({ method: 'POST', path: 'registry/arrive', body: scheduledIdsSchema, answer: scheduledExams }),
  findByOrderId: defineCall({
    method: 'GET',
    path: 'registry/findbyorderid',
    query: z.object({ orderId: z.string().max(64) }),
    answer: registrationSchema,
  }),
  status: defineCall({
    method: 'POST',
    path: 'registry/exam/status',
    body: registryStatusChangeSchema,
    answer: scheduledExamSchema,
  }),
  /** confirm performed, at most 15 at once (spec 000 §5) */
  confirm: defineCall({
    method: 'POST',
    path: 'registry/exam/confirm',
    body: scheduledIdsSchema,
    answer: scheduledExams,
  }),
  passCode: defineCall({
    method: 'GET',
    path: 'pass-codes/:code',
    params: z.object({ code: z.string().max(16) }),
    answer: registrationSchema,
  }),
} as const;

/** Scheduled exams one by one (spec 001 §7 "scheduled-exams: delete, revoke, confirm"). */
export const scheduledExamCalls = {
  remove: defineCall({ method: 'DELETE', path: 'scheduled-exams/:id', params: idParams, status: 204 }),
  revoke: defineCall({
    method: 'POST',
    path: 'scheduled-exams/:id/revoke',
    params: idParams,
    body: z.object({ reason: z.string().trim().min(1).max(256) }).strict(),
    answer: scheduledExamSchema,
  }),
  confirm: defineCall({
    method: 'POST',
    path: 'scheduled-exams/:id/confirm',
    params: idParams,
    answer: scheduledExamSchema,
  }),
} as const;

/** The group's patients (spec 001 §7 "Others": POST patients/query; patients/{id}/past). */
export const patientCalls = {
  query: defineCall({ method: 'POST', path: 'patients/query', body: patientQuerySchema, answer: patientPageSchema }),
  past: defineCall({
    method: 'GET',
    path: 'patients/:id/past',
    params: idParams,
    answer: z.array(registrationSchema),
  }),
} as const;

const crud = <I extends z.ZodType, A extends z.ZodType>(path: string, input: I, answer: A) => ({
  list: defineCall({ method: 'GET', path: `buckets/:bucketId/${path}`, params: bucketParams, answer: z.array(answer) }),
  create: defineCall({
    method: 'POST',
    path: `buckets/:bucketId/${path}`,
    params: bucketParams,
    body: input,
    answer,
    status: 201,
  }),
  update: defineCall({
    method: 'PUT',
    path: `buckets/:bucketId/${path}/:id`,
    params: bucketParams.extend({ id: z.string() }),
    body: input,
    answer,
  }),
  remove: defineCall({
    method: 'DELETE',
    path: `buckets/:bucketId/${path}/:id`,
    params: bucketParams.extend({ id: z.string() }),
    status: 204,
  }),
});

/**
 * Procedure management, the organization tab (spec 000 §2; issue 22): device groups, devices (the
 * organization's DICOM modalities), procedures with their steps, and the modality dictionary.
 */
export const procedureCalls = {
  deviceGroups: crud('device-groups', deviceGroupInputSchema, deviceGroupSchema),
  devices: crud('devices', deviceInputSchema, deviceSchema),
  procedures: crud('procedures', procedureInputSchema, procedureSchema),
  modalityDictionary: crud('modality-dictionary', modalityEntryInputSchema, modalityEntrySchema),
  resort: defineCall({
    method: 'POST',
    path: 'buckets/:bucketId/procedures/resort',
    params: bucketParams,
    body: resortSchema,
    answer: z.array(procedureSchema),
  }),
} as const;

import { z } from 'zod';
import { defineCall } from './call.js';
import {
  bucketExtensionInputSchema,
  examExtensionConfigSchema,
  extensionOrgSchema,
  procedureStepSchema,
  scheduledExamExtensionSchema,
  scheduleExportSchema,
  serviceOrderResultSchema,
  serviceOrderSchema,
  upsertExtensionSchema,
} from './registry-orders.js';

const bucketParams = z.object({ bucketId: z.string() });
const idParams = z.object({ id: z.string() });

/**
 * The front desk's orders, exports and extension fields (spec 001 §7 "Registry" and "Buckets";
 * issue 22). The server's routes are modules/registry/registry-orders.routes.ts.
 */
export const registryOrderCalls = {
  /** the organization's scheduled exams as .xlsx (the registry query's filters; at most MAX_EXPORT_SCHEDULES) */
  exportSchedules: defineCall({ method: 'POST', path: 'exports/schedules', body: scheduleExportSchema }),
  /** an external order: a registration with source external, its exams Registered; idempotent on orderId */
  serviceOrder: defineCall({
    method: 'POST',
    path: 'service-order',
    body: serviceOrderSchema,
    answer: serviceOrderResultSchema,
  }),
} as const;

/** A scheduled exam's values of its organization's exam extension fields. */
export const scheduledExamExtensionCalls = {
  get: defineCall({
    method: 'GET',
    path: 'scheduled-exams/:id/exam-extension',
    params: idParams,
    answer: scheduledExamExtensionSchema,
  }),
  upsert: defineCall({
    method: 'POST',
    path: 'scheduled-exams/:id/upsert-extension',
    params: idParams,
    body: upsertExtensionSchema,
    answer: scheduledExamExtensionSchema,
  }),
  remove: defineCall({
    method: 'DELETE',
    path: 'scheduled-exams/:id/extensions/:extensionId',
    params: idParams.extend({ extensionId: z.string() }),
    answer: scheduledExamExtensionSchema,
  }),
} as const;

/** The organizations' exam extension fields and procedure steps ("Buckets"). */
export const bucketExtensionCalls = {
  list: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/extensions',
    params: bucketParams,
    answer: z.array(examExtensionConfigSchema),
  }),
  upsert: defineCall({
    method: 'POST',
    path: 'bucket-extensions',
    body: bucketExtensionInputSchema,
    answer: examExtensionConfigSchema,
  }),
  orgs: defineCall({ method: 'GET', path: 'extends/orgs', answer: z.array(extensionOrgSchema) }),
  steps: defineCall({
    method: 'GET',
    path: 'buckets/:bucketId/steps',
    params: bucketParams,
    answer: z.array(procedureStepSchema),
  }),
} as const;

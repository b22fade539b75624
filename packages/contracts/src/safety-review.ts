import { z } from 'zod';
import { REPORT_PAGE_SIZE } from './limits.js';
import { CRITICAL_VALUE_STATUSES, criticalValueSchema } from './report-safety.js';

/**
 * Reviewing clinical safety across reports (spec 000 §3 Report "critical value", "quality"):
 * the critical values of every organization the caller follows them in, for the ordering side
 * and the radiology department to close the loop from one list.
 */

/** A bound of a period: an ISO date (a whole UTC day; `to` inclusive) or an instant with its offset. */
export const periodBoundSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

const skip = z
  .number()
  .int()
  .catch(0)
  .transform((n) => Math.max(0, n));
const limit = z
  .number()
  .int()
  .catch(REPORT_PAGE_SIZE)
  .transform((n) => (n > 0 ? Math.min(n, 100) : REPORT_PAGE_SIZE));

/**
 * POST critical-values/page-query: critical values sent in [from, to], newest first, in the
 * organizations where the caller reads reports or follows critical values up (or the one named).
 */
export const criticalValuePageBodySchema = z
  .object({
    bucketId: z.string().max(64).optional(),
    status: z.enum(CRITICAL_VALUE_STATUSES).optional(),
    from: periodBoundSchema.optional(),
    to: periodBoundSchema.optional(),
    skip,
    limit,
  })
  .strict();
export type CriticalValuePageBody = z.input<typeof criticalValuePageBodySchema>;

export const criticalValuePageItemSchema = criticalValueSchema.extend({
  bucketName: z.string(),
  /** masked without view_privacy in the organization, or when the exam is confidential */
  patientName: z.string(),
  patientGender: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDate: z.string(),
  /** the caller may record the read-back and the handling in this organization */
  canFollow: z.boolean(),
});
export type CriticalValuePageItem = z.infer<typeof criticalValuePageItemSchema>;

export const criticalValuePageSchema = z.object({
  data: z.array(criticalValuePageItemSchema),
  count: z.number().int(),
  /** how many match the filters other than status, by status (the tabs' counts) */
  byStatus: z.object({ sent: z.number().int(), received: z.number().int(), handled: z.number().int() }),
});
export type CriticalValuePage = z.infer<typeof criticalValuePageSchema>;

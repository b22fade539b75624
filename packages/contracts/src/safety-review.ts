import { z } from 'zod';
import { REPORT_PAGE_SIZE } from './limits.js';
import type { Action } from './permissions.js';
import { CRITICAL_VALUE_STATUSES, criticalValueSchema } from './report-safety.js';

/**
 * Reviewing clinical safety across reports (spec 000 §3 Report "critical value", "quality"):
 * the critical values of every organization the caller follows them in, for the ordering side
 * and the radiology department to close the loop from one list.
 */

/** Read a report and what hangs on it (ratings, comments, critical values, its grade). */
export const REPORT_READER_ACTIONS = [
  'exam_get',
  'report_upsert',
  'report_approval',
  'report_advice',
  'report_trace',
] as const satisfies readonly Action[];
/**
 * Record the ordering side's read-back and the handling of a critical value: the reporting doctors
 * and the registry desk (registry_create/update; not registry_arrive, which technicians hold for
 * check-in), who phone the ordering department and take down its answer.
 */
export const CRITICAL_FOLLOWER_ACTIONS = [
  'report_upsert',
  'report_approval',
  'registry_create',
  'registry_update',
] as const satisfies readonly Action[];
/** List critical values across reports (critical-values/page-query): readers and followers. */
export const CRITICAL_LIST_ACTIONS: readonly Action[] = [
  ...new Set<Action>([...REPORT_READER_ACTIONS, ...CRITICAL_FOLLOWER_ACTIONS]),
];
/** Review the organization's graded reports (quality/page-query). */
export const QUALITY_REVIEW_ACTIONS = [
  'quality_upsert',
  'quality_delete',
  'quality_stats',
] as const satisfies readonly Action[];

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
  /** masked as privateFieldsMasked says (group privacy on without view_privacy, or confidential without it) */
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

import { z } from 'zod';
import { isoDateSchema } from './registry.js';
import { statQuerySchema, statRowSchema } from './statistics.js';

/**
 * Statistics beyond the tables (issue 26): the report detail and the money lines of a period, the
 * overview, which organizations the caller may count, a group's quality summary, and the turnaround's
 * steps and slowest exams. The query and the table are in statistics.ts.
 */

/* ---------- detail lists ---------- */

export const STAT_DETAIL_LIMIT_MAX = 100;
/** The export of a detail list (spec 000 §9: exports of at most 3000 exams). */
export const STAT_EXPORT_MAX = 3000;

const page = {
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(STAT_DETAIL_LIMIT_MAX).default(20),
};

/** statistics/report-detail: the approved reports of the period (a doctor's, as writer or approver). */
export const statReportDetailQuerySchema = statQuerySchema.extend({
  role: z.enum(['written', 'approved']).optional(),
  ...page,
});
export type StatReportDetailQuery = z.output<typeof statReportDetailQuerySchema>;
const person = z.object({ id: z.string(), name: z.string() }).nullable();
export const statReportDetailItemSchema = z.object({
  examId: z.string(),
  bucketId: z.string(),
  bucketName: z.string(),
  patientName: z.string(),
  patientId: z.string(),
  accessionNumber: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  bodyPartCount: z.number().int(),
  writer: person,
  approver: person,
  noteTaker: person,
  approvedAt: z.string(),
  positive: z.boolean().nullable(),
});
export type StatReportDetailItem = z.infer<typeof statReportDetailItemSchema>;
export const statReportDetailSchema = z.object({ items: z.array(statReportDetailItemSchema), total: z.number().int() });

/** statistics/billings: the money lines of the period (payments, refunds, credits). */
export const statBillingsQuerySchema = statQuerySchema.extend({ ...page });
export const statBillingItemSchema = z.object({
  at: z.string(),
  kind: z.enum(['payment', 'refund', 'credit']),
  orderId: z.string().nullable(),
  orderNo: z.string(),
  bucketId: z.string(),
  bucketName: z.string(),
  counterpart: z.string(),
  product: z.string(),
  channel: z.string(),
  amountFen: z.number().int(),
  currency: z.enum(['CNY', 'USD']),
});
export type StatBillingItem = z.infer<typeof statBillingItemSchema>;
export const statBillingsSchema = z.object({
  items: z.array(statBillingItemSchema),
  total: z.number().int(),
  sums: z.array(
    z.object({
      currency: z.enum(['CNY', 'USD']),
      paidFen: z.number().int(),
      refundedFen: z.number().int(),
      /** turnaround (SLA) credits */
      creditedFen: z.number().int(),
      /** paid − refunded − credited */
      netFen: z.number().int(),
    }),
  ),
});
export type StatBillings = z.infer<typeof statBillingsSchema>;

/* ---------- overview ---------- */

export const STAT_OVERVIEW_KINDS = ['total', 'user', 'bucket'] as const;
export type StatOverviewKind = (typeof STAT_OVERVIEW_KINDS)[number];
export const statOverviewSchema = z.object({
  kind: z.enum(STAT_OVERVIEW_KINDS),
  from: z.string(),
  to: z.string(),
  totals: z.object({
    exams: z.number().int(),
    reports: z.number().int(),
    buckets: z.number().int(),
    users: z.number().int(),
  }),
  rows: z.array(statRowSchema),
});
export type StatOverview = z.infer<typeof statOverviewSchema>;

/* ---------- which organizations ---------- */

/** GET buckets/allowed-statistics: per organization, the statistics actions the caller holds. */
export const allowedStatisticsSchema = z.object({
  items: z.array(
    z.object({
      bucketId: z.string(),
      name: z.string(),
      groupId: z.string(),
      actions: z.array(z.string()),
    }),
  ),
  /** the caller's groups with statistics on (enableStat), for /group-statistics */
  groups: z.array(z.object({ id: z.string(), name: z.string(), enableStat: z.boolean(), isAdmin: z.boolean() })),
});
export type AllowedStatistics = z.infer<typeof allowedStatisticsSchema>;

/** GET buckets/allowed?action=: the organizations where the caller holds the action. */
export const allowedBucketsQuerySchema = z.object({ action: z.string().trim().min(1).max(64) });
export const allowedBucketsSchema = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string(), groupId: z.string() })),
});

/** GET groups/{id}/quality: the group's quality summary over a period (quality_stats). */
export const groupQualityQuerySchema = z.object({ from: isoDateSchema, to: isoDateSchema });
export const groupQualitySchema = z.object({
  groupId: z.string(),
  from: z.string(),
  to: z.string(),
  graded: z.number().int(),
  levels: z.object({ A: z.number().int(), B: z.number().int(), C: z.number().int(), D: z.number().int() }),
  /** the unsatisfactory items named most, most first */
  items: z.array(z.object({ item: z.string(), count: z.number().int() })),
  buckets: z.array(
    z.object({ id: z.string(), name: z.string(), graded: z.number().int(), goodRate: z.number().nullable() }),
  ),
});
export type GroupQuality = z.infer<typeof groupQualitySchema>;

/* ---------- turnaround (beyond the spec) ---------- */

/** The steps of an exam whose time is recorded where it happens, in the order they happen. */
export const TURNAROUND_STEPS = [
  'registered',
  'arrived',
  'called',
  'performed',
  'firstSaved',
  'submitted',
  'approved',
  'printed',
  'published',
  'shareViewed',
] as const;
export type TurnaroundStep = (typeof TURNAROUND_STEPS)[number];

/** statistics/turnaround: the interval between two steps (registration to approval by default). */
export const turnaroundQuerySchema = statQuerySchema
  .extend({
    fromStep: z.enum(TURNAROUND_STEPS).default('registered'),
    toStep: z.enum(TURNAROUND_STEPS).default('approved'),
  })
  .refine((q) => TURNAROUND_STEPS.indexOf(q.fromStep) < TURNAROUND_STEPS.indexOf(q.toStep), {
    message: 'fromStep must come before toStep',
    path: ['toStep'],
  });
export type TurnaroundQuery = z.output<typeof turnaroundQuerySchema>;

/** statistics/turnaround/slowest: the slowest exams of the interval, and those now past the target. */
export const turnaroundSlowItemSchema = z.object({
  examId: z.string(),
  bucketId: z.string(),
  patientName: z.string(),
  accessionNumber: z.string(),
  modality: z.string(),
  room: z.string(),
  doctor: z.string(),
  fromAt: z.string(),
  /** null for an exam still waiting for the later step */
  toAt: z.string().nullable(),
  minutes: z.number(),
});
export const turnaroundSlowestSchema = z.object({
  /** the group's target (minutes) for the interval, null when none is set */
  targetMinutes: z.number().int().nullable(),
  slowest: z.array(turnaroundSlowItemSchema),
  /** exams that reached fromStep and are past the target without toStep */
  overdue: z.array(turnaroundSlowItemSchema),
});
export type TurnaroundSlowest = z.infer<typeof turnaroundSlowestSchema>;

import { z } from 'zod';
import { REPORT_STATUSES } from './exams.js';
import { MAX_CRITICAL_VALUE_LENGTH, REPORT_PAGE_SIZE } from './limits.js';

/**
 * Clinical safety around a report (spec 000 §3 Report: critical value, rating, comment, quality;
 * §5 "critical value text at most 255"; §6 quality_upsert, quality_delete, critical_value_stats;
 * spec 001 §7 "Reports" rating, comment, critical-value, quality, report-table-color).
 * A report's id is its primary exam's id, as in the report calls.
 */

const person = z.object({ id: z.string(), name: z.string() }).nullable();
const isoInstant = z.string();

/* ---------- critical values ---------- */

/** sent (reported and phoned) → received (the ordering side read it back) → handled (closed). */
export const CRITICAL_VALUE_STATUSES = ['sent', 'received', 'handled'] as const;
export type CriticalValueStatus = (typeof CRITICAL_VALUE_STATUSES)[number];
export const CRITICAL_VALUE_LEVEL_MAX = 32;
/** names of the receiving and confirming persons on the ordering side (they may have no account) */
export const CRITICAL_VALUE_PERSON_MAX = 64;
export const CRITICAL_VALUE_NOTE_MAX = 500;

/**
 * A critical value's level, kept apart from its text (issue 20 item 7): the levels of the
 * organization's critical-value dictionary (tenancy critical-values data.level).
 */
export const CRITICAL_VALUE_LEVELS = ['high', 'medium', 'low'] as const;
export type CriticalValueLevel = (typeof CRITICAL_VALUE_LEVELS)[number];
/** Levels written as words before they were keys (rows and clients of then). */
const LEVEL_WORDS: Record<string, CriticalValueLevel> = {
  高: 'high',
  中: 'medium',
  低: 'low',
  High: 'high',
  Medium: 'medium',
  Low: 'low',
  'མཐོ།': 'high',
  'འབྲིང་།': 'medium',
  'དམའ།': 'low',
};

/** The level key a stored or sent level stands for (a key, or a level word of old), or null. */
export function criticalValueLevelKey(level: string): CriticalValueLevel | null {
  const trimmed = level.trim();
  return (CRITICAL_VALUE_LEVELS as readonly string[]).includes(trimmed)
    ? (trimmed as CriticalValueLevel)
    : (LEVEL_WORDS[trimmed] ?? null);
}

/** POST reports/{id}/critical-value */
export const reportCriticalValueSchema = z
  .object({
    text: z.string().trim().min(1).max(MAX_CRITICAL_VALUE_LENGTH),
    /** the organization's critical-value dictionary item (buckets/{id}/critical-values), when chosen */
    itemId: z.string().max(64).optional(),
    /** high, medium or low (a level word of old, 高/中/低, is read as its key); left out: the item's */
    level: z
      .preprocess(
        (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : (criticalValueLevelKey(v) ?? v)) : v),
        z.enum(CRITICAL_VALUE_LEVELS).optional(),
      )
      .optional(),
  })
  .strict();
export type ReportCriticalValueBody = z.infer<typeof reportCriticalValueSchema>;

/** POST reports/{id}/critical-values/{criticalId}/receive: the ordering side's acknowledgement with read-back. */
export const receiveCriticalValueSchema = z
  .object({
    /** who on the ordering side took the call */
    receiver: z.string().trim().min(1).max(CRITICAL_VALUE_PERSON_MAX),
    /** who confirmed the read-back */
    confirmor: z.string().trim().min(1).max(CRITICAL_VALUE_PERSON_MAX),
    /** what the receiver read back */
    readbackOpinion: z.string().trim().min(1).max(CRITICAL_VALUE_NOTE_MAX),
  })
  .strict();
export type ReceiveCriticalValueBody = z.infer<typeof receiveCriticalValueSchema>;

/** POST reports/{id}/critical-values/{criticalId}/handle: the handler is the caller. */
export const handleCriticalValueSchema = z
  .object({ handleNote: z.string().trim().max(CRITICAL_VALUE_NOTE_MAX).optional() })
  .strict();
export type HandleCriticalValueBody = z.infer<typeof handleCriticalValueSchema>;

export const criticalValueSchema = z.object({
  id: z.string(),
  reportId: z.string(),
  bucketId: z.string(),
  itemId: z.string().nullable(),
  text: z.string(),
  /** high, medium or low; '' when none was given; a row of old may hold another word */
  level: z.string(),
  status: z.enum(CRITICAL_VALUE_STATUSES),
  /** the ordering department notified (the exam's applyDept) */
  notifyDept: z.string(),
  reporter: person,
  sentAt: isoInstant,
  receiver: z.string(),
  receivedAt: isoInstant.nullable(),
  confirmor: z.string(),
  readbackOpinion: z.string(),
  handler: person,
  handledAt: isoInstant.nullable(),
  handleNote: z.string(),
});
export type CriticalValue = z.infer<typeof criticalValueSchema>;
export const criticalValueListSchema = z.object({
  items: z.array(criticalValueSchema),
  /** the caller may report one (report_upsert or report_approval) */
  canReport: z.boolean(),
  /** the caller may record receipt and handling */
  canFollow: z.boolean(),
});
export type CriticalValueList = z.infer<typeof criticalValueListSchema>;

/** A statistics period: an ISO date (a whole UTC day) or an instant with its offset. */
const periodBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
/** Statistics ranges are capped (spec 000 §5 "time period required"). */
export const CRITICAL_VALUE_STATS_MAX_DAYS = 366;

/** GET statistics/critical-value?bucketId&from&to (critical_value_stats); `to` as a date is inclusive. */
export const criticalValueStatsQuerySchema = z.object({
  bucketId: z.string().max(64),
  from: periodBound,
  to: periodBound,
});
export type CriticalValueStatsQuery = z.infer<typeof criticalValueStatsQuerySchema>;
export const criticalValueStatsSchema = z.object({
  bucketId: z.string(),
  from: isoInstant,
  to: isoInstant,
  total: z.number().int(),
  byStatus: z.object({ sent: z.number().int(), received: z.number().int(), handled: z.number().int() }),
  /** median minutes from sent to received (read-back), null when none was received */
  medianMinutesToReceive: z.number().nullable(),
  /** median minutes from sent to handled, null when none was handled */
  medianMinutesToHandle: z.number().nullable(),
});
export type CriticalValueStats = z.infer<typeof criticalValueStatsSchema>;

/* ---------- quality control ---------- */

/** Quality levels, best first (甲 乙 丙 丁 in chs). */
export const QUALITY_LEVELS = ['A', 'B', 'C', 'D'] as const;
export type QualityLevel = (typeof QUALITY_LEVELS)[number];
export const QUALITY_SUGGESTION_MAX = 1000;
export const QUALITY_ITEMS_MAX = 20;
export const QUALITY_ITEM_MAX = 64;

/** POST reports/{id}/quality (quality_upsert; approved or printed reports only) */
export const qualityUpsertSchema = z
  .object({
    level: z.enum(QUALITY_LEVELS),
    suggestion: z.string().trim().max(QUALITY_SUGGESTION_MAX).default(''),
    unsatisfactoryItems: z.array(z.string().trim().min(1).max(QUALITY_ITEM_MAX)).max(QUALITY_ITEMS_MAX).default([]),
  })
  .strict();
export type QualityUpsertBody = z.input<typeof qualityUpsertSchema>;

export const reportQualitySchema = z.object({
  reportId: z.string(),
  bucketId: z.string(),
  level: z.enum(QUALITY_LEVELS),
  suggestion: z.string(),
  unsatisfactoryItems: z.array(z.string()),
  creator: person,
  createdAt: isoInstant,
  updatedAt: isoInstant,
});
export type ReportQuality = z.infer<typeof reportQualitySchema>;
/** GET reports/{id}/quality: null when nobody graded it; what the caller may do with it. */
export const reportQualityAnswerSchema = z.object({
  quality: reportQualitySchema.nullable(),
  canUpsert: z.boolean(),
  canDelete: z.boolean(),
  /** approved or printed: only those are graded */
  gradable: z.boolean(),
});
export type ReportQualityAnswer = z.infer<typeof reportQualityAnswerSchema>;

/**
 * POST quality/page-query?bucketId= — the organization's graded reports, newest grading first;
 * `from`/`to` bound the grading time (last change), a date `to` inclusive.
 */
/** bucketId: one organization; left out, every organization where the caller reviews quality. */
export const qualityPageQuerySchema = z.object({ bucketId: z.string().max(64).optional() });
export const qualityPageBodySchema = z
  .object({
    level: z.enum(QUALITY_LEVELS).optional(),
    from: periodBound.optional(),
    to: periodBound.optional(),
    skip: z
      .number()
      .int()
      .catch(0)
      .transform((n) => Math.max(0, n)),
    limit: z
      .number()
      .int()
      .catch(REPORT_PAGE_SIZE)
      .transform((n) => (n > 0 ? Math.min(n, 100) : REPORT_PAGE_SIZE)),
  })
  .strict();
export type QualityPageBody = z.input<typeof qualityPageBodySchema>;
export const qualityPageItemSchema = reportQualitySchema.extend({
  bucketName: z.string(),
  /** masked as privateFieldsMasked says (group privacy on without view_privacy, or confidential without it) */
  patientName: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDate: z.string(),
  reportStatus: z.string(),
});
export type QualityPageItem = z.infer<typeof qualityPageItemSchema>;
export const qualityPageSchema = z.object({ data: z.array(qualityPageItemSchema), count: z.number().int() });
export type QualityPage = z.infer<typeof qualityPageSchema>;

/* ---------- ratings ---------- */

export const RATING_COMMENT_MAX = 500;
/** POST reports/{id}/rating: once per rater, never changed (spec 000 §3). */
export const reportRatingBodySchema = z
  .object({
    score: z.number().int().min(1).max(5),
    comment: z.string().trim().max(RATING_COMMENT_MAX).default(''),
  })
  .strict();
export type ReportRatingBody = z.input<typeof reportRatingBodySchema>;
export const reportRatingSchema = z.object({
  id: z.string(),
  reportId: z.string(),
  rater: person,
  score: z.number().int(),
  comment: z.string(),
  createdAt: isoInstant,
  mine: z.boolean(),
});
export type ReportRating = z.infer<typeof reportRatingSchema>;
export const reportRatingsSchema = z.object({
  items: z.array(reportRatingSchema),
  /** mean score, null without ratings */
  average: z.number().nullable(),
  /** the caller may rate now: approved or printed, not its writer, not rated yet */
  canRate: z.boolean(),
});
export type ReportRatings = z.infer<typeof reportRatingsSchema>;

/* ---------- comments ---------- */

export const REPORT_COMMENT_MAX = 1000;
/** POST reports/{id}/comment (where the group allows report comments) */
export const reportCommentBodySchema = z.object({ text: z.string().trim().min(1).max(REPORT_COMMENT_MAX) }).strict();
export type ReportCommentBody = z.infer<typeof reportCommentBodySchema>;
export const reportCommentSchema = z.object({
  id: z.string(),
  reportId: z.string(),
  author: person,
  text: z.string(),
  createdAt: isoInstant,
  /** the caller wrote it (and may delete it) */
  mine: z.boolean(),
});
export type ReportComment = z.infer<typeof reportCommentSchema>;
export const reportCommentsSchema = z.object({ items: z.array(reportCommentSchema) });
export type ReportComments = z.infer<typeof reportCommentsSchema>;

/* ---------- report table colours ---------- */

/** What a report table colour matches: report status, open critical value, positive finding, urgent exam. */
export const REPORT_TABLE_COLOR_FIELDS = ['status', 'critical', 'positive', 'urgent'] as const;
export type ReportTableColorField = (typeof REPORT_TABLE_COLOR_FIELDS)[number];
/** The value of a flag colour (critical, positive, urgent). */
export const REPORT_TABLE_COLOR_FLAG_VALUES = ['true', 'false'] as const;
const hexColor = z.union([z.literal(''), z.string().regex(/^#[0-9a-fA-F]{6}$/)]);

/** POST report-table-color?groupId= and PUT report-table-color/{colorId} (group admins) */
export const reportTableColorBodySchema = z
  .object({
    name: z.string().trim().min(1).max(64),
    field: z.enum(REPORT_TABLE_COLOR_FIELDS),
    /** a report status for field status; true or false for the flags */
    value: z.string().trim().max(64),
    color: hexColor,
    background: hexColor,
    /** lower first */
    priority: z.number().int().min(0).max(10000).default(0),
  })
  .strict()
  .superRefine((body, ctx) => {
    const ok =
      body.field === 'status'
        ? (REPORT_STATUSES as readonly string[]).includes(body.value)
        : REPORT_TABLE_COLOR_FLAG_VALUES.includes(body.value as 'true' | 'false');
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: body.field === 'status' ? 'is not a report status' : "must be 'true' or 'false'",
      });
    }
  });
export type ReportTableColorBody = z.input<typeof reportTableColorBodySchema>;
export const reportTableColorQuerySchema = z.object({ groupId: z.string().max(64) });
export const reportTableColorSchema = z.object({
  id: z.string(),
  groupId: z.string(),
  name: z.string(),
  field: z.enum(REPORT_TABLE_COLOR_FIELDS),
  value: z.string(),
  color: z.string(),
  background: z.string(),
  priority: z.number().int(),
});
export type ReportTableColor = z.infer<typeof reportTableColorSchema>;
export const reportTableColorsSchema = z.object({ items: z.array(reportTableColorSchema) });

import { z } from 'zod';
import { REPORT_STATUSES, reportColorSchema } from './exams.js';
import { MAX_BODYPART_COUNT, MAX_NOTE_LENGTH } from './limits.js';

/**
 * Reports (spec 000 §3 Report, §4 report status and rules, §5 report validation; spec 001 §7
 * "Reports"). A report's id is the id of the exam it was opened on; co-written exams share their
 * primary exam's report. The server decides `transitions`; the client renders only those.
 */

// Report status values of spec 000 §4 (REPORT_STATUSES) live with the exam list, which filters by them.

/** Actions of POST reports/{id}/{action} (spec 000 §4), plus approve-and-print. */
export const REPORT_ACTIONS = [
  'save',
  'submit',
  'approve',
  'reject',
  'advise',
  'recall',
  'cancelSubmit',
  'preliminaryIssue',
  'approveAndPrint',
] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

/** URL segment of each action (approve-and-print is spelled with dashes in the path). */
export const REPORT_ACTION_PATHS: Record<ReportAction, string> = {
  save: 'save',
  submit: 'submit',
  approve: 'approve',
  reject: 'reject',
  advise: 'advise',
  recall: 'recall',
  cancelSubmit: 'cancelSubmit',
  preliminaryIssue: 'preliminaryIssue',
  approveAndPrint: 'approve-and-print',
};

/** Actions whose answer refreshes only the state fields (spec 000 §4), not the content. */
export const STATE_ONLY_ACTIONS: readonly ReportAction[] = ['cancelSubmit', 'reject', 'recall'];

/** Spec 000 §4: editable iff save, submit or approve is allowed. */
export function isEditable(transitions: readonly ReportAction[]): boolean {
  return transitions.some((a) => a === 'save' || a === 'submit' || a === 'approve' || a === 'approveAndPrint');
}

/** Spec 000 §4: pending approval iff approve or reject is allowed. */
export function isPendingApproval(transitions: readonly ReportAction[]): boolean {
  return transitions.some((a) => a === 'approve' || a === 'reject' || a === 'approveAndPrint');
}

export const REPORT_TEXT_MAX = 20_000;
export const REPORT_REASON_MAX = 500;
export const REPORT_ADVICE_MAX = 2_000;
/** A lock left by a closed tab expires after this many seconds unless renewed (REPORT_LOCK_SECONDS). */
export const DEFAULT_REPORT_LOCK_SECONDS = 300;
/** How often an open editor renews its lock and autosaves a changed draft. */
export const REPORT_HEARTBEAT_MS = 60_000;
export const REPORT_AUTOSAVE_MS = 20_000;

export const reportContentSchema = z
  .object({
    findings: z.string().max(REPORT_TEXT_MAX),
    conclusion: z.string().max(REPORT_TEXT_MAX),
    /** positive finding flag; null until set */
    positive: z.boolean().nullable(),
    note: z.string().max(MAX_NOTE_LENGTH),
    bodyPartCount: z.number().int().min(1).max(MAX_BODYPART_COUNT).nullable(),
    advice: z.string().max(REPORT_ADVICE_MAX),
    /** values of the organization's report extension fields, by key */
    extensions: z.record(z.string().max(64), z.union([z.string().max(1000), z.number()])),
  })
  .strict();
export type ReportContent = z.infer<typeof reportContentSchema>;

export const EMPTY_REPORT_CONTENT: ReportContent = {
  findings: '',
  conclusion: '',
  positive: null,
  note: '',
  bodyPartCount: null,
  advice: '',
  extensions: {},
};

export const reportPersonSchema = z.object({ id: z.string(), name: z.string() }).nullable();
export type ReportPerson = z.infer<typeof reportPersonSchema>;

/** The fields refreshed after cancelSubmit, reject, recall or an empty action (spec 000 §4). */
export const reportStateSchema = z.object({
  id: z.string(),
  status: z.enum(REPORT_STATUSES),
  transitions: z.array(z.enum(REPORT_ACTIONS)),
  creator: reportPersonSchema,
  lastUpdater: reportPersonSchema,
  issuer: reportPersonSchema,
  rejectReason: z.string(),
  recallReason: z.string(),
});
export type ReportState = z.infer<typeof reportStateSchema>;

export const reportLockSchema = z
  .object({
    lockedBy: z.object({ id: z.string(), name: z.string() }),
    /** ISO time the lock was taken or last renewed */
    since: z.string(),
    /** ISO time it lapses unless renewed */
    expires: z.string(),
    /** the caller holds it */
    mine: z.boolean(),
  })
  .nullable();
export type ReportLock = z.infer<typeof reportLockSchema>;

/**
 * POST reports/{id}/sync, the editor's heartbeat: the state with the version, the lock and when
 * the report was last saved, by anyone (the editor's "saved at" follows it).
 */
export const reportSyncSchema = reportStateSchema.extend({
  version: z.number().int(),
  lock: reportLockSchema,
  savedAt: z.string().nullable(),
});
export type ReportSync = z.infer<typeof reportSyncSchema>;

export const reportSchema = reportStateSchema.extend({
  examId: z.string(),
  bucketId: z.string(),
  /** increases with every write; saves carry the version they were based on */
  version: z.number().int(),
  content: reportContentSchema,
  lock: reportLockSchema,
  /** the accounts chosen as advice experts (status advised) */
  adviceExperts: z.array(z.object({ id: z.string(), name: z.string() })),
  approver: reportPersonSchema,
  noteTaker: reportPersonSchema,
  savedAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  approvedAt: z.string().nullable(),
  /**
   * A remote or expert read (spec 000 §3 Report sourceBucketId, originBucketId; issue 24): the expert
   * organization whose doctors wrote it and the requesting organization the exam came from; absent
   * or null for an organization's own report.
   */
  sourceBucketId: z.string().nullable().optional(),
  originBucketId: z.string().nullable().optional(),
  printApprovedAt: z.string().nullable(),
  /** the exams reported together (primary first; just this exam when alone) */
  examIds: z.array(z.string()),
  /**
   * autoCheckCombineReport: the server looked for the patient's other exams of the same day in the
   * organization that nobody has reported or combined yet, and found these (the editor offers to
   * write them in this report: co-exams/add).
   */
  autoCheckCombineReport: z.boolean(),
  combinable: z.array(
    z.object({ examId: z.string(), modality: z.string(), bodyPart: z.string(), studyDate: z.string() }),
  ),
  /** may read the trace (report_trace) */
  canTrace: z.boolean(),
  /** may clear another user's lock (organization or group admin) */
  canForceUnlock: z.boolean(),
});
export type Report = z.infer<typeof reportSchema>;

/** Body of POST reports/{id}/{action}. */
export const reportActionSchema = z
  .object({
    /** the version the caller's content was based on (actions that write content) */
    version: z.number().int().min(0).optional(),
    content: reportContentSchema.optional(),
    /** reject and recall */
    reason: z.string().trim().max(REPORT_REASON_MAX).optional(),
    /** advise: the experts to ask */
    expertIds: z.array(z.string().max(64)).max(10).optional(),
  })
  .strict();
export type ReportActionBody = z.infer<typeof reportActionSchema>;

/**
 * Answer of an action: the whole report, or only its state after cancelSubmit, reject and
 * recall (the client keeps its content then).
 */
export const reportActionResultSchema = z.union([reportSchema, reportStateSchema]);

/** Details of a 409 ReportVersionConflict: the text the server refused, returned to its author. */
export const reportConflictDetailsSchema = z.object({
  currentVersion: z.number().int(),
  rejected: reportContentSchema,
  current: reportContentSchema,
  lastUpdater: reportPersonSchema,
});
export type ReportConflictDetails = z.infer<typeof reportConflictDetailsSchema>;

/** Details of a 409 ReportLocked. */
export const reportLockedDetailsSchema = z.object({ lockedBy: z.object({ id: z.string(), name: z.string() }) });

export const TRACE_ACTIONS = [
  ...REPORT_ACTIONS,
  'lock',
  'unlock',
  'forceUnlock',
  'reset',
  'coExamsAdd',
  /** an approved report printed (reports/{id}/update-print-time): corrected → printed */
  'print',
] as const;
export type TraceAction = (typeof TRACE_ACTIONS)[number];

/** One step of the history trail (GET reports/{id}/report-trace). */
export const reportTraceItemSchema = z.object({
  id: z.string(),
  action: z.enum(TRACE_ACTIONS),
  actor: reportPersonSchema,
  at: z.string(),
  statusFrom: z.enum(REPORT_STATUSES),
  statusTo: z.enum(REPORT_STATUSES),
  version: z.number().int(),
  reason: z.string(),
  /** the step changed the findings or conclusion */
  changed: z.boolean(),
});
export type ReportTraceItem = z.infer<typeof reportTraceItemSchema>;
export const reportTraceSchema = z.object({ traces: z.array(reportTraceItemSchema) });

/** GET reports/{id}/traces/{traceId}: one step with its content snapshot. */
export const reportTraceDetailSchema = reportTraceItemSchema.extend({ content: reportContentSchema });
export type ReportTraceDetail = z.infer<typeof reportTraceDetailSchema>;

/** A piece of a diff: unchanged, inserted or deleted text. */
export const diffPartSchema = z.object({ op: z.enum(['equal', 'insert', 'delete']), text: z.string() });
export type DiffPart = z.infer<typeof diffPartSchema>;

export const diffTraceQuerySchema = z.object({ from: z.string().max(64), to: z.string().max(64) }).strict();
/** GET reports/{id}/diff-trace?from&to: word-level diff (Chinese by character) of two steps. */
export const diffTraceSchema = z.object({
  from: reportTraceItemSchema,
  to: reportTraceItemSchema,
  fields: z.array(z.object({ field: z.string(), parts: z.array(diffPartSchema) })),
});
export type DiffTrace = z.infer<typeof diffTraceSchema>;

/** POST reports/{id}/image-order: the key images' new order. */
export const reportImageOrderSchema = z.object({ imageIds: z.array(z.string().max(64)).min(1).max(20) }).strict();
/** PATCH reports/{id}/images/{imageId}. */
export const reportImagePatchSchema = z
  .object({ desc: z.string().trim().max(256).optional(), isPrinted: z.boolean().optional() })
  .strict();

/** The reporting worklist (right panel): the next exams to read. */
export const worklistItemSchema = z.object({
  examId: z.string(),
  patientName: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDate: z.string(),
  reportStatus: z.enum(REPORT_STATUSES),
  urgent: z.boolean(),
  /** the first matching report table colour of the exam's group, or null */
  reportColor: reportColorSchema.nullable(),
});
export type WorklistItem = z.infer<typeof worklistItemSchema>;
export const worklistSchema = z.object({ items: z.array(worklistItemSchema) });

/** A marked point on a sample graph, in the image's pixels (spec 000 §3 "point (x, y, color)"). */
export const samplePointSchema = z
  .object({
    x: z.number().min(0).max(20_000),
    y: z.number().min(0).max(20_000),
    color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
    label: z.string().max(16),
  })
  .strict();
export type SamplePoint = z.infer<typeof samplePointSchema>;
export const MAX_SAMPLE_POINTS = 50;
export const MAX_REPORT_SAMPLE_GRAPHS = 6;

/** A sample graph placed on a report with its marks (GET reports/{id}/sample-graphs). */
export const reportSampleGraphSchema = z.object({
  id: z.string(),
  sampleGraphId: z.string(),
  title: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  index: z.number().int(),
  isPrinted: z.boolean(),
  points: z.array(samplePointSchema),
});
export type ReportSampleGraph = z.infer<typeof reportSampleGraphSchema>;
export const reportSampleGraphsSchema = z.object({ graphs: z.array(reportSampleGraphSchema) });
export const placeSampleGraphSchema = z
  .object({
    sampleGraphId: z.string().max(64),
    points: z.array(samplePointSchema).max(MAX_SAMPLE_POINTS).default([]),
    isPrinted: z.boolean().optional(),
  })
  .strict();
export const patchSampleGraphSchema = z
  .object({ points: z.array(samplePointSchema).max(MAX_SAMPLE_POINTS).optional(), isPrinted: z.boolean().optional() })
  .strict();

import { z } from 'zod';
import { CONSULTATION_PAGE_SIZE, LANGUAGES, MAX_NOTE_LENGTH } from './limits.js';
import { CONSULTATION_OPS, CONSULTATION_STATUS_VALUES, consultationStatusSchema } from './consultation-rules.js';
import { consultationFeeSchema } from './consultation-fee.js';
import { currencySchema, fenSchema } from './money.js';

/**
 * Consultations (spec 000 §1, §2, §3 "Consultation", §4, §5, §9; spec 001 §7 "Consultations" and
 * "Background polling"; issue 25): a requesting organization (source) asks experts of a target
 * organization to discuss a case. Statuses and who may do what are in consultation-rules.ts; the
 * calls in consultation-calls.ts.
 */

const id = z.string().min(1).max(64);
const isoTime = z.string();
const text = (max: number) => z.string().trim().max(max);
const limited = z.string().trim().max(MAX_NOTE_LENGTH);

/** Longest free texts: the experts' suggestion, treatment plan and result. */
export const CONSULTATION_TEXT_MAX = 10_000;
/** At most this many bound exams, case documents, files per case, result attachments, links. */
export const CONSULTATION_MAX = {
  exams: 20,
  cases: 30,
  filesPerCase: 20,
  resultAttachments: 20,
  links: 20,
  experts: 10,
  joiners: 20,
} as const;
/** Ratings are whole stars 1..5 (the group's rating config names them). */
export const CONSULTATION_RATING_MAX = 5;
export const CONSULTATION_GENDERS = ['M', 'F', 'O', ''] as const;
/** What a case document is. */
export const CONSULTATION_CASE_TYPES = ['record', 'lab', 'pathology', 'imaging', 'prescription', 'other'] as const;
export type ConsultationCaseType = (typeof CONSULTATION_CASE_TYPES)[number];
/** Upload status of a file (spec 000 §4 "Upload status: processing, completed"). */
export const CONSULTATION_UPLOAD_STATUSES = ['processing', 'completed'] as const;
export const CONSULTATION_MEMBER_ROLES = ['expert', 'joiner'] as const;
export type ConsultationMemberRole = (typeof CONSULTATION_MEMBER_ROLES)[number];

/* ---------- parts ---------- */

export const consultationPatientSchema = z
  .object({
    name: text(64).min(1),
    age: text(16).default(''),
    gender: z.enum(CONSULTATION_GENDERS).default(''),
    tel: z
      .string()
      .trim()
      .regex(/^[0-9+\-() ]{0,32}$/)
      .default(''),
    email: z.union([z.literal(''), z.email().max(128)]).default(''),
    contactHospital: text(128).default(''),
  })
  .strict();
export type ConsultationPatient = z.output<typeof consultationPatientSchema>;

/** The linked visit record (spec 000 §3): hospital, time, department, reason. */
export const consultationVisitSchema = z
  .object({
    hospital: text(128).default(''),
    time: isoTime.nullable().default(null),
    department: text(64).default(''),
    reason: limited.default(''),
  })
  .strict();
export type ConsultationVisit = z.output<typeof consultationVisitSchema>;

export const consultationMemberSchema = z.object({
  accountId: z.string(),
  name: z.string(),
  role: z.enum(CONSULTATION_MEMBER_ROLES),
  bucketId: z.string(),
  bucketName: z.string(),
});
export type ConsultationMember = z.infer<typeof consultationMemberSchema>;

/** A bound exam as spec 000 §3 names it, with the copy the target organization reads while open. */
export const consultationExamSchema = z.object({
  examId: z.string(),
  name: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDate: z.string().nullable(),
  /** the exam as the caller may open it (the source's for the requester, the shared copy for the target), null when unshared */
  openExamId: z.string().nullable(),
  boundAt: isoTime,
});
export type ConsultationExam = z.infer<typeof consultationExamSchema>;

export const consultationFileSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  fileType: z.string(),
  uploadStatus: z.enum(CONSULTATION_UPLOAD_STATUSES),
  createdAt: isoTime,
  createdByName: z.string(),
});
export type ConsultationFile = z.infer<typeof consultationFileSchema>;

export const consultationCaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(CONSULTATION_CASE_TYPES),
  note: z.string(),
  files: z.array(consultationFileSchema),
  createdAt: isoTime,
});
export type ConsultationCase = z.infer<typeof consultationCaseSchema>;

export const consultationLinkSchema = z.object({
  /** the link's id: /consultations/{id}/related/{linkId} */
  id: z.string(),
  linkedId: z.string(),
  title: z.string(),
  patientName: z.string(),
  status: consultationStatusSchema,
  scheduledAt: isoTime,
  result: z.string(),
});
export type ConsultationLink = z.infer<typeof consultationLinkSchema>;

export const consultationRatingSchema = z.object({
  score: z.number().int().min(1).max(CONSULTATION_RATING_MAX),
  comment: z.string(),
  ratedAt: isoTime,
  ratedByName: z.string(),
});

/** Payment status where the consultation is paid (spec 001 §9 codes), null when it is free. */
export const consultationPaymentStatusSchema = z.number().int().min(0).max(4).nullable();

/* ---------- the consultation ---------- */

/** A row of the list and of the poll (spec 000 §3 "Notifications: Consultation" plus the list's columns). */
export const consultationListItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: consultationStatusSchema,
  patientName: z.string(),
  created: isoTime,
  scheduledAt: isoTime,
  reason: z.string(),
  sourceBucketId: z.string(),
  /** the requesting organization's name */
  appliedBucketName: z.string(),
  targetBucketId: z.string(),
  /** the target organization and the experts' names */
  joinedBuckets: z.array(z.object({ bucketId: z.string(), bucketName: z.string(), experts: z.array(z.string()) })),
  creatorName: z.string(),
  rating: z.number().int().nullable(),
  paymentStatus: consultationPaymentStatusSchema,
});
export type ConsultationListItem = z.infer<typeof consultationListItemSchema>;

export const consultationDetailSchema = consultationListItemSchema.extend({
  version: z.number().int(),
  groupId: z.string(),
  patient: consultationPatientSchema,
  note: z.string(),
  clinicImpression: z.string(),
  cancelReason: z.string(),
  creatorId: z.string().nullable(),
  updated: isoTime,
  suggestion: z.string(),
  treatmentPlan: z.string(),
  result: z.string(),
  resultByName: z.string(),
  resultAt: isoTime.nullable(),
  ratingDetail: consultationRatingSchema.nullable(),
  visit: consultationVisitSchema,
  members: z.array(consultationMemberSchema),
  exams: z.array(consultationExamSchema),
  cases: z.array(consultationCaseSchema),
  resultAttachments: z.array(consultationFileSchema),
  links: z.array(consultationLinkSchema),
  /** where it started from (/consultations/add?examId&reportId) */
  originExamId: z.string().nullable(),
  originReportId: z.string().nullable(),
  /** the fee, where it costs something (null: free) */
  fee: consultationFeeSchema.nullable(),
  /** what the caller may do now (consultation-rules.ts allowedOps): the screens show exactly these */
  can: z.array(z.enum(CONSULTATION_OPS)),
  /** the caller's sides: requester (source), expert or joiner (a member), target (the target's staff) */
  roles: z.array(z.enum(['requester', 'expert', 'joiner', 'target'])),
});
export type ConsultationDetail = z.infer<typeof consultationDetailSchema>;

/* ---------- requests ---------- */

export const consultationFieldsSchema = z
  .object({
    title: text(128).min(1),
    patient: consultationPatientSchema,
    /** the start time (spec 000 §5: required) */
    scheduledAt: z.iso.datetime({ offset: true }),
    reason: limited.min(1),
    note: limited.default(''),
    clinicImpression: text(2000).default(''),
  })
  .strict();

export const createConsultationSchema = consultationFieldsSchema
  .extend({
    sourceBucketId: id,
    targetBucketId: id,
    /** /consultations/add?examId&reportId: the exam is bound at once */
    examId: id.optional(),
    reportId: id.optional(),
    experts: z.array(id).max(CONSULTATION_MAX.experts).default([]),
  })
  .strict();
export type CreateConsultation = z.input<typeof createConsultationSchema>;

/** PUT consultations/{id}: the requester's fields at the version read (stale: 409 Conflict). */
export const updateConsultationSchema = z
  .object({
    // no defaults: a field not sent keeps its value
    title: text(128).min(1).optional(),
    patient: consultationPatientSchema.optional(),
    scheduledAt: z.iso.datetime({ offset: true }).optional(),
    reason: limited.min(1).optional(),
    note: limited.optional(),
    clinicImpression: text(2000).optional(),
    version: z.number().int().min(0),
  })
  .strict();
export type UpdateConsultation = z.input<typeof updateConsultationSchema>;

/** POST consultations/{id}/status: the target accepts (scheduled, optionally moving the time) or closes it (completed). */
export const consultationStatusChangeSchema = z
  .object({
    status: z.union([z.literal(CONSULTATION_STATUS_VALUES.scheduled), z.literal(CONSULTATION_STATUS_VALUES.completed)]),
    scheduledAt: z.iso.datetime({ offset: true }).optional(),
    version: z.number().int().min(0),
  })
  .strict();
export const cancelConsultationSchema = z.object({ reason: limited.min(1), version: z.number().int().min(0) }).strict();

export const consultationSuggestionSchema = z
  .object({
    suggestion: text(CONSULTATION_TEXT_MAX),
    treatmentPlan: text(CONSULTATION_TEXT_MAX).default(''),
    version: z.number().int().min(0),
  })
  .strict();
/** PUT consultations/{id}/results: the result (spec 000 §5: not empty). */
export const consultationResultSchema = z
  .object({ result: text(CONSULTATION_TEXT_MAX).min(1), version: z.number().int().min(0) })
  .strict();
/** POST consultations/{id}/rating: once, unchangeable (RatingAlreadySubmitted). */
export const consultationRateSchema = z
  .object({ score: z.number().int().min(1).max(CONSULTATION_RATING_MAX), comment: limited.default('') })
  .strict();

export const consultationVisitUpdateSchema = consultationVisitSchema;
export const consultationExamsAddSchema = z
  .object({ examIds: z.array(id).min(1).max(CONSULTATION_MAX.exams) })
  .strict();
export const consultationCaseInputSchema = z
  .object({ name: text(128).min(1), type: z.enum(CONSULTATION_CASE_TYPES), note: limited.default('') })
  .strict();
export const consultationMembersSetSchema = z
  .object({
    experts: z.array(id).max(CONSULTATION_MAX.experts),
    joiners: z.array(id).max(CONSULTATION_MAX.joiners).default([]),
    version: z.number().int().min(0),
  })
  .strict();
export const consultationLinkAddSchema = z.object({ linkedId: id }).strict();

/**
 * POST consultations/{id}/attachments/upsert: a file of a case (caseId) or of the result (no caseId),
 * uploaded through the upload policy of kind 'consultations' (policies.ts). First with the policy's key
 * (status processing), again once the PUT finished (completed; the server checks the stored size).
 */
export const consultationAttachmentUpsertSchema = z
  .object({
    caseId: id.optional(),
    key: z.string().min(1).max(512),
    fileName: text(255).min(1),
    size: z.number().int().min(1),
    fileType: z.string().max(128),
    uploadStatus: z.enum(CONSULTATION_UPLOAD_STATUSES),
  })
  .strict();
export const consultationAttachmentDeleteParams = z.object({ id, fileId: id });

/* ---------- lists ---------- */

export const consultationFiltersSchema = z
  .object({
    status: z.object({ equal: consultationStatusSchema }).optional(),
    /** patient name, title or reason contains */
    keyword: text(64).optional(),
    sourceBucketId: id.optional(),
    targetBucketId: id.optional(),
    /** scheduled time range (inclusive days, China time) */
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    /** /consultations/my: the ones the caller created or takes part in */
    mine: z.boolean().optional(),
  })
  .strict();
export type ConsultationFilters = z.input<typeof consultationFiltersSchema>;

/** POST consultations/query (the poll sends {limit 5, skip 0, filter {status {equal 0}}}); defaults skip 0, limit 10. */
export const consultationQuerySchema = z
  .object({
    skip: z.number().int().min(0).max(1_000_000).default(0),
    limit: z.number().int().min(1).max(100).default(10),
    filter: consultationFiltersSchema.default({}),
  })
  .strict();
export type ConsultationQuery = z.input<typeof consultationQuerySchema>;
export const consultationQueryAnswerSchema = z.object({ data: z.array(consultationListItemSchema) });
export const consultationCountSchema = z.object({ count: z.number().int() });

/** POST consultations/query-page: page size 20 (spec 000 §9). */
export const consultationPageQuerySchema = z
  .object({
    skip: z.number().int().min(0).max(1_000_000).default(0),
    limit: z.number().int().min(1).max(100).default(CONSULTATION_PAGE_SIZE),
    filter: consultationFiltersSchema.default({}),
  })
  .strict();
export const consultationPageSchema = z.object({ data: z.array(consultationListItemSchema), count: z.number().int() });
export type ConsultationPage = z.infer<typeof consultationPageSchema>;

/** GET consultations/past?consultationId: finished consultations of the group that may be linked as history. */
export const consultationPastQuerySchema = z
  .object({
    consultationId: id,
    keyword: text(64).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  })
  .strict();
export const consultationPastSchema = z.object({ data: z.array(consultationListItemSchema) });

/** GET consultations/{id}/related/{linkId}: the linked consultation read through the link. */
export const consultationRelatedParams = z.object({ id, linkId: id });

export const consultationTraceSchema = z.object({
  id: z.string(),
  action: z.string(),
  accountName: z.string(),
  at: isoTime,
  detail: z.record(z.string(), z.unknown()),
});
export const consultationTracesSchema = z.object({ data: z.array(consultationTraceSchema) });

/** GET consultations/buckets: where the caller may request (sources) and whom it may ask (targets). */
export const consultationBucketsSchema = z.object({
  sources: z.array(z.object({ bucketId: z.string(), name: z.string(), groupId: z.string() })),
  targets: z.array(
    z.object({
      bucketId: z.string(),
      name: z.string(),
      groupId: z.string(),
      isDefault: z.boolean(),
      experts: z.array(z.object({ accountId: z.string(), name: z.string() })),
      /** what a consultation there costs (its consultation product), null: free */
      price: z.object({ productName: z.string(), priceFen: fenSchema, currency: currencySchema }).nullable(),
    }),
  ),
});
export type ConsultationBuckets = z.infer<typeof consultationBucketsSchema>;

export const consultationExportSchema = z
  .object({ filter: consultationFiltersSchema.default({}), language: z.enum(LANGUAGES).default('chs') })
  .strict();
export const consultationPrintQuerySchema = z.object({ language: z.enum(LANGUAGES).default('chs') }).strict();

/* ---------- group settings: consultation targets and rating config ---------- */

export const consultationTargetsSchema = z.object({
  data: z.array(z.object({ bucketId: z.string(), name: z.string(), groupId: z.string(), isDefault: z.boolean() })),
});
export const addConsultationTargetSchema = z.object({ bucketId: id }).strict();

export const ratingConfigSchema = z
  .object({
    /** the label of each star 1..5 in the group's words ('' = the default label) */
    labels: z.array(text(32)).length(CONSULTATION_RATING_MAX),
    /** a comment is required at or below this score (0: never) */
    commentRequiredAtOrBelow: z.number().int().min(0).max(CONSULTATION_RATING_MAX),
    version: z.number().int().min(0),
  })
  .strict();
export type RatingConfig = z.infer<typeof ratingConfigSchema>;

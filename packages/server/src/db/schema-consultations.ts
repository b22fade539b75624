import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { exams } from './schema-archive.js';
import { buckets, groups } from './schema-tenancy.js';

/*
 * ---------- consultations (issue 25; spec 000 §3 "Consultation", §4, §5) ----------
 * A source (requesting) organization asks experts of a target organization; the target is one of
 * its group's consultation targets. Status: 0 pending, 1 scheduled, 2 completed, 3 canceled
 * (contracts consultation-rules.ts).
 */

export const consultations = pgTable(
  'consultations',
  {
    id: text('id').primaryKey(),
    /** the requesting organization's group (lists and history are per group) */
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    sourceBucketId: text('source_bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    targetBucketId: text('target_bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    status: integer('status').notNull().default(0),
    scheduledAt: ts('scheduled_at').notNull(),
    reason: text('reason').notNull().default(''),
    note: text('note').notNull().default(''),
    clinicImpression: text('clinic_impression').notNull().default(''),
    cancelReason: text('cancel_reason').notNull().default(''),
    patientName: text('patient_name').notNull(),
    patientAge: text('patient_age').notNull().default(''),
    patientGender: text('patient_gender').notNull().default(''),
    patientTel: text('patient_tel').notNull().default(''),
    patientEmail: text('patient_email').notNull().default(''),
    contactHospital: text('contact_hospital').notNull().default(''),
    /** the linked visit record: hospital, time, department, reason */
    visitHospital: text('visit_hospital').notNull().default(''),
    visitTime: ts('visit_time'),
    visitDepartment: text('visit_department').notNull().default(''),
    visitReason: text('visit_reason').notNull().default(''),
    suggestion: text('suggestion').notNull().default(''),
    treatmentPlan: text('treatment_plan').notNull().default(''),
    result: text('result').notNull().default(''),
    resultBy: text('result_by').references(() => accounts.id, { onDelete: 'set null' }),
    resultAt: ts('result_at'),
    /** the requester's rating: once, unchangeable */
    ratingScore: integer('rating_score'),
    ratingComment: text('rating_comment').notNull().default(''),
    ratedBy: text('rated_by').references(() => accounts.id, { onDelete: 'set null' }),
    ratedAt: ts('rated_at'),
    /** spec 001 §9 payment codes where paid through billing; null: free */
    paymentStatus: integer('payment_status'),
    /** where it started: /consultations/add?examId&reportId */
    originExamId: text('origin_exam_id'),
    originReportId: text('origin_report_id'),
    creatorId: text('creator_id').references(() => accounts.id, { onDelete: 'set null' }),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('consultations_source_created_idx').on(t.sourceBucketId, t.created),
    index('consultations_target_created_idx').on(t.targetBucketId, t.created),
    index('consultations_group_status_idx').on(t.groupId, t.status),
  ],
);
export type ConsultationRow = typeof consultations.$inferSelect;

/** Experts and joiners (accounts of the target organization). */
export const consultationMembers = pgTable(
  'consultation_members',
  {
    consultationId: text('consultation_id')
      .notNull()
      .references(() => consultations.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 'expert' | 'joiner' */
    role: text('role').notNull(),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.consultationId, t.accountId] }),
    index('consultation_members_account_idx').on(t.accountId),
  ],
);

/**
 * A bound exam (the source's) and, while the consultation is open, the copy the target organization
 * reads (shared_exam_id; null once unshared at its close).
 */
export const consultationExams = pgTable(
  'consultation_exams',
  {
    consultationId: text('consultation_id')
      .notNull()
      .references(() => consultations.id, { onDelete: 'cascade' }),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    sharedExamId: text('shared_exam_id'),
    name: text('name').notNull().default(''),
    modality: text('modality').notNull().default(''),
    bodyPart: text('body_part').notNull().default(''),
    studyDate: text('study_date'),
    boundBy: text('bound_by').references(() => accounts.id, { onDelete: 'set null' }),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.consultationId, t.examId] }),
    index('consultation_exams_exam_idx').on(t.examId),
    // The copies shared now (open consultations): who may see them is asked on every study list call.
    index('consultation_exams_shared_idx')
      .on(t.sharedExamId)
      .where(sql`${t.sharedExamId} is not null`),
  ],
);

/** A case document: name, type, note; its files are consultation_files with its case_id. */
export const consultationCases = pgTable(
  'consultation_cases',
  {
    id: text('id').primaryKey(),
    consultationId: text('consultation_id')
      .notNull()
      .references(() => consultations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    note: text('note').notNull().default(''),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [index('consultation_cases_consultation_idx').on(t.consultationId)],
);

/** A file of a case document (case_id) or a result attachment (case_id null), in the blob store under `key`. */
export const consultationFiles = pgTable(
  'consultation_files',
  {
    id: text('id').primaryKey(),
    consultationId: text('consultation_id')
      .notNull()
      .references(() => consultations.id, { onDelete: 'cascade' }),
    caseId: text('case_id').references(() => consultationCases.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    fileType: text('file_type').notNull(),
    /** 'processing' | 'completed' */
    uploadStatus: text('upload_status').notNull().default('processing'),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [
    index('consultation_files_consultation_idx').on(t.consultationId),
    uniqueIndex('consultation_files_key_idx').on(t.key),
  ],
);

/** A linked history consultation (only a completed one may be linked). */
export const consultationLinks = pgTable(
  'consultation_links',
  {
    id: text('id').primaryKey(),
    consultationId: text('consultation_id')
      .notNull()
      .references(() => consultations.id, { onDelete: 'cascade' }),
    linkedId: text('linked_id')
      .notNull()
      .references(() => consultations.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('consultation_links_pair_idx').on(t.consultationId, t.linkedId)],
);

/** Every step with who and when (the traces call, and the log of spec 000 §3). */
export const consultationTraces = pgTable(
  'consultation_traces',
  {
    id: text('id').primaryKey(),
    consultationId: text('consultation_id')
      .notNull()
      .references(() => consultations.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    accountId: text('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    detail: jsonb('detail')
      .notNull()
      .default(sql`'{}'::jsonb`),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('consultation_traces_consultation_idx').on(t.consultationId, t.at)],
);

/** A group's consultation targets (spec 001 §7 groups' consultation-targets); the default is the group setting defaultConsultationBucketId. */
export const groupConsultationBuckets = pgTable(
  'group_consultation_buckets',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.bucketId] })],
);

/** A group's rating config (spec 001 §7 groups' rating-config), saved at the version read. */
export const groupRatingConfigs = pgTable('group_rating_configs', {
  groupId: text('group_id')
    .primaryKey()
    .references(() => groups.id, { onDelete: 'cascade' }),
  config: jsonb('config').notNull(),
  version: integer('version').notNull().default(1),
  updated: ts('updated').notNull().defaultNow(),
});

import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.js';
import { accounts } from './schema-accounts.js';
import { buckets } from './schema-tenancy.js';

/* ---------- imaging archive: patients, exams (studies), series, instances (modalities: schema-registry.ts) ---------- */

export const patients = pgTable(
  'patients',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    /** PatientID as sent; a study without one gets a key of its own */
    patientKey: text('patient_key').notNull(),
    patientId: text('patient_id').notNull(),
    name: text('name').notNull(),
    sex: text('sex').notNull(),
    birthDate: text('birth_date').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('patients_bucket_key_idx').on(t.bucketId, t.patientKey)],
);

export const exams = pgTable(
  'exams',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    /** StudyInstanceUID */
    storeUid: text('store_uid').notNull(),
    patientKeyId: text('patient_key_id')
      .notNull()
      .references(() => patients.id),
    patientName: text('patient_name').notNull(),
    /**
     * Lower-case pinyin initials of the name's Chinese characters (王^小东 → "wxd") for the list's
     * name search; written by the ingest, null until the start-up backfill reaches older rows.
     */
    patientNamePinyin: text('patient_name_pinyin'),
    patientId: text('patient_id').notNull(),
    patientGender: text('patient_gender').notNull(),
    patientDob: text('patient_dob').notNull(),
    accessionNumber: text('accession_number').notNull(),
    studyDate: text('study_date').notNull(),
    studyTime: text('study_time').notNull(),
    studyDesc: text('study_desc').notNull(),
    studyId: text('study_id').notNull(),
    /** distinct modalities of the study's series, backslash-separated as in ModalitiesInStudy */
    modality: text('modality').notNull(),
    bodyPart: text('body_part').notNull(),
    institution: text('institution').notNull(),
    referringPhysician: text('referring_physician').notNull(),
    specificCharacterSet: text('specific_character_set').notNull(),
    hasImage: boolean('has_image').notNull().default(false),
    seriesCount: integer('series_count').notNull().default(0),
    instanceCount: integer('instance_count').notNull().default(0),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    /** how the first instance arrived: web, token, dimse, stow */
    source: text('source').notNull(),
    /**
     * Upload status (spec 000 §4): 'processing' while an upload session (wizard or link) is still
     * sending it, 'completed' once the session closes or POST exams/{id}/uploaded says so; DICOM
     * and STOW arrivals are complete as they come.
     */
    uploadStatus: text('upload_status').notNull().default('completed'),
    /** films printed (spec 000 §3 studyPrinted; POST exams/modify-print-status) */
    studyPrinted: boolean('study_printed').notNull().default(false),
    /* Registration fields of spec 000 §3, edited with POST exams/{id} (empty until someone fills them). */
    /** patient source: I inpatient, O outpatient, E emergency, P physical exam, NO night clinic ('' unknown) */
    patientSource: text('patient_source').notNull().default(''),
    inpatientId: text('inpatient_id').notNull().default(''),
    outpatientId: text('outpatient_id').notNull().default(''),
    bedNum: text('bed_num').notNull().default(''),
    physicalExamId: text('physical_exam_id').notNull().default(''),
    patientPhone: text('patient_phone').notNull().default(''),
    applyDept: text('apply_dept').notNull().default(''),
    orderPlacer: text('order_placer').notNull().default(''),
    clinicImpression: text('clinic_impression').notNull().default(''),
    scanTech: text('scan_tech').notNull().default(''),
    physician: text('physician').notNull().default(''),
    bodyPartCount: integer('body_part_count'),
    weight: real('weight'),
    height: real('height'),
    urgentFlag: boolean('urgent_flag').notNull().default(false),
    teleMedFlag: boolean('tele_med_flag').notNull().default(false),
    /** confidential: private fields stay masked for callers without view_privacy, even with the group privacy off */
    isPrivacy: boolean('is_privacy').notNull().default(false),
    /** the exam has a critical value not yet handled (set and cleared by the report-safety module) */
    criticalFlag: boolean('critical_flag').notNull().default(false),
    /** report status of spec 000 §4 ('none' until a report exists) */
    reportStatus: text('report_status').notNull().default('none'),
    /** per-exam values of the organization's extension configs */
    extensions: jsonb('extensions').$type<Record<string, string | number>>().notNull().default({}),
    assigneeId: text('assignee_id').references(() => accounts.id, { onDelete: 'set null' }),
    assignedAt: ts('assigned_at'),
    /** AI task status: '' none, queued, sent, done, failed */
    aiStatus: text('ai_status').notNull().default(''),
    aiResult: jsonb('ai_result').$type<Record<string, unknown>>(),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
    deletedTime: ts('deleted_time'),
  },
  (t) => [
    uniqueIndex('exams_bucket_store_uid_idx').on(t.bucketId, t.storeUid),
    index('exams_bucket_created_idx').on(t.bucketId, t.created),
    index('exams_patient_id_idx').on(t.patientId),
    index('exams_study_date_idx').on(t.studyDate),
    index('exams_accession_idx').on(t.accessionNumber),
    // The study list (exams.list.store.ts): live exams newest first, across or within buckets
    // (NULLS FIRST is what ORDER BY … DESC means, so the index serves the sort).
    // The organization and the name's searched columns ride along (after the unique id they never
    // change the order), so a deep page skips rows, and a name search finds its page, in the index
    // alone, without reading the exams.
    index('exams_live_created_idx')
      .on(t.created.desc().nullsFirst(), t.id.desc().nullsFirst(), t.bucketId, t.patientNamePinyin, t.patientName)
      .where(sql`${t.deletedTime} is null`),
    // The report source's remote copies (spec 000 §6, issue 24: an expert read's copy of an exam in
    // the expert organization): the list filtered to them, newest first, and their count, read
    // from these few entries alone; an own-reports list is counted as all less these
    // (exams.list.filters.store.ts, reportSourceSql).
    index('exams_live_remote_created_idx')
      .on(t.created.desc().nullsFirst(), t.id.desc().nullsFirst(), t.bucketId)
      .where(sql`${t.deletedTime} is null and ${t.source} = 'remote'`),
    index('exams_live_bucket_created_idx')
      .on(t.bucketId, t.created.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.deletedTime} is null`),
    // Prefix searches (lower(x) like 'abc%'); contains searches scan, as PGlite has no pg_trgm.
    // The live list's name and pinyin searches are counted from these indexes alone (index-only
    // scans): the columns after the searched one are carried, not searched.
    // They lead with the organization: the scope (any of the caller's organizations) bounds the
    // index scan instead of being tested on each entry.
    index('exams_live_name_key_idx')
      .on(
        t.bucketId,
        sql`lower(replace(replace(${t.patientName}, '^', ''), ' ', '')) text_pattern_ops`,
        t.patientNamePinyin,
      )
      .where(sql`${t.deletedTime} is null`),
    index('exams_live_name_pinyin_idx')
      .on(t.bucketId, sql`${t.patientNamePinyin} text_pattern_ops`)
      .where(sql`${t.deletedTime} is null`),
    // A search of a name's first two characters (a doctor typing two letters) in the list's
    // order: the exams whose name key, or whose pinyin initials, begin with them, newest first,
    // each read as one range (exams.list.store.ts, headPageIdsQuery); the organization is carried.
    index('exams_live_name_head_idx')
      .on(
        sql`left(lower(replace(replace(${t.patientName}, '^', ''), ' ', '')), 2)`,
        t.created.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.bucketId,
      )
      .where(sql`${t.deletedTime} is null`),
    index('exams_live_pinyin_head_idx')
      .on(sql`left(${t.patientNamePinyin}, 2)`, t.created.desc().nullsFirst(), t.id.desc().nullsFirst(), t.bucketId)
      .where(sql`${t.deletedTime} is null`),
    // The start-up backfill of the pinyin initials (empty once done).
    index('exams_name_pinyin_missing_idx')
      .on(t.id)
      .where(sql`${t.patientNamePinyin} is null`),
    // The live list's study-date ranges, with what their other filters, the scope and the page's
    // order read, so that a range is counted and paged from the index alone.
    index('exams_live_study_date_idx')
      .on(t.studyDate, t.bucketId, t.modality, t.created, t.id)
      .where(sql`${t.deletedTime} is null`),
    // The live list's modality filters: the exact values that hold the modality (read from
    // exam_modality_values) are bounds of this index, and a study-date range within each, so
    // that a modality and a range read only their matches (exams.list.filters.store.ts).
    index('exams_live_modality_date_idx')
      .on(t.modality, t.studyDate, t.bucketId, t.created, t.id)
      .where(sql`${t.deletedTime} is null`),
    index('exams_patient_id_lower_idx').on(sql`lower(${t.patientId}) text_pattern_ops`),
    index('exams_accession_lower_idx').on(sql`lower(${t.accessionNumber}) text_pattern_ops`),
    index('exams_assignee_idx')
      .on(t.assigneeId)
      .where(sql`${t.assigneeId} is not null`),
    // The deleted-exams view and the purge.
    index('exams_deleted_time_idx')
      .on(t.deletedTime)
      .where(sql`${t.deletedTime} is not null`),
  ],
);

export const series = pgTable(
  'series',
  {
    id: text('id').primaryKey(),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id').notNull(),
    seriesUid: text('series_uid').notNull(),
    modality: text('modality').notNull(),
    seriesNumber: integer('series_number'),
    description: text('description').notNull(),
    bodyPart: text('body_part').notNull(),
    seriesDate: text('series_date').notNull(),
    seriesTime: text('series_time').notNull(),
    instanceCount: integer('instance_count').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('series_exam_uid_idx').on(t.examId, t.seriesUid), index('series_uid_idx').on(t.seriesUid)],
);

export const instances = pgTable(
  'instances',
  {
    id: text('id').primaryKey(),
    seriesId: text('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    examId: text('exam_id').notNull(),
    bucketId: text('bucket_id').notNull(),
    sopInstanceUid: text('sop_instance_uid').notNull(),
    sopClassUid: text('sop_class_uid').notNull(),
    transferSyntaxUid: text('transfer_syntax_uid').notNull(),
    instanceNumber: integer('instance_number'),
    rows: integer('rows'),
    columns: integer('columns'),
    frames: integer('frames').notNull().default(1),
    blobKey: text('blob_key').notNull(),
    size: integer('size').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('instances_bucket_sop_idx').on(t.bucketId, t.sopInstanceUid),
    index('instances_series_idx').on(t.seriesId, t.instanceNumber),
  ],
);

export type ExamRow = typeof exams.$inferSelect;
export type InstanceRow = typeof instances.$inferSelect;

/** A built study package (zip) kept in the blob store; rebuilt when the exam changed, or on request at most hourly. */
export const examPackages = pgTable('exam_packages', {
  examId: text('exam_id')
    .primaryKey()
    .references(() => exams.id, { onDelete: 'cascade' }),
  blobKey: text('blob_key').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  builtAt: ts('built_at').notNull(),
});

/** An upload (wizard or public link): its files arrive by tus and each is ingested on arrival. */
export const uploadSessions = pgTable(
  'upload_sessions',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    /** null for uploads through a public link */
    accountId: text('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    source: text('source').notNull(),
    status: text('status').notNull().default('open'),
    stored: integer('stored').notNull().default(0),
    duplicates: integer('duplicates').notNull().default(0),
    /** files that were not DICOM or failed validation: [{ name, reason }] */
    skipped: jsonb('skipped').$type<{ name: string; reason: string }[]>().notNull().default([]),
    examIds: jsonb('exam_ids').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
  },
  (t) => [index('upload_sessions_bucket_idx').on(t.bucketId, t.createdAt)],
);

/** Tags of an exam (spec 000 §3 reportTags): items of its organization's tags dictionary. */
export const examTags = pgTable(
  'exam_tags',
  {
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    tagId: text('tag_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('exam_tags_pk').on(t.examId, t.tagId), index('exam_tags_tag_idx').on(t.tagId)],
);

/**
 * Co-written exams (spec 000 §4 "adding a co-written exam cannot be undone"): exams reported
 * together with a primary exam. An exam belongs to at most one primary.
 */
export const coExams = pgTable(
  'co_exams',
  {
    primaryExamId: text('primary_exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    examId: text('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('co_exams_exam_idx').on(t.examId), index('co_exams_primary_idx').on(t.primaryExamId)],
);

/**
 * Live (not deleted) exams per organization, kept by a trigger on exams (migration 0012) whatever
 * writes them: the study list's unfiltered count reads these few rows instead of counting exams.
 */
export const bucketExamCounts = pgTable('bucket_exam_counts', {
  bucketId: text('bucket_id')
    .primaryKey()
    .references(() => buckets.id, { onDelete: 'cascade' }),
  live: bigint('live', { mode: 'number' }).notNull().default(0),
});

/**
 * Every ModalitiesInStudy value an exam has held ("CT", "CT\SR", …), kept by triggers on exams
 * (migration 0021) whatever writes them, never removed (a value no exam holds any more matches
 * nothing). The study list's modality filter turns into the values that hold the modality, an
 * equality the modality index reads directly, rather than a pattern tried on every exam.
 */
export const examModalityValues = pgTable('exam_modality_values', {
  value: text('value').primaryKey(),
});

/**
 * Live exams per organization by the first one and first two characters of the patient name as
 * searched (its name key: lower case, without ^ and spaces) and of its pinyin initials, each exam
 * counted once per distinct prefix; kept by triggers on exams (migration 0020) whatever writes
 * them. The study list counts a one- or two-character name search (what is typed most, and what
 * matches most exams) from these rows instead of reading every match.
 */
export const examNamePrefixCounts = pgTable(
  'exam_name_prefix_counts',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    prefix: text('prefix').notNull(),
    live: bigint('live', { mode: 'number' }).notNull().default(0),
  },
  // Prefix first: the list's count of a short name search, one prefix across the caller's
  // organizations, is one range of the key (organization first, it took a descent per organization).
  (t) => [primaryKey({ columns: [t.prefix, t.bucketId] })],
);

/**
 * Key images of a report (spec 000 §3 "Report images": id, url, desc, index, isPrinted, point),
 * captured in the viewer. A report's id is its primary exam's id. At most MAX_REPORT_IMAGES per report, each at most MAX_REPORT_IMAGE_BYTES.
 */
export const reportImages = pgTable(
  'report_images',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id').notNull(),
    blobKey: text('blob_key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    desc: text('desc').notNull().default(''),
    /** 0-based order in the report */
    position: integer('position').notNull(),
    isPrinted: boolean('is_printed').notNull().default(true),
    /** marking point of the sample graph, when one is set */
    point: text('point'),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdTime: ts('created_time').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('report_images_position_idx').on(t.reportId, t.position)],
);
export type ReportImageRow = typeof reportImages.$inferSelect;

import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { DomainConfig, Preferences } from '@yyp/contracts';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One row per domain; the config is stored whole and merged over the defaults when read. */
export const domains = pgTable('domains', {
  id: text('id').primaryKey(),
  config: jsonb('config').$type<Partial<DomainConfig>>().notNull().default({}),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    passwordChangedAt: ts('password_changed_at'),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Bumped on password change and on disable: tokens carry it and stop working when it moves. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** Spec 000 §4: 0 normal, 1 disabled. */
    disabled: smallint('disabled').notNull().default(0),
    /** How the account signs in: password or wechat (WeChat users cannot change a password). */
    source: text('source').notNull().default('password'),
    avatar: text('avatar'),
    signature: text('signature'),
    mobile: text('mobile'),
    licenseIssuer: text('license_issuer'),
    professionalTitle: text('professional_title'),
    canCreateGroup: boolean('can_create_group').notNull().default(false),
    registry: boolean('registry').notNull().default(false),
    domainName: jsonb('domain_name').$type<Record<string, string>>().notNull().default({}),
    isPlatformAdmin: boolean('is_platform_admin').notNull().default(false),
    preferences: jsonb('preferences').$type<Preferences>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_username_lower_idx').on(sql`lower(${t.username})`),
    index('accounts_name_idx').on(t.name),
  ],
);

/**
 * Consecutive failed logins per (lower-cased) username, whether or not the account exists,
 * so a lockout holds across restarts and instances and reveals nothing about existence.
 */
export const loginThrottle = pgTable('login_throttle', {
  username: text('username').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lockedUntil: ts('locked_until'),
  lastFailureAt: ts('last_failure_at').notNull(),
});

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    actorId: text('actor_id'),
    actorUsername: text('actor_username'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    bucketId: text('bucket_id'),
    patientId: text('patient_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    outcome: text('outcome').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [index('audit_logs_at_idx').on(t.at), index('audit_logs_actor_idx').on(t.actorId, t.at)],
);

export type AccountRow = typeof accounts.$inferSelect;
export type NewAccountRow = typeof accounts.$inferInsert;

/* ---------- tenancy: groups, organizations (buckets), roles ---------- */

export const groups = pgTable(
  'groups',
  {
    id: text('id').primaryKey(),
    displayName: text('display_name').notNull(),
    /** Feature flags and settings of spec 000 §3 (enableRegistry, enableStat, …, dobMatchMode, …). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    /** urgentNotes, enReportFlag, enReportNotes, hqReportWithImage, hqAIReport: { enabled, label }. */
    attributes: jsonb('attributes').$type<Record<string, { enabled: boolean; label: string }>>().notNull().default({}),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('groups_display_name_lower_idx').on(sql`lower(${t.displayName})`)],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** 0 member, 1 admin, 9 auditor, 10 security admin (spec 000 §6). */
    accessLevel: smallint('access_level').notNull().default(0),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('group_members_pk').on(t.groupId, t.accountId),
    index('group_members_account_idx').on(t.accountId),
  ],
);

export const buckets = pgTable(
  'buckets',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** 4–35 characters, letters/digits/dash/underscore, unique, fixed once set. */
    code: text('code'),
    logo: text('logo'),
    isPrivate: boolean('is_private').notNull().default(false),
    focused: boolean('focused').notNull().default(false),
    freeEfilm: boolean('free_efilm').notNull().default(false),
    /** Public upload token (spec 000 §2 /upload?token=): uploads into this organization only. */
    uploadToken: text('upload_token'),
    /** Notification settings, print templates and other per-organization settings. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('buckets_group_idx').on(t.groupId), uniqueIndex('buckets_code_lower_idx').on(sql`lower(${t.code})`)],
);

export const bucketMembers = pgTable(
  'bucket_members',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** member, admin, collaborator, contentManager */
    accessLevel: text('access_level').notNull().default('member'),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bucket_members_pk').on(t.bucketId, t.accountId),
    index('bucket_members_account_idx').on(t.accountId),
  ],
);

export const roles = pgTable(
  'roles',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    actions: jsonb('actions').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_bucket_name_idx').on(t.bucketId, sql`lower(${t.name})`)],
);

export const roleMappings = pgTable(
  'role_mappings',
  {
    roleId: text('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('role_mappings_pk').on(t.roleId, t.accountId),
    index('role_mappings_account_idx').on(t.accountId),
  ],
);

/**
 * Per-organization dictionaries (departments, doctors, body parts, tags, critical values,
 * extension configs): one table, a kind column, the fields in data.
 */
export const bucketDictionary = pgTable(
  'bucket_dictionary',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    sort: integer('sort').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('bucket_dictionary_bucket_kind_idx').on(t.bucketId, t.kind, t.sort),
    uniqueIndex('bucket_dictionary_name_idx').on(t.bucketId, t.kind, sql`lower(${t.name})`),
  ],
);

export const assignRules = pgTable(
  'assign_rules',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    bucketIds: jsonb('bucket_ids').$type<string[]>().notNull().default([]),
    doctorId: text('doctor_id').references(() => accounts.id, { onDelete: 'set null' }),
    modality: text('modality'),
    memberIds: jsonb('member_ids').$type<string[]>().notNull().default([]),
    priority: integer('priority').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('assign_rules_group_idx').on(t.groupId, t.priority)],
);

export const colorRules = pgTable(
  'color_rules',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** A lower number means higher priority. */
    priority: integer('priority').notNull().default(0),
    foreColor: text('fore_color').notNull(),
    backgroundColor: text('background_color').notNull(),
    matchField: text('match_field').notNull(),
    value: text('value').notNull(),
    index: integer('index').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('color_rules_group_idx').on(t.groupId, t.priority)],
);

export type GroupRow = typeof groups.$inferSelect;
export type BucketRow = typeof buckets.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;

/* ---------- imaging archive: patients, exams (studies), series, instances, modalities ---------- */

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

/** Modalities an organization registered: a C-STORE from this calling AE title lands in it. */
export const modalities = pgTable(
  'modalities',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    aeTitle: text('ae_title').notNull(),
    /** optional: only accept this AE from this host */
    host: text('host'),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('modalities_ae_title_idx').on(t.aeTitle)],
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

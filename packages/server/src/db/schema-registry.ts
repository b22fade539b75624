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
import { exams } from './schema-archive.js';
import { buckets, groups } from './schema-tenancy.js';

/* ---------- the front desk (issue 22): patients, registrations, scheduled exams, procedures ---------- */

/** The group's patient index: one record per patient per organization group (spec 000 §3, issue 22). */
export const registryPatients = pgTable(
  'registry_patients',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    /** the hospital's patient ID, unique in the group */
    patientId: text('patient_id').notNull(),
    name: text('name').notNull(),
    /** lower-case pinyin initials of the name's Chinese characters, for the search */
    namePinyin: text('name_pinyin').notNull().default(''),
    gender: text('gender').notNull(),
    /** YYYYMMDD or '' */
    birthDate: text('birth_date').notNull().default(''),
    phone: text('phone').notNull().default(''),
    idCard: text('id_card').notNull().default(''),
    address: text('address').notNull().default(''),
    /** pet domains: species, breed, owner, disease history */
    animal: jsonb('animal').$type<{ species: string; breed: string; owner: string; diseaseHistory: string }>(),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
    /**
     * The search box's keys, kept by PostgreSQL (migration 0031 `registry_search_keys`): every
     * character and every two adjacent characters of the lower-cased name, and `p:` + every prefix of
     * the pinyin initials. A name search asks the GIN index for the keys of what was typed, then
     * rechecks the name, instead of reading every patient of the group.
     */
    searchKeys: text('search_keys')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`registry_search_keys(name, name_pinyin)`),
  },
  (t) => [
    uniqueIndex('registry_patients_group_pid_idx').on(t.groupId, t.patientId),
    index('registry_patients_search_keys_idx').using('gin', t.searchKeys),
    index('registry_patients_group_name_idx').on(t.groupId, t.name, t.birthDate),
    // The search box's phone numbers (registry-query.store.ts searchIds).
    index('registry_patients_group_phone_idx').on(t.groupId, t.phone),
  ],
);

/** A registration (order) at the desk: one patient, one to five scheduled exams. */
export const registrations = pgTable(
  'registrations',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    patientRef: text('patient_ref')
      .notNull()
      .references(() => registryPatients.id),
    /** internal (the desk) or external (an order placed from outside) */
    source: text('source').notNull().default('internal'),
    /** the placing system's order id (POST service-order): one registration per order and organization */
    orderId: text('order_id'),
    /** short code on the label and referral form, unique */
    passCode: text('pass_code').notNull(),
    patientSource: text('patient_source').notNull(),
    inpatientId: text('inpatient_id').notNull().default(''),
    bedNum: text('bed_num').notNull().default(''),
    outpatientId: text('outpatient_id').notNull().default(''),
    physicalExamId: text('physical_exam_id').notNull().default(''),
    applyDept: text('apply_dept').notNull().default(''),
    orderPlacer: text('order_placer').notNull().default(''),
    clinicImpression: text('clinic_impression').notNull().default(''),
    urgent: boolean('urgent').notNull().default(false),
    note: text('note').notNull().default(''),
    weight: real('weight'),
    height: real('height'),
    createdBy: text('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(0),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('registrations_pass_code_idx').on(t.passCode),
    uniqueIndex('registrations_order_idx')
      .on(t.bucketId, t.orderId)
      .where(sql`${t.orderId} is not null`),
    index('registrations_patient_idx').on(t.patientRef),
    // statistics/registrar: an organization's registrations of a period (migration 0044).
    index('registrations_bucket_created_idx').on(t.bucketId, t.created),
  ],
);

/** A scheduled exam: one procedure of a registration, with its status (contracts registry-rules). */
export const scheduledExams = pgTable(
  'scheduled_exams',
  {
    id: text('id').primaryKey(),
    registrationId: text('registration_id')
      .notNull()
      .references(() => registrations.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    /** Registered, Scheduled, Arrived, Performed, Cancelled */
    status: text('status').notNull(),
    /** its registration's source (internal, external), copied on insert by a trigger (migration 0029) for the desk's list */
    source: text('source').notNull().default('internal'),
    /**
     * its registration's patient, kept by triggers (migration 0032) so the search box goes from the
     * patients it finds to their exams by one index, without reading their registrations
     */
    patientRef: text('patient_ref'),
    procedureId: text('procedure_id').references(() => procedures.id, { onDelete: 'set null' }),
    /** the procedure's name and code when registered (kept if the procedure changes) */
    procedureName: text('procedure_name').notNull().default(''),
    procedureCode: text('procedure_code').notNull().default(''),
    modality: text('modality').notNull(),
    bodyPart: text('body_part').notNull().default(''),
    studyDesc: text('study_desc').notNull().default(''),
    bodyPartCount: integer('body_part_count'),
    imagingOptional: boolean('imaging_optional').notNull().default(false),
    deviceId: text('device_id'),
    /** the station the worklist hands it to ('' any station of the modality) */
    stationAeTitle: text('station_ae_title').notNull().default(''),
    /** YYYY-MM-DD ('' for a Registered order without an appointment) */
    scheduledDate: text('scheduled_date').notNull().default(''),
    /** HH:mm or '' */
    scheduledTime: text('scheduled_time').notNull().default(''),
    accessionNumber: text('accession_number').notNull(),
    /** given to the modality by the worklist; the study stored with it lands on this exam */
    studyInstanceUid: text('study_instance_uid').notNull(),
    requestedProcedureId: text('requested_procedure_id').notNull(),
    spsId: text('sps_id').notNull(),
    examId: text('exam_id').references(() => exams.id, { onDelete: 'set null' }),
    arrivedAt: ts('arrived_at'),
    arrivedBy: text('arrived_by').references(() => accounts.id, { onDelete: 'set null' }),
    startedAt: ts('started_at'),
    performedAt: ts('performed_at'),
    cancelledAt: ts('cancelled_at'),
    cancelReason: text('cancel_reason').notNull().default(''),
    /** the MPPS instance the modality created for it */
    mppsUid: text('mpps_uid'),
    /** the MPPS instance's last state: '' none, IN PROGRESS, COMPLETED, DISCONTINUED (no N-SET after the last two) */
    mppsStatus: text('mpps_status').notNull().default(''),
    discontinuedReason: text('discontinued_reason').notNull().default(''),
    /** values of the organization's exam extension fields, by config id */
    extensions: jsonb('extensions').$type<Record<string, string | number>>().notNull().default({}),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
  },
  (t) => [
    // Read backwards for the desk's default order (created desc, id desc).
    index('scheduled_exams_bucket_created_idx').on(t.bucketId, t.created, t.id),
    index('scheduled_exams_bucket_source_created_idx').on(t.bucketId, t.source, t.created, t.id),
    index('scheduled_exams_bucket_date_idx').on(t.bucketId, t.scheduledDate, t.status),
    index('scheduled_exams_registration_idx').on(t.registrationId),
    // The search box's count and page read only this index (migration 0034).
    index('scheduled_exams_bucket_patient_idx').on(t.bucketId, t.patientRef, t.source, t.created, t.id),
    // A device's worklist: its own station's exams and those of no station, by date (migration 0034).
    index('scheduled_exams_bucket_station_date_idx').on(t.bucketId, t.stationAeTitle, t.scheduledDate),
    // statistics/arriver: an organization's arrivals of a period (migration 0044).
    index('scheduled_exams_bucket_arrived_idx')
      .on(t.bucketId, t.arrivedAt)
      .where(sql`${t.arrivedAt} is not null`),
    uniqueIndex('scheduled_exams_accession_idx').on(t.bucketId, t.accessionNumber),
    uniqueIndex('scheduled_exams_study_uid_idx').on(t.studyInstanceUid),
    index('scheduled_exams_exam_idx')
      .on(t.examId)
      .where(sql`${t.examId} is not null`),
    uniqueIndex('scheduled_exams_mpps_idx')
      .on(t.mppsUid)
      .where(sql`${t.mppsUid} is not null`),
  ],
);

/**
 * Scheduled exams per organization, source and status, kept by triggers on scheduled_exams
 * (migration 0029): the count of the desk's list when it filters on nothing else.
 */
export const registryCounts = pgTable(
  'registry_counts',
  {
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    status: text('status').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucketId, t.source, t.status] })],
);

/**
 * Modalities an organization registered (the devices of its procedure management): a C-STORE from
 * this calling AE title lands in it, and its worklist C-FIND answers the scheduled exams on it.
 */
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
    /*
     * A modality is also a device of the organization's procedure management (issue 22): the
     * worklist it asks for (C-FIND) is the scheduled exams of its AE title.
     */
    /** the device's own DICOM port (for sending to it; the archive does not need it to receive) */
    port: integer('port'),
    /** the modality code it performs (CT, MR …), '' when not said */
    modality: text('modality').notNull().default(''),
    room: text('room').notNull().default(''),
    deviceGroupId: text('device_group_id'),
    /** the character set its worklist answers are written in (the hospital's: ISO_IR 192 or GB18030) */
    charset: text('charset').notNull().default('ISO_IR 192'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('modalities_ae_title_idx').on(t.aeTitle)],
);

/** Device groups of the organization's procedure management. */
export const deviceGroups = pgTable(
  'device_groups',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_groups_bucket_name_idx').on(t.bucketId, sql`lower(${t.name})`)],
);

/** The organization's procedures (spec 000 §3 Procedure). */
export const procedures = pgTable(
  'procedures',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
    enName: text('en_name').notNull().default(''),
    /** fen */
    price: integer('price').notNull().default(0),
    scanTech: text('scan_tech').notNull().default(''),
    isEnhanced: boolean('is_enhanced').notNull().default(false),
    bodyPartCount: integer('body_part_count').notNull().default(1),
    modality: text('modality').notNull(),
    aeTitle: text('ae_title').notNull().default(''),
    deviceGroupIds: jsonb('device_group_ids').$type<string[]>().notNull().default([]),
    steps: jsonb('steps').$type<string[]>().notNull().default([]),
    reportDuringExam: boolean('report_during_exam').notNull().default(false),
    showLocalVideo: boolean('show_local_video').notNull().default(false),
    imagingOptional: boolean('imaging_optional').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    created: ts('created').notNull().defaultNow(),
    updated: ts('updated').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('procedures_bucket_code_idx').on(t.bucketId, sql`lower(${t.code})`)],
);

/** The organization's modality dictionary (spec 000 §3): code → the name the desk shows. */
export const modalityDictionary = pgTable(
  'modality_dictionary',
  {
    id: text('id').primaryKey(),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
    modalityCode: text('modality_code').notNull(),
    displayName: text('display_name').notNull(),
    created: ts('created').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('modality_dictionary_code_idx').on(t.bucketId, t.modalityCode)],
);

export type RegistryPatientRow = typeof registryPatients.$inferSelect;
export type RegistrationRow = typeof registrations.$inferSelect;
export type ScheduledExamRow = typeof scheduledExams.$inferSelect;
export type ProcedureRow = typeof procedures.$inferSelect;
export type DeviceGroupRow = typeof deviceGroups.$inferSelect;
export type ModalityEntryRow = typeof modalityDictionary.$inferSelect;

import { z } from 'zod';
import {
  MAX_BODYPART_COUNT,
  MAX_CONFIRMATIONS,
  MAX_EXAMS_PER_REGISTRATION,
  MAX_NOTE_LENGTH,
  REGISTRY_PAGE_SIZE,
} from './limits.js';
import { PATIENT_GENDERS, PATIENT_SOURCES } from './exams.js';
import { EXAM_STATUSES } from './registry-rules.js';

/**
 * The front desk (spec 000 §2 /registry, §3 Scheduled exam, Procedure, Device, Patient source,
 * Pet gender and Animal variant, §5 registry rules, §9 registry constants; spec 001 §7 "Registry",
 * "Others" patients; issue 22): registrations with up to five scheduled exams, the group's
 * patient index, and the organization's procedures and devices.
 */

/** Pet gender (spec 000 §3), for domains that register animals (domain isPet). */
export const PET_GENDERS = ['M', 'F', 'MS', 'FS', 'U'] as const;
export type PetGender = (typeof PET_GENDERS)[number];

/** Where registrations come from: the desk itself (default) or orders placed from outside (service-order). */
export const REGISTRY_SOURCES = ['internal', 'external'] as const;
export type RegistrySource = (typeof REGISTRY_SOURCES)[number];

/** Registry quick ranges (spec 000 §9): the next 3, 7 and 30 days. */
export const REGISTRY_QUICK_RANGES = [3, 7, 30] as const;

/**
 * The hospital's clock: "today" of the registry rules (a scheduled date not before today) is the
 * date in China Standard Time (UTC+8), whatever zone the server runs in.
 */
export const HOSPITAL_UTC_OFFSET_MINUTES = 480;

/** The hospital's date of an instant, YYYY-MM-DD. */
export function hospitalDate(at: Date, plusDays = 0): string {
  const shifted = new Date(at.getTime() + HOSPITAL_UTC_OFFSET_MINUTES * 60_000 + plusDays * 86_400_000);
  return shifted.toISOString().slice(0, 10);
}

/** The hospital's wall-clock time of an instant, YYYY-MM-DD HH:mm:ss (slice it for minutes). */
export function hospitalDateTime(at: Date): string {
  return new Date(at.getTime() + HOSPITAL_UTC_OFFSET_MINUTES * 60_000).toISOString().replace('T', ' ').slice(0, 19);
}

/** The instant a hospital day (YYYY-MM-DD) begins. */
export function hospitalDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - HOSPITAL_UTC_OFFSET_MINUTES * 60_000);
}

const text = (max: number) => z.string().trim().max(max);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date YYYY-MM-DD that exists. */
export const isoDateSchema = z.string().refine((v) => {
  if (!ISO_DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}, 'a date YYYY-MM-DD');
/** HH:mm, 00:00–23:59. */
export const clockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time HH:mm');
const DA = /^\d{8}$/;
/** A birth date YYYYMMDD (DICOM DA) that exists and is not before 1880, or '' when unknown. */
export const birthDateSchema = z.string().refine((v) => {
  if (v === '') return true;
  if (!DA.test(v)) return false;
  const [y, m, d] = [Number(v.slice(0, 4)), Number(v.slice(4, 6)), Number(v.slice(6, 8))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1880;
}, 'a birth date YYYYMMDD');

/* ---------- patients (one record per organization group) ---------- */

/** Animal variant (spec 000 §3), registered in pet domains. */
export const animalSchema = z
  .object({
    species: text(32).min(1),
    breed: text(32),
    /** the responsible person */
    owner: text(64),
    diseaseHistory: text(1024),
  })
  .strict();
export type Animal = z.infer<typeof animalSchema>;

export const patientInputSchema = z
  .object({
    /** an existing patient of the group (from the patient search); absent: matched or created */
    id: z.string().max(64).optional(),
    /** the hospital's patient ID; generated when empty */
    patientId: text(64).default(''),
    name: text(64).min(1),
    /** M F O U, or in a pet domain M F MS FS U */
    gender: z.enum([...PATIENT_GENDERS, 'MS', 'FS']),
    birthDate: birthDateSchema.default(''),
    phone: z
      .string()
      .regex(/^(\+?[0-9-]{5,20})?$/, 'a phone number of 5–20 digits')
      .default(''),
    idCard: text(32).default(''),
    address: text(256).default(''),
    animal: animalSchema.nullable().default(null),
  })
  .strict();
export type PatientInput = z.input<typeof patientInputSchema>;

export const registryPatientSchema = z.object({
  id: z.string(),
  groupId: z.string(),
  patientId: z.string(),
  name: z.string(),
  gender: z.string(),
  birthDate: z.string(),
  phone: z.string(),
  idCard: z.string(),
  address: z.string(),
  animal: animalSchema.nullable(),
  created: z.string(),
});
export type RegistryPatient = z.infer<typeof registryPatientSchema>;

/** POST patients/query: the group's patients by name, pinyin initials, patient ID or phone. */
export const patientQuerySchema = z
  .object({
    bucketId: z.string().max(64),
    q: text(64).default(''),
    skip: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(50).default(REGISTRY_PAGE_SIZE),
  })
  .strict();
export const patientPageSchema = z.object({ patients: z.array(registryPatientSchema), count: z.number().int() });

/* ---------- registrations and their scheduled exams ---------- */

export const scheduledExamInputSchema = z
  .object({
    /** an existing scheduled exam of the registration (PUT registry); absent: a new one */
    id: z.string().max(64).optional(),
    procedureId: z.string().max(64).nullable().default(null),
    /** required when no procedure is chosen (spec 000 §5 "modality or procedure step required") */
    modality: text(16).default(''),
    bodyPart: text(64).default(''),
    studyDesc: text(64).default(''),
    /** YYYY-MM-DD, not before the hospital's today (spec 000 §5) */
    scheduledDate: isoDateSchema,
    scheduledTime: z.union([clockTimeSchema, z.literal('')]).default(''),
    /** the device (modality AE) it is scheduled on; the procedure's AE title when absent */
    deviceId: z.string().max(64).nullable().default(null),
    bodyPartCount: z.number().int().min(1).max(MAX_BODYPART_COUNT).nullable().default(null),
  })
  .strict()
  .refine((e) => e.procedureId !== null || e.modality !== '', {
    message: 'a modality or a procedure is required',
    path: ['modality'],
  });
export type ScheduledExamInput = z.input<typeof scheduledExamInputSchema>;

/** A registration's fields, as the desk (POST/PUT registry) and a placing system (service-order) send them. */
export const registrationFields = {
  patient: patientInputSchema,
  patientSource: z.enum(PATIENT_SOURCES).default('O'),
  inpatientId: text(64).default(''),
  bedNum: text(16).default(''),
  outpatientId: text(64).default(''),
  physicalExamId: text(64).default(''),
  applyDept: text(64).default(''),
  orderPlacer: text(64).default(''),
  clinicImpression: text(1024).default(''),
  urgent: z.boolean().default(false),
  note: text(MAX_NOTE_LENGTH).default(''),
  /** kg */
  weight: z.number().min(0.1).max(500).nullable().default(null),
  /** cm */
  height: z.number().min(10).max(300).nullable().default(null),
  exams: z.array(scheduledExamInputSchema).min(1).max(MAX_EXAMS_PER_REGISTRATION),
};

/** The registration's own details the desk enters (besides the patient, where it comes from, and its exams). */
export const REGISTRATION_DETAIL_KEYS = [
  'inpatientId',
  'bedNum',
  'outpatientId',
  'physicalExamId',
  'applyDept',
  'orderPlacer',
  'clinicImpression',
  'urgent',
  'note',
  'weight',
  'height',
] as const;
export type RegistrationDetailKey = (typeof REGISTRATION_DETAIL_KEYS)[number];

/** Those details of a registration (a stored row, an answer, a form's values), copied. */
export function registrationDetails<T extends Record<RegistrationDetailKey, unknown>>(
  r: T,
): Pick<T, RegistrationDetailKey> {
  return Object.fromEntries(REGISTRATION_DETAIL_KEYS.map((k) => [k, r[k]])) as Pick<T, RegistrationDetailKey>;
}

/** POST registry: a registration at the desk; `arrive` records the arrival at once (a walk-in). */
export const registrationCreateSchema = z
  .object({ bucketId: z.string().max(64), ...registrationFields, arrive: z.boolean().default(false) })
  .strict();
export type RegistrationCreate = z.input<typeof registrationCreateSchema>;

/**
 * PUT registry: the whole registration again, with its version (a registration edited by someone
 * else since it was read is refused, 409). Scheduled exams keep their ids; one left out is
 * deleted when it may be (Registered, Scheduled or Cancelled), refused otherwise.
 */
export const registrationUpdateSchema = z
  .object({ id: z.string().max(64), version: z.number().int().min(0), ...registrationFields })
  .strict();
export type RegistrationUpdate = z.input<typeof registrationUpdateSchema>;

export const scheduledExamSchema = z.object({
  id: z.string(),
  registrationId: z.string(),
  bucketId: z.string(),
  status: z.enum(EXAM_STATUSES),
  procedureId: z.string().nullable(),
  procedureName: z.string(),
  procedureCode: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDesc: z.string(),
  bodyPartCount: z.number().int().nullable(),
  deviceId: z.string().nullable(),
  deviceName: z.string(),
  stationAeTitle: z.string(),
  scheduledDate: z.string(),
  scheduledTime: z.string(),
  accessionNumber: z.string(),
  studyInstanceUid: z.string(),
  imagingOptional: z.boolean(),
  /** the exam (study) its images became, once stored or matched */
  examId: z.string().nullable(),
  arrivedAt: z.string().nullable(),
  arriverName: z.string(),
  startedAt: z.string().nullable(),
  performedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string(),
  discontinuedReason: z.string(),
  created: z.string(),
  updated: z.string(),
});
export type ScheduledExam = z.infer<typeof scheduledExamSchema>;

export const registrationSchema = z.object({
  id: z.string(),
  version: z.number().int(),
  bucketId: z.string(),
  groupId: z.string(),
  source: z.enum(REGISTRY_SOURCES),
  /** the short code printed on the label and referral form (GET pass-codes/{code}) */
  passCode: z.string(),
  /** the placing system's order id (POST service-order); null for the desk's own registrations */
  orderId: z.string().nullable(),
  patient: registryPatientSchema,
  patientSource: z.enum(PATIENT_SOURCES),
  inpatientId: z.string(),
  bedNum: z.string(),
  outpatientId: z.string(),
  physicalExamId: z.string(),
  applyDept: z.string(),
  orderPlacer: z.string(),
  clinicImpression: z.string(),
  urgent: z.boolean(),
  note: z.string(),
  weight: z.number().nullable(),
  height: z.number().nullable(),
  registrarName: z.string(),
  created: z.string(),
  updated: z.string(),
  exams: z.array(scheduledExamSchema),
});
export type Registration = z.infer<typeof registrationSchema>;

/** A row of the registry list: a scheduled exam with its registration's patient and desk fields. */
export const registryItemSchema = scheduledExamSchema.extend({
  passCode: z.string(),
  source: z.enum(REGISTRY_SOURCES),
  patient: registryPatientSchema,
  patientSource: z.enum(PATIENT_SOURCES),
  applyDept: z.string(),
  orderPlacer: z.string(),
  urgent: z.boolean(),
  registrarName: z.string(),
});
export type RegistryItem = z.infer<typeof registryItemSchema>;

export const REGISTRY_SORT_FIELDS = ['created', 'scheduledDate', 'patientName', 'status', 'accessionNumber'] as const;

/** POST buckets/{id}/registry/query (spec 000 §9: page size 10, sort created descending, source internal). */
export const registryQuerySchema = z
  .object({
    /** name, pinyin initials, patient ID, accession number, phone or pass code */
    q: text(64).default(''),
    statuses: z.array(z.enum(EXAM_STATUSES)).max(EXAM_STATUSES.length).default([]),
    source: z.enum([...REGISTRY_SOURCES, 'all']).default('internal'),
    /** scheduled date range, YYYY-MM-DD, either end open */
    from: isoDateSchema.optional(),
    to: isoDateSchema.optional(),
    modality: text(16).default(''),
    deviceId: z.string().max(64).optional(),
    sort: z
      .object({ field: z.enum(REGISTRY_SORT_FIELDS), direction: z.enum(['asc', 'desc']) })
      .default({ field: 'created', direction: 'desc' }),
    skip: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(100).default(REGISTRY_PAGE_SIZE),
  })
  .strict();
export type RegistryQuery = z.input<typeof registryQuerySchema>;
export const registryPageSchema = z.object({ items: z.array(registryItemSchema), count: z.number().int() });
export type RegistryPage = z.infer<typeof registryPageSchema>;

/** Several scheduled exams at once: arrival of a registration's exams, confirmation (at most 15, spec 000 §5). */
export const scheduledIdsSchema = z.object({ ids: z.array(z.string().max(64)).min(1).max(MAX_CONFIRMATIONS) }).strict();

/** POST registry/exam/status: one desk action on one scheduled exam. */
export const registryStatusChangeSchema = z
  .object({
    id: z.string().max(64),
    action: z.enum(['arrive', 'cancelArrival', 'revoke', 'confirm']),
    /** why (revoke: required) */
    reason: text(256).default(''),
  })
  .strict();

export const registryBucketSchema = z.object({
  id: z.string(),
  name: z.string(),
  groupId: z.string(),
  groupName: z.string(),
  /** the organization actions the caller holds there (registry_* and exam_delete) */
  actions: z.array(z.string()),
});
export type RegistryBucket = z.infer<typeof registryBucketSchema>;

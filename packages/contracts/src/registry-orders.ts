import { z } from 'zod';
import { LANGUAGES, MAX_EXAMS_PER_REGISTRATION, MAX_EXPORT_EXAMS } from './limits.js';
import { registrationFields, registrationSchema, registryQuerySchema } from './registry.js';

/**
 * The front desk's orders and extension fields (spec 001 §7 "Registry": exports/schedules,
 * service-order, scheduled-exams extensions; "Buckets": extensions, bucket-extensions, extends/orgs,
 * steps; issue 22). The spec shows no shapes; these follow registry.ts.
 */

const text = (max: number) => z.string().trim().max(max);

/* ---------- POST exports/schedules ---------- */

/**
 * At most this many scheduled exams per export: the exam exports' limit (spec 000 §5 "exports 3000
 * exams"). Above it the export is refused (400 ExportLimitExceeded with the count), never cut.
 */
export const MAX_EXPORT_SCHEDULES = MAX_EXPORT_EXAMS;

/** The registry query's filters and sort (no paging) for one organization, and the headers' language. */
export const scheduleExportSchema = registryQuerySchema
  .omit({ skip: true, limit: true })
  .extend({
    bucketId: z.string().max(64),
    /** the headers' and coded cells' language; the caller's preference when absent */
    language: z.enum(LANGUAGES).optional(),
  })
  .strict();
export type ScheduleExport = z.input<typeof scheduleExportSchema>;

/* ---------- POST service-order ---------- */

/** One exam an external order asks for: no appointment yet (the desk schedules it: Registered). */
export const serviceOrderExamSchema = z
  .object({
    procedureId: z.string().max(64).nullable().default(null),
    modality: text(16).default(''),
    bodyPart: text(64).default(''),
    studyDesc: text(64).default(''),
  })
  .strict()
  .refine((e) => e.procedureId !== null || e.modality !== '', {
    message: 'a modality or a procedure is required',
    path: ['modality'],
  });

/**
 * POST service-order: an order placed from outside the desk (a clinic's HIS, an apply form). It
 * becomes a registration with source external whose exams are Registered (no appointment yet).
 * Idempotent on `orderId` within the organization: the same order sent again answers the
 * registration made the first time (`created: false`) and changes nothing.
 */
export const serviceOrderSchema = z
  .object({
    bucketId: z.string().max(64),
    /** the placing system's order id */
    orderId: text(64).min(1),
    ...registrationFields,
    exams: z.array(serviceOrderExamSchema).min(1).max(MAX_EXAMS_PER_REGISTRATION),
  })
  .strict();
export type ServiceOrder = z.input<typeof serviceOrderSchema>;
export const serviceOrderResultSchema = z.object({
  /** false when the order had been received before: the registration is the first one */
  created: z.boolean(),
  orderId: z.string(),
  registration: registrationSchema,
});
export type ServiceOrderResult = z.infer<typeof serviceOrderResultSchema>;

/* ---------- exam extension fields ---------- */

export const EXTENSION_TYPES = ['text', 'number', 'select', 'date'] as const;
/** A text or date value's length at most (the exam's extensions keep 256). */
export const MAX_EXTENSION_VALUE_LENGTH = 256;

/** An exam-scope extension field of an organization (an item of its extension-configs dictionary). */
export const examExtensionConfigSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  name: z.string(),
  label: z.string(),
  type: z.enum(EXTENSION_TYPES),
  options: z.array(z.string()),
  required: z.boolean(),
  sort: z.number().int(),
});
export type ExamExtensionConfig = z.infer<typeof examExtensionConfigSchema>;

/** GET scheduled-exams/{id}/exam-extension: its values (by config id) and its organization's fields. */
export const scheduledExamExtensionSchema = z.object({
  scheduledExamId: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])),
  configs: z.array(examExtensionConfigSchema),
});
export type ScheduledExamExtension = z.infer<typeof scheduledExamExtensionSchema>;

/** POST scheduled-exams/{id}/upsert-extension: one field's value, checked against its config's type. */
export const upsertExtensionSchema = z
  .object({
    configId: z.string().max(64),
    value: z.union([z.string().trim().max(MAX_EXTENSION_VALUE_LENGTH), z.number().finite()]),
  })
  .strict();

/**
 * POST bucket-extensions: create (no id) or change (id) one exam-scope extension field of an
 * organization. It is a write of the organization's extension-configs dictionary (scope exam), so
 * it needs bucket_manage there like the dictionary's own calls.
 */
export const bucketExtensionInputSchema = z
  .object({
    bucketId: z.string().max(64),
    id: z.string().max(64).optional(),
    /** the field's key, unique in the organization */
    name: text(64).min(1),
    /** what the form shows; the name when empty */
    label: text(64).default(''),
    type: z.enum(EXTENSION_TYPES),
    /** the choices of a select field (1–50), none for the other types */
    options: z.array(text(64).min(1)).max(50).default([]),
    required: z.boolean().default(false),
    sort: z.number().int().min(0).max(100_000).default(0),
  })
  .strict()
  .refine((e) => (e.type === 'select' ? e.options.length > 0 : e.options.length === 0), {
    message: 'a select field needs its options; other types take none',
    path: ['options'],
  })
  .refine((e) => new Set(e.options).size === e.options.length, { message: 'options repeat', path: ['options'] });
export type BucketExtensionInput = z.input<typeof bucketExtensionInputSchema>;

/** GET extends/orgs: an organization of the caller that has exam extension fields, with them. */
export const extensionOrgSchema = z.object({
  bucketId: z.string(),
  bucketName: z.string(),
  groupId: z.string(),
  configs: z.array(examExtensionConfigSchema),
});
export type ExtensionOrg = z.infer<typeof extensionOrgSchema>;

/* ---------- GET buckets/{id}/steps ---------- */

/** A procedure step (spec 000 §3 "Procedure step: bucketId, data"): the organization's procedures' steps, flattened. */
export const procedureStepSchema = z.object({
  bucketId: z.string(),
  procedureId: z.string(),
  procedureName: z.string(),
  procedureCode: z.string(),
  modality: z.string(),
  /** the step's place in its procedure, from 0 */
  index: z.number().int(),
  name: z.string(),
});
export type ProcedureStep = z.infer<typeof procedureStepSchema>;

import { z } from 'zod';
import { MAX_BODYPART_COUNT } from './limits.js';

/**
 * Procedure management, the organization tab (spec 000 §2, §3 Procedure, Device groups and
 * devices, Modality dictionary; issue 22): what the front desk registers patients for, and the
 * devices (the organization's DICOM modalities) that perform it.
 */

const text = (max: number) => z.string().trim().max(max);

export const deviceGroupInputSchema = z.object({ name: text(64).min(1) }).strict();
export const deviceGroupSchema = z.object({ id: z.string(), bucketId: z.string(), name: z.string(), sort: z.number() });
export type DeviceGroup = z.infer<typeof deviceGroupSchema>;

/** Character sets a device's worklist may be answered in: UTF-8, or the Chinese national one. */
export const WORKLIST_CHARSETS = ['ISO_IR 192', 'GB18030'] as const;

/** AE titles: 1–16 characters of the default repertoire, no backslash (PS3.5 AE). */
export const aeTitleSchema = z
  .string()
  .trim()
  .min(1)
  .max(16)
  .regex(/^[\x20-\x5b\x5d-\x7e]+$/, 'an AE title of 1–16 printable ASCII characters');

export const deviceInputSchema = z
  .object({
    name: text(64).min(1),
    aeTitle: aeTitleSchema,
    host: z.string().trim().max(255).nullable().default(null),
    port: z.number().int().min(1).max(65_535).nullable().default(null),
    modality: text(16).default(''),
    room: text(64).default(''),
    deviceGroupId: z.string().max(64).nullable().default(null),
    /** the character set of its worklist answers (the hospital's) */
    charset: z.enum(WORKLIST_CHARSETS).default('ISO_IR 192'),
  })
  .strict();
export type DeviceInput = z.input<typeof deviceInputSchema>;
export const deviceSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  name: z.string(),
  aeTitle: z.string(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  modality: z.string(),
  room: z.string(),
  deviceGroupId: z.string().nullable(),
  charset: z.enum(WORKLIST_CHARSETS).default('ISO_IR 192'),
});
export type Device = z.infer<typeof deviceSchema>;

export const procedureInputSchema = z
  .object({
    name: text(64).min(1),
    code: text(32).min(1),
    enName: text(128).default(''),
    /** in fen (分), the smallest currency unit */
    price: z.number().int().min(0).max(100_000_000).default(0),
    scanTech: text(64).default(''),
    isEnhanced: z.boolean().default(false),
    bodyPartCount: z.number().int().min(1).max(MAX_BODYPART_COUNT).default(1),
    modality: text(16).min(1),
    aeTitle: z.union([aeTitleSchema, z.literal('')]).default(''),
    deviceGroupIds: z.array(z.string().max(64)).max(20).default([]),
    /** the scan's steps, as the desk shows them */
    steps: z.array(text(64).min(1)).max(20).default([]),
    reportDuringExam: z.boolean().default(false),
    showLocalVideo: z.boolean().default(false),
    /** imaging is optional: arrival completes the exam (spec 000 §4) */
    imagingOptional: z.boolean().default(false),
  })
  .strict();
export type ProcedureInput = z.input<typeof procedureInputSchema>;
export const procedureSchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  name: z.string(),
  code: z.string(),
  enName: z.string(),
  price: z.number().int(),
  scanTech: z.string(),
  isEnhanced: z.boolean(),
  bodyPartCount: z.number().int(),
  modality: z.string(),
  aeTitle: z.string(),
  deviceGroupIds: z.array(z.string()),
  steps: z.array(z.string()),
  reportDuringExam: z.boolean(),
  showLocalVideo: z.boolean(),
  imagingOptional: z.boolean(),
  sort: z.number().int(),
});
export type Procedure = z.infer<typeof procedureSchema>;

export const resortSchema = z.object({ ids: z.array(z.string().max(64)).min(1).max(1000) }).strict();

/** Modality dictionary entry (spec 000 §3): the code the worklist carries and the name the desk shows. */
export const modalityEntryInputSchema = z
  .object({
    modalityCode: text(16)
      .min(1)
      .regex(/^[A-Z0-9_]+$/, 'upper-case letters, digits, _'),
    displayName: text(64).min(1),
  })
  .strict();
export const modalityEntrySchema = z.object({
  id: z.string(),
  bucketId: z.string(),
  modalityCode: z.string(),
  displayName: z.string(),
});
export type ModalityEntry = z.infer<typeof modalityEntrySchema>;

import { z } from 'zod';
import { postUploadRequestSchema } from './archive.js';
import { MAX_BODYPART_COUNT, MAX_EXPORT_EXAMS } from './limits.js';
import {
  examFilterProblem,
  examFilterSchema,
  examItemSchema,
  examSortSchema,
  PATIENT_GENDERS,
  PATIENT_SOURCES,
} from './exams.js';

/**
 * One exam and what is done to it from the study list's detail drawer (spec 000 §2 "Exam detail",
 * §3 Exam, §4 exam actions; spec 001 §7 "Exams"): the editable registration fields, assignment,
 * tags, co-written exams, the AI task and the export of the list.
 */

const text = (max: number) => z.string().trim().max(max);
const DA = /^\d{8}$/;
const validDa = (v: string) => {
  if (!DA.test(v)) return false;
  const [y, m, d] = [Number(v.slice(0, 4)), Number(v.slice(4, 6)), Number(v.slice(6, 8))];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1880;
};

/** Which identifier fields each patient source uses (spec 000 §3 "Patient class keys"). */
export const patientClassKeys: Record<(typeof PATIENT_SOURCES)[number], readonly ClassKey[]> = {
  I: ['inpatientId', 'bedNum'],
  O: ['outpatientId'],
  NO: ['outpatientId'],
  P: ['physicalExamId'],
  E: [],
};
export const PATIENT_CLASS_KEYS = ['inpatientId', 'outpatientId', 'bedNum', 'physicalExamId'] as const;
export type ClassKey = (typeof PATIENT_CLASS_KEYS)[number];

/**
 * POST exams/{id}: the editable fields of an exam (spec 000 §3); every field optional, unknown
 * ones refused. The patient-class identifiers that do not belong to the exam's patient source are
 * cleared on save (an inpatient keeps inpatientId and bedNum, an outpatient outpatientId …).
 */
export const examUpdateSchema = z
  .object({
    patientName: text(64).min(1),
    patientId: text(64),
    patientGender: z.enum(PATIENT_GENDERS),
    /** YYYYMMDD, or '' when unknown */
    patientDob: z.string().refine((v) => v === '' || validDa(v), 'a birth date YYYYMMDD'),
    patientPhone: z.string().regex(/^(\+?[0-9-]{5,20})?$/, 'a phone number of 5–20 digits'),
    accessionNumber: text(64),
    bodyPart: text(64),
    studyDesc: text(64),
    patientSource: z.union([z.enum(PATIENT_SOURCES), z.literal('')]),
    inpatientId: text(64),
    outpatientId: text(64),
    bedNum: text(16),
    physicalExamId: text(64),
    applyDept: text(64),
    orderPlacer: text(64),
    clinicImpression: text(1024),
    scanTech: text(64),
    physician: text(64),
    bodyPartCount: z.number().int().min(1).max(MAX_BODYPART_COUNT).nullable(),
    /** kg */
    weight: z.number().min(0.1).max(500).nullable(),
    /** cm */
    height: z.number().min(10).max(300).nullable(),
    urgentFlag: z.boolean(),
    teleMedFlag: z.boolean(),
    isPrivacy: z.boolean(),
    /** values of the organization's extension configs, by config id */
    extensions: z.record(z.string().max(64), z.union([z.string().max(256), z.number()])),
  })
  .partial()
  .strict();
export type ExamUpdate = z.infer<typeof examUpdateSchema>;

/**
 * Step 2 of the upload wizard (spec 000 §2 "exam info"): what the sender corrects before the files
 * land: patient name, patient ID, sex, birth date, accession number, with the limits of
 * POST exams/{id}. Applied to the exam records the upload stored; the files stay as received.
 */
export const uploadCorrectionSchema = z
  .object({
    patientName: examUpdateSchema.shape.patientName,
    patientId: examUpdateSchema.shape.patientId,
    patientGender: examUpdateSchema.shape.patientGender,
    patientDob: examUpdateSchema.shape.patientDob,
    accessionNumber: examUpdateSchema.shape.accessionNumber,
  })
  .strict();
export type UploadCorrection = z.infer<typeof uploadCorrectionSchema>;
export const UPLOAD_CORRECTION_FIELDS = [
  'patientName',
  'patientId',
  'patientGender',
  'patientDob',
  'accessionNumber',
] as const satisfies readonly (keyof UploadCorrection)[];

/**
 * POST exams/post-upload: close the session; `corrections` (from the wizard's step 2, signed-in
 * uploads only) are applied to every exam the upload stored, in the same transaction.
 */
export const completeUploadRequestSchema = postUploadRequestSchema.extend({
  corrections: uploadCorrectionSchema.optional(),
});
export type CompleteUploadRequest = z.infer<typeof completeUploadRequestSchema>;

export const examSeriesSchema = z.object({
  seriesUid: z.string(),
  modality: z.string(),
  seriesNumber: z.number().int().nullable(),
  description: z.string(),
  bodyPart: z.string(),
  instanceCount: z.number().int(),
});

/** GET exams/{id}/detail?reportId: the list row plus every field of the exam and its series. */
export const examDetailSchema = examItemSchema.extend({
  patientPhone: z.string(),
  inpatientId: z.string(),
  outpatientId: z.string(),
  bedNum: z.string(),
  physicalExamId: z.string(),
  clinicImpression: z.string(),
  scanTech: z.string(),
  physician: z.string(),
  bodyPartCount: z.number().int().nullable(),
  weight: z.number().nullable(),
  height: z.number().nullable(),
  institution: z.string(),
  referringPhysician: z.string(),
  source: z.string(),
  extensions: z.record(z.string(), z.union([z.string(), z.number()])),
  series: z.array(examSeriesSchema),
  attachmentCount: z.number().int(),
  /** the exams reported together with this one (co-written), this one excluded */
  coExamIds: z.array(z.string()),
  aiResult: z.record(z.string(), z.unknown()).nullable(),
  /** what the caller may do to it in its organization */
  actions: z.array(z.string()),
});
export type ExamDetail = z.infer<typeof examDetailSchema>;
export const examDetailQuerySchema = z.object({ reportId: z.string().max(64).optional() });

/** POST reports/{id}/assign: the reporter must hold report_upsert in the exam's organization. */
export const assignRequestSchema = z.object({ accountId: z.string().min(1).max(64) }).strict();
export const assignResultSchema = z.object({
  id: z.string(),
  assigneeId: z.string().nullable(),
  assigneeName: z.string().nullable(),
});

/** GET buckets/accounts/report_save?bucketIds: who may write reports there (the reporter lookup). */
export const reportersQuerySchema = z.object({ bucketIds: z.union([z.string(), z.array(z.string())]) });
export const reporterSchema = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  /** of the asked organizations, those where the account holds report_upsert */
  bucketIds: z.array(z.string()),
});
export type Reporter = z.infer<typeof reporterSchema>;

/** POST reports/{id}/tags {tagId} and DELETE reports/{id}/tags/{tagId}: the exam's tags after the change. */
export const addTagSchema = z.object({ tagId: z.string().min(1).max(64) }).strict();

/** POST reports/{id}/co-exams/add: co-written exams of the same organization; cannot be undone. */
export const MAX_CO_EXAMS = 20;
export const addCoExamsSchema = z
  .object({ examIds: z.array(z.string().min(1).max(64)).min(1).max(MAX_CO_EXAMS) })
  .strict();
export const coExamsSchema = z.object({ primaryExamId: z.string(), exams: z.array(examItemSchema) });

/**
 * POST exams/{id}/ai/task?bucketId: queue the study for the group's AI service. Anything but a
 * chest CT answers 409 NotChestCt unless `force` (spec 000 §5: flagged, with a choice to send anyway).
 */
export const aiTaskQuerySchema = z.object({ bucketId: z.string().max(64).optional() });
export const aiTaskRequestSchema = z.object({ force: z.boolean().optional() }).strict();
export const aiTaskResultSchema = z.object({ id: z.string(), aiStatus: z.string(), jobId: z.number().int() });
/** The AI service calls back with its result on the signed URL it was given. */
export const aiCallbackSchema = z
  .object({
    status: z.enum(['done', 'failed']),
    summary: z.string().max(4000).optional(),
    findings: z.array(z.record(z.string(), z.unknown())).max(200).optional(),
  })
  .strict();

/** POST exports/exams: the filtered list as .xlsx, at most 3,000 exams (spec 000 §5). */
export const exportExamsSchema = z
  .object({
    filters: z.array(examFilterSchema).max(30).default([]),
    sorts: z.array(examSortSchema).max(5).default([]),
    /** column keys in order; default: every column */
    columns: z.array(z.string().max(32)).max(40).optional(),
    language: z.enum(['chs', 'en', 'tib']).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    body.filters.forEach((f, i) => {
      const problem = examFilterProblem(f);
      if (problem) ctx.addIssue({ code: 'custom', path: ['filters', i], message: problem });
    });
  });
export const EXPORT_EXAMS_LIMIT = MAX_EXPORT_EXAMS;

import { z } from 'zod';
import { MAX_REPORT_IMAGE_BYTES, MAX_REPORT_IMAGES } from './limits.js';

/**
 * The viewer (/viewer/{openpath}?rsuid=…) reads everything through its signed openpath, sent as
 * the VIEWER_TOKEN_HEADER of each call under `viewer/`: the study's context, WADO-RS metadata and
 * frames of that one study, the patient's prior exams and key-image capture. A `share` path
 * (no account) is read-only and reaches nothing but its study.
 */
export const VIEWER_TOKEN_HEADER = 'x-yyp-viewer';

/** Default pop-up size of the viewer window (spec 000 §9). */
export const VIEWER_WINDOW = { width: 800, height: 815 } as const;

export const viewerSeriesSchema = z.object({
  seriesUid: z.string(),
  seriesNumber: z.number().int().nullable(),
  modality: z.string(),
  description: z.string(),
  instanceCount: z.number().int(),
});
export type ViewerSeries = z.infer<typeof viewerSeriesSchema>;

/** GET viewer/context: what the viewer shows around the images. */
export const viewerContextSchema = z.object({
  kind: z.enum(['viewer', 'share']),
  examId: z.string(),
  bucketId: z.string(),
  studyUid: z.string(),
  /** true when private fields are masked: a share path, or as privateFieldsMasked says for the caller */
  masked: z.boolean(),
  patientName: z.string(),
  patientId: z.string(),
  patientSex: z.string(),
  patientAge: z.string(),
  studyDate: z.string(),
  studyDescription: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  institution: z.string(),
  series: z.array(viewerSeriesSchema),
  /** the report key images go to (viewer paths issued with a reportId, when the caller may edit it) */
  reportId: z.string().nullable(),
  canCapture: z.boolean(),
  /** prior exams can be opened (viewer paths of an account holding exam_get) */
  canCompare: z.boolean(),
  /** seconds since the epoch */
  expires: z.number().int(),
});
export type ViewerContext = z.infer<typeof viewerContextSchema>;

/** GET viewer/priors: the patient's other exams with images (exams/{id}/past, 15 rows). */
export const viewerPriorSchema = z.object({
  examId: z.string(),
  studyUid: z.string(),
  studyDate: z.string(),
  modality: z.string(),
  bodyPart: z.string(),
  studyDescription: z.string(),
});
export type ViewerPrior = z.infer<typeof viewerPriorSchema>;
export const viewerPriorsSchema = z.object({ priors: z.array(viewerPriorSchema) });

/** POST viewer/priors/{examId}: a viewer path for one prior, same account and report. */
export const viewerPriorPathSchema = z.object({
  openpath: z.string(),
  rsuid: z.string(),
  expires: z.number().int(),
});
export type ViewerPriorPath = z.infer<typeof viewerPriorPathSchema>;

/** Key images: PNG or JPEG, at most MAX_REPORT_IMAGE_BYTES each and MAX_REPORT_IMAGES per report. */
export const KEY_IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;
export const KEY_IMAGE_MAX_BYTES = MAX_REPORT_IMAGE_BYTES;
export const KEY_IMAGE_MAX_COUNT = MAX_REPORT_IMAGES;
export const KEY_IMAGE_DESC_MAX = 256;

/** Report images (spec 000 §3): id, url, desc, index, isPrinted, point. */
export const reportImageSchema = z.object({
  id: z.string(),
  url: z.string(),
  desc: z.string(),
  index: z.number().int(),
  isPrinted: z.boolean(),
  point: z.string().nullable(),
  contentType: z.string(),
  size: z.number().int(),
  createdTime: z.string(),
});
export type ReportImage = z.infer<typeof reportImageSchema>;
export const reportImagesSchema = z.object({ images: z.array(reportImageSchema), limit: z.number().int() });
export type ReportImages = z.infer<typeof reportImagesSchema>;

/** Query of POST viewer/key-images (the body is the image itself). */
export const keyImageQuerySchema = z
  .object({
    desc: z.string().trim().max(KEY_IMAGE_DESC_MAX).optional(),
  })
  .strict();

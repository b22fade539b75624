import { z } from 'zod';
import { defineCall } from './call.js';
import { LANGUAGES } from './limits.js';

/**
 * DICOM media (issue 28 item 9): a study package is a DICOM file-set (PS3.10) as a zip, a DICOMDIR
 * describing every file; several studies are exported as one file-set with one DICOMDIR.
 */
export const MAX_STUDY_PACKAGE_EXAMS = 50;

export const studyPackagesRequestSchema = z
  .object({
    /** the exams (1–50, each once) */
    examIds: z.array(z.string().min(1).max(64)).min(1).max(MAX_STUDY_PACKAGE_EXAMS),
    /** the language of the index page and README; default the caller's */
    language: z.enum(LANGUAGES).optional(),
  })
  .strict();
export type StudyPackagesRequest = z.infer<typeof studyPackagesRequestSchema>;

/** A 10-minute link that downloads the exams' media zip without the bearer token. */
export const studyPackagesLinkSchema = z.object({
  token: z.string(),
  expires: z.number().int(),
  url: z.string(),
  /** how many exams the media holds */
  count: z.number().int(),
});
export type StudyPackagesLink = z.infer<typeof studyPackagesLinkSchema>;

export const mediaCalls = {
  /** several studies as one DICOM media zip: answers its download link */
  studyPackages: defineCall({
    method: 'POST',
    path: 'exams/study-packages',
    body: studyPackagesRequestSchema,
    answer: studyPackagesLinkSchema,
  }),
  /** public: the token is the credential; answers the zip itself */
  studyPackagesDownload: defineCall({
    method: 'GET',
    path: 'exams/study-packages/download',
    query: z.object({ token: z.string().max(4096) }),
  }),
} as const;

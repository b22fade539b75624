import { z } from 'zod';
import { EXAM_STATUSES } from './registry-rules.js';

/**
 * Image binding (spec 000 §4 "binding images deletes associated data", §5 "image binding needs an
 * organization chosen first", §6 exam_bind; spec 001 §7 "Exams" schedules and match; issue 22):
 * a study that arrived without a scheduled exam (stored by a modality that did not use the
 * worklist, or uploaded) is tied by hand to a scheduled exam of its organization.
 *
 * - POST exams/{id}/schedules/{scheduledId} ("match", the desk's registry_arrive): the exam
 *   becomes the scheduled exam's exam and takes its registration; the scheduled exam becomes
 *   Performed. Only for a scheduled exam without an exam.
 * - POST exams/{id}/match/{scheduledId} ("bind", admins holding exam_bind): as match when the
 *   scheduled exam has no exam; when it has one, these images replace that exam's images and
 *   everything derived from them (AI results, key images, measurements, the study package), the
 *   exam keeps its registration and its report, and the emptied exam {id} goes. Confirmed by
 *   typing the scheduled exam's accession number.
 */

/** The most candidates GET exams/{id}/schedules answers. */
export const MAX_MATCH_CANDIDATES = 50;

/** GET exams/{id}/schedules: the search over name, patient ID and accession number. */
export const matchCandidatesQuerySchema = z.object({ q: z.string().trim().max(64).optional() });

/** A scheduled exam the images of an exam can go to, with what binding would replace. */
export const matchCandidateSchema = z.object({
  /** the scheduled exam's id ({scheduledId}) */
  id: z.string(),
  status: z.enum(EXAM_STATUSES),
  accessionNumber: z.string(),
  modality: z.string(),
  procedureName: z.string(),
  studyDesc: z.string(),
  scheduledDate: z.string(),
  scheduledTime: z.string(),
  patientName: z.string(),
  patientId: z.string(),
  patientGender: z.string(),
  patientBirthDate: z.string(),
  /** the exam it holds already (a rebind replaces its images), or null */
  examId: z.string().nullable(),
  /** images of that exam that binding would delete (0 when none) */
  instanceCount: z.number().int(),
  created: z.string(),
});
export type MatchCandidate = z.infer<typeof matchCandidateSchema>;

/** POST exams/{id}/match/{scheduledId}: the accession number typed to confirm. */
export const bindRequestSchema = z.object({ confirm: z.string().trim().min(1).max(64) }).strict();
export type BindRequest = z.infer<typeof bindRequestSchema>;

/** What match and bind answer: the exam that holds the images now and its scheduled exam. */
export const matchResultSchema = z.object({
  /** the exam holding the images: {id} after a match, the scheduled exam's former exam after a rebind */
  examId: z.string(),
  scheduledId: z.string(),
  status: z.enum(EXAM_STATUSES),
  accessionNumber: z.string(),
  storeUid: z.string(),
  seriesCount: z.number().int(),
  instanceCount: z.number().int(),
  /** images the exam held before, now deleted with what was derived from them */
  replacedInstances: z.number().int(),
});
export type MatchResult = z.infer<typeof matchResultSchema>;

/**
 * GET buckets/{id}/bind-code: how a study reaches this organization to be bound (spec 000 §5
 * "image binding needs an organization chosen first"). A modality sends to `calledAeTitle` from an
 * AE title registered as one of the organization's devices, or an uploader uses the
 * organization's upload link; the study lands as an unscheduled exam of the organization when no
 * scheduled exam has its accession number or Study Instance UID, and is matched by hand. `code`
 * is the organization's code (fixed once set), the name the desk and the modality engineer use
 * for it; null until an admin sets one.
 */
export const bindCodeSchema = z.object({
  bucketId: z.string(),
  code: z.string().nullable(),
  calledAeTitle: z.string(),
  /** the AE titles of the organization's devices, whose studies land there */
  deviceAeTitles: z.array(z.string()),
  /** the organization's public upload page, or null when it has no upload token */
  uploadPath: z.string().nullable(),
});
export type BindCode = z.infer<typeof bindCodeSchema>;

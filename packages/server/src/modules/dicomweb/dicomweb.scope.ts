import type { ExamRow } from '../../db/schema.js';
import type { DicomJson } from '../../dicom/json-model.js';
import { callerScope } from '../../platform/access.js';
import { effectiveActions, examMasked } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { hiddenConsultationCopies } from '../exams/index.js';
import { maskMetadata } from '../viewing/index.js';

/** What DICOMweb's search (dicomweb.search.ts) and retrieval (dicomweb.retrieve.ts) share. */

/**
 * The organizations where a caller reads exams (exam_get), the exams of theirs it may not see, and, for an exam of one of them,
 * whether its private fields are masked for the caller (contracts privateFieldsMasked through
 * authz examMasked: the group's enablePrivacy, view_privacy, the exam's confidential flag).
 */
export interface ReadScope {
  buckets: string[];
  /** exams of those organizations hidden from the caller: consultation copies it takes no part in */
  hidden: readonly string[];
  masked: (exam: Pick<ExamRow, 'bucketId' | 'isPrivacy'>) => boolean;
}

/** The caller's ReadScope, from the scope its authentication loaded (no query when remembered). */
export async function readScope(db: Db, caller: { id: string }): Promise<ReadScope> {
  const { access, facts } = await callerScope(db, caller);
  const readable = new Map(facts.filter((b) => effectiveActions(access, b).has('exam_get')).map((b) => [b.id, b]));
  const buckets = [...readable.keys()];
  return {
    buckets,
    hidden: await hiddenConsultationCopies(db, caller, buckets),
    masked: (exam) => {
      const bucket = readable.get(exam.bucketId);
      return !bucket || examMasked(access, bucket, exam);
    },
  };
}

/** An answer's DICOM JSON as the caller may see it: masked as the viewer masks it (viewing/mask.ts). */
export function shown(json: DicomJson, exam: ExamRow, scope: ReadScope): DicomJson {
  return scope.masked(exam) ? (maskMetadata(json, exam.patientName) as DicomJson) : json;
}

/** fn over items, at most `limit` at a time; results in input order. */
export async function mapConcurrent<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const n = next++;
      out[n] = await fn(items[n]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

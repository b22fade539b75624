import { and, eq, inArray, isNull } from 'drizzle-orm';
import { exams, series } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import type { AuditedExam } from './dicomweb.audit.js';

/**
 * DICOMweb's other look-ups: STOW-RS answers and audit rows. QIDO-RS and WADO-RS retrieval match
 * in qido.store.ts; frames are found in frames.store.ts.
 */

/** Series UID by series id, for the given ids (a STOW-RS answer's Retrieve URLs). */
export async function seriesUidsById(db: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.select({ id: series.id, uid: series.seriesUid }).from(series).where(inArray(series.id, ids));
  return new Map(rows.map((r) => [r.id, r.uid]));
}

/** The live exams of a study UID in the given organizations (an audit row names them). */
export async function liveExamsOfStudy(db: Db, studyUid: string, bucketIds: string[]): Promise<AuditedExam[]> {
  return db
    .select({ id: exams.id, bucketId: exams.bucketId, patientId: exams.patientId })
    .from(exams)
    .where(and(eq(exams.storeUid, studyUid), inArray(exams.bucketId, bucketIds), isNull(exams.deletedTime)));
}

import type { Db } from '../../platform/db.js';
import { ownerOfExam } from '../exams/index.js';

// The reports module's ownership look-up, for route auth (`auth: { action, owner }`) here and in
// the modules whose routes hang on a report (attachments, print, sharing, safety, viewing).

/**
 * Which organization owns report `reportId`: its exam's (a report's id is its primary exam's id),
 * none for a consultation copy's report the caller may not see (route auth passes the caller).
 */
export function ownerOfReport(db: Db, reportId: string, callerId?: string): Promise<string | undefined> {
  return ownerOfExam(db, reportId, callerId);
}

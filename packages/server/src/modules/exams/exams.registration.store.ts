import { eq } from 'drizzle-orm';
import { exams } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** What the front desk registered about an exam, written onto it when its study arrives (issue 22). */
export interface RegistrationFields {
  patientSource: string;
  inpatientId: string;
  outpatientId: string;
  bedNum: string;
  physicalExamId: string;
  patientPhone: string;
  applyDept: string;
  orderPlacer: string;
  clinicImpression: string;
  urgentFlag: boolean;
  bodyPartCount: number | null;
  weight: number | null;
  height: number | null;
}

/** Writes the registration's fields onto the exam its scheduled exam became. */
export async function applyRegistrationFields(
  db: Db,
  examId: string,
  fields: RegistrationFields,
  now: Date,
): Promise<void> {
  await db
    .update(exams)
    .set({ ...fields, updated: now })
    .where(eq(exams.id, examId));
}

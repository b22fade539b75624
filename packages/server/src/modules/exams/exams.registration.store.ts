import { eq, sql } from 'drizzle-orm';
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
  /** the scheduled exam's extension values (by config id): added to the exam's own, theirs kept on a clash */
  extensions?: Record<string, string | number>;
}

/** Writes the registration's fields onto the exam its scheduled exam became. */
export async function applyRegistrationFields(
  db: Db,
  examId: string,
  fields: RegistrationFields,
  now: Date,
): Promise<void> {
  const { extensions, ...rest } = fields;
  const merged =
    extensions && Object.keys(extensions).length > 0
      ? { extensions: sql`${JSON.stringify(extensions)}::jsonb || ${exams.extensions}` }
      : {};
  await db
    .update(exams)
    .set({ ...rest, ...merged, updated: now })
    .where(eq(exams.id, examId));
}

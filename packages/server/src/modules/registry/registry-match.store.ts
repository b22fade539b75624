import type { ExamStatus } from '@yyp/contracts';
import { and, asc, desc, eq, ilike, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import {
  buckets,
  exams,
  modalities,
  registrations,
  registryPatients,
  scheduledExams,
  type RegistrationRow,
  type RegistryPatientRow,
  type ScheduledExamRow,
} from '../../db/schema.js';
import { escapeLike } from '../../db/like.js';
import type { Db } from '../../platform/db.js';

export interface CandidateRow {
  exam: ScheduledExamRow;
  patient: RegistryPatientRow;
  /** images of the exam the scheduled exam holds (null: it holds none) */
  heldInstances: number | null;
}

/**
 * The scheduled exams of an organization that the images of exam `examId` can go to (GET
 * exams/{id}/schedules): not Cancelled; holding no exam, or holding another live exam (a rebind);
 * searched by patient name (or its pinyin initials), patient ID and accession number; newest first.
 */
export function matchCandidates(
  db: Db,
  bucketId: string,
  examId: string,
  q: string | undefined,
  limit: number,
): Promise<CandidateRow[]> {
  const text = q ? escapeLike(q) : undefined;
  return db
    .select({ exam: scheduledExams, patient: registryPatients, heldInstances: exams.instanceCount })
    .from(scheduledExams)
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .innerJoin(registryPatients, eq(registryPatients.id, registrations.patientRef))
    .leftJoin(exams, eq(exams.id, scheduledExams.examId))
    .where(
      and(
        eq(scheduledExams.bucketId, bucketId),
        ne(scheduledExams.status, 'Cancelled'),
        or(
          isNull(scheduledExams.examId),
          and(ne(scheduledExams.examId, examId), isNotNull(exams.id), isNull(exams.deletedTime)),
        ),
        text
          ? or(
              ilike(registryPatients.name, `%${text}%`),
              ilike(registryPatients.namePinyin, `${text.toLowerCase()}%`),
              ilike(registryPatients.patientId, `%${text}%`),
              ilike(scheduledExams.accessionNumber, `%${text}%`),
            )
          : undefined,
      ),
    )
    .orderBy(desc(scheduledExams.created), desc(scheduledExams.id))
    .limit(limit);
}

/** A scheduled exam with its registration and patient. */
export async function scheduledWithRegistration(
  db: Db,
  id: string,
): Promise<{ exam: ScheduledExamRow; registration: RegistrationRow; patient: RegistryPatientRow } | undefined> {
  const rows = await db
    .select({ exam: scheduledExams, registration: registrations, patient: registryPatients })
    .from(scheduledExams)
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .innerJoin(registryPatients, eq(registryPatients.id, registrations.patientRef))
    .where(eq(scheduledExams.id, id))
    .limit(1);
  return rows[0];
}

/**
 * Writes a scheduled exam when it is still as read: the same status and the same exam (none, or
 * the one a rebind replaces the images of), so two people binding at once cannot both win.
 */
export async function moveScheduledExam(
  db: Db,
  id: string,
  expected: { status: ExamStatus; examId: string | null },
  values: Partial<Pick<ScheduledExamRow, 'status' | 'examId' | 'performedAt' | 'arrivedAt'>>,
  now: Date,
): Promise<ScheduledExamRow | undefined> {
  const [row] = await db
    .update(scheduledExams)
    .set({ ...values, updated: now })
    .where(
      and(
        eq(scheduledExams.id, id),
        eq(scheduledExams.status, expected.status),
        expected.examId === null ? isNull(scheduledExams.examId) : eq(scheduledExams.examId, expected.examId),
      ),
    )
    .returning();
  return row;
}

/** Whether an exam is some scheduled exam's exam already (it was matched or stored with its keys). */
export async function scheduledOfExam(db: Db, examId: string): Promise<ScheduledExamRow | undefined> {
  const rows = await db.select().from(scheduledExams).where(eq(scheduledExams.examId, examId)).limit(1);
  return rows[0];
}

/** What GET buckets/{id}/bind-code shows: the organization's code, upload token and device AE titles. */
export async function bindCodeFacts(
  db: Db,
  bucketId: string,
): Promise<{ code: string | null; uploadToken: string | null; aeTitles: string[] } | undefined> {
  const [bucket] = await db
    .select({ code: buckets.code, uploadToken: buckets.uploadToken })
    .from(buckets)
    .where(eq(buckets.id, bucketId))
    .limit(1);
  if (!bucket) return undefined;
  const devices = await db
    .select({ aeTitle: modalities.aeTitle })
    .from(modalities)
    .where(and(eq(modalities.bucketId, bucketId), sql`${modalities.aeTitle} <> ''`))
    .orderBy(asc(modalities.aeTitle));
  return { ...bucket, aeTitles: [...new Set(devices.map((d) => d.aeTitle))] };
}

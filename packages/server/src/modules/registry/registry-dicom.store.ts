import { WORKLIST_STATUSES } from '@yyp/contracts';
import { and, eq, gte, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  exams,
  modalities,
  registrations,
  registryPatients,
  scheduledExams,
  type RegistrationRow,
  type RegistryPatientRow,
  type ScheduledExamRow,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/** The most scheduled steps one worklist query answers (a modality shows a day's list). */
export const WORKLIST_LIMIT = 2000;

/** The device (modality row) of an AE title in an organization. */
export async function deviceByAe(db: Db, bucketId: string, aeTitle: string) {
  const rows = await db
    .select()
    .from(modalities)
    .where(and(eq(modalities.bucketId, bucketId), eq(modalities.aeTitle, aeTitle)))
    .limit(1);
  return rows[0];
}

/** What a worklist answer needs of a scheduled exam, its registration and its patient. */
const WORKLIST_COLUMNS = {
  accessionNumber: scheduledExams.accessionNumber,
  studyInstanceUid: scheduledExams.studyInstanceUid,
  requestedProcedureId: scheduledExams.requestedProcedureId,
  procedureName: scheduledExams.procedureName,
  studyDesc: scheduledExams.studyDesc,
  modality: scheduledExams.modality,
  stationAeTitle: scheduledExams.stationAeTitle,
  scheduledDate: scheduledExams.scheduledDate,
  scheduledTime: scheduledExams.scheduledTime,
  spsId: scheduledExams.spsId,
  status: scheduledExams.status,
  orderPlacer: registrations.orderPlacer,
  name: registryPatients.name,
  patientId: registryPatients.patientId,
  birthDate: registryPatients.birthDate,
  gender: registryPatients.gender,
  animal: registryPatients.animal,
};
const WORKLIST_SELECT = sql.join(
  Object.entries(WORKLIST_COLUMNS).map(([key, column]) => sql`${column} as ${sql.identifier(key)}`),
  sql`, `,
);

type ExamKey = 'accessionNumber' | 'studyInstanceUid' | 'requestedProcedureId' | 'procedureName' | 'studyDesc';
type StepKey = 'modality' | 'stationAeTitle' | 'scheduledDate' | 'scheduledTime' | 'spsId' | 'status';
/** One scheduled step of a worklist: the exam's, its registration's and its patient's columns. */
export type WorklistRow = Pick<ScheduledExamRow, ExamKey | StepKey> &
  Pick<RegistrationRow, 'orderPlacer'> &
  Pick<RegistryPatientRow, 'name' | 'patientId' | 'birthDate' | 'gender' | 'animal'>;

/**
 * A LIKE pattern that every patient name matching the DICOM PN key `key` (mwl.ts matchesText:
 * `*` and `?` wildcards, case-insensitive, trailing empty components ignored) matches, compared
 * with lower(name); null when the key matches everything or holds letters whose case PostgreSQL
 * may fold otherwise than JavaScript (outside ASCII). A pre-filter only: the answer is still
 * matched by matchesWorklistQuery.
 */
export function patientNamePattern(key: string): string | null {
  const norm = key.replace(/[\^=\s]+$/, '').toLowerCase();
  if (norm === '' || /^\*+$/.test(norm)) return null;
  if ([...norm].some((c) => c.codePointAt(0)! > 0x7f && c.toLowerCase() !== c.toUpperCase())) return null;
  const body = norm
    .replace(/[\\%_]/g, (c) => `\\${c}`)
    .replace(/\*/g, '%')
    .replace(/\?/g, '_');
  return norm.endsWith('*') ? body : `${body}%`;
}

/**
 * The scheduled steps the device `aeTitle` may perform: of its organization, still to be
 * performed, on its AE title, or on no station when their modality is the device's (any, for a
 * device without one); in the scheduled date range (YYYY-MM-DD, either end open), earliest first;
 * with `patientName` (a PN key), only patients whose name may match it (patientNamePattern). The
 * device's modality is read in the query, so it runs beside deviceByAe rather than after it.
 */
export async function worklistRows(
  db: Db,
  bucketId: string,
  aeTitle: string,
  dates: { from: string; to: string },
  patientName = '',
): Promise<WorklistRow[]> {
  const anyStation = and(
    eq(scheduledExams.stationAeTitle, ''),
    sql`exists (select 1 from ${modalities} where ${modalities.bucketId} = ${bucketId} and ${modalities.aeTitle} = ${aeTitle}
      and (${modalities.modality} = '' or ${modalities.modality} = ${scheduledExams.modality}))`,
  );
  const namePattern = patientNamePattern(patientName);
  const where: (SQL | undefined)[] = [
    eq(scheduledExams.bucketId, bucketId),
    inArray(scheduledExams.status, [...WORKLIST_STATUSES]),
    or(eq(scheduledExams.stationAeTitle, aeTitle), anyStation),
    ne(scheduledExams.scheduledDate, ''),
    dates.from ? gte(scheduledExams.scheduledDate, dates.from) : undefined,
    dates.to ? lte(scheduledExams.scheduledDate, dates.to) : undefined,
    namePattern ? sql`lower(${registryPatients.name}) like ${namePattern}` : undefined,
  ];
  // The driver's rows as they come (text columns as strings, the animal's jsonb parsed by the
  // driver): a day's list is a thousand rows, and drizzle's per-field mapping of a select cost
  // more than the query's own work in the worklist bench.
  const result = await db.execute(sql`
    select ${WORKLIST_SELECT} from ${scheduledExams}
    join ${registrations} on ${registrations.id} = ${scheduledExams.registrationId}
    join ${registryPatients} on ${registryPatients.id} = ${registrations.patientRef}
    where ${and(...where)}
    order by ${scheduledExams.scheduledDate}, ${scheduledExams.scheduledTime}, ${scheduledExams.accessionNumber}
    limit ${sql.raw(String(WORKLIST_LIMIT))}`);
  const rows = (result as unknown as { rows: WorklistRow[] }).rows;
  for (const row of rows) {
    // A driver that hands jsonb over as text (drizzle's mapping would parse it).
    if (typeof row.animal === 'string') row.animal = JSON.parse(row.animal) as WorklistRow['animal'];
  }
  return rows;
}

/** The scheduled exams an MPPS names (by Study Instance UID, else accession number) in the organization. */
export function scheduledForSteps(
  db: Db,
  bucketId: string,
  steps: { studyInstanceUid: string; accessionNumber: string }[],
): Promise<ScheduledExamRow[]> {
  const keys = steps.flatMap((s) =>
    s.studyInstanceUid
      ? [eq(scheduledExams.studyInstanceUid, s.studyInstanceUid)]
      : s.accessionNumber
        ? [eq(scheduledExams.accessionNumber, s.accessionNumber)]
        : [],
  );
  if (keys.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(scheduledExams)
    .where(and(eq(scheduledExams.bucketId, bucketId), or(...keys)));
}

/** The scheduled exams an MPPS instance was created for, in the organization. */
export function scheduledOfMpps(db: Db, bucketId: string, mppsUid: string): Promise<ScheduledExamRow[]> {
  return db
    .select()
    .from(scheduledExams)
    .where(and(eq(scheduledExams.bucketId, bucketId), eq(scheduledExams.mppsUid, mppsUid)));
}

/** Whether any scheduled exam carries this MPPS instance already. */
export async function mppsExists(db: Db, mppsUid: string): Promise<boolean> {
  const rows = await db
    .select({ id: scheduledExams.id })
    .from(scheduledExams)
    .where(eq(scheduledExams.mppsUid, mppsUid))
    .limit(1);
  return rows.length > 0;
}

/**
 * The scheduled exams a newly stored exam is the study of: same organization, not yet tied to an
 * exam, with the exam's Study Instance UID or (when it has one) its accession number.
 */
export function scheduledForStoredExam(
  db: Db,
  examId: string,
): Promise<{ exam: ScheduledExamRow; registration: RegistrationRow; patient: RegistryPatientRow; storeUid: string }[]> {
  return db
    .select({ exam: scheduledExams, registration: registrations, patient: registryPatients, storeUid: exams.storeUid })
    .from(exams)
    .innerJoin(
      scheduledExams,
      and(
        eq(scheduledExams.bucketId, exams.bucketId),
        isNull(scheduledExams.examId),
        or(
          eq(scheduledExams.studyInstanceUid, exams.storeUid),
          and(ne(exams.accessionNumber, ''), eq(scheduledExams.accessionNumber, exams.accessionNumber)),
        ),
      ),
    )
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .innerJoin(registryPatients, eq(registryPatients.id, registrations.patientRef))
    .where(eq(exams.id, examId))
    .limit(5);
}

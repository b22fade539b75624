import { WORKLIST_STATUSES } from '@yyp/contracts';
import { and, asc, eq, gte, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
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
  exam: {
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
  },
  registration: { orderPlacer: registrations.orderPlacer },
  patient: {
    name: registryPatients.name,
    patientId: registryPatients.patientId,
    birthDate: registryPatients.birthDate,
    gender: registryPatients.gender,
    animal: registryPatients.animal,
  },
};

export interface WorklistRow {
  exam: Pick<ScheduledExamRow, keyof typeof WORKLIST_COLUMNS.exam>;
  registration: Pick<RegistrationRow, 'orderPlacer'>;
  patient: Pick<RegistryPatientRow, keyof typeof WORKLIST_COLUMNS.patient>;
}

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
 * The scheduled steps a device may perform: of its organization, still to be performed, on its
 * AE title, or on no station when their modality is the device's; in the scheduled date range
 * (YYYY-MM-DD, either end open), earliest first; with `patientName` (a PN key), only patients
 * whose name may match it (patientNamePattern).
 */
export function worklistRows(
  db: Db,
  bucketId: string,
  device: { aeTitle: string; modality: string },
  dates: { from: string; to: string },
  patientName = '',
): Promise<WorklistRow[]> {
  const anyStation = and(
    eq(scheduledExams.stationAeTitle, ''),
    device.modality ? eq(scheduledExams.modality, device.modality) : undefined,
  );
  const namePattern = patientNamePattern(patientName);
  const where: (SQL | undefined)[] = [
    eq(scheduledExams.bucketId, bucketId),
    inArray(scheduledExams.status, [...WORKLIST_STATUSES]),
    or(eq(scheduledExams.stationAeTitle, device.aeTitle), anyStation),
    ne(scheduledExams.scheduledDate, ''),
    dates.from ? gte(scheduledExams.scheduledDate, dates.from) : undefined,
    dates.to ? lte(scheduledExams.scheduledDate, dates.to) : undefined,
    namePattern ? sql`lower(${registryPatients.name}) like ${namePattern}` : undefined,
  ];
  return db
    .select(WORKLIST_COLUMNS)
    .from(scheduledExams)
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .innerJoin(registryPatients, eq(registryPatients.id, registrations.patientRef))
    .where(and(...where))
    .orderBy(asc(scheduledExams.scheduledDate), asc(scheduledExams.scheduledTime), asc(scheduledExams.accessionNumber))
    .limit(WORKLIST_LIMIT);
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

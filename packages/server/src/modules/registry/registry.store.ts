import type { ExamStatus } from '@yyp/contracts';
import { and, asc, desc, eq, gte, inArray, lte, or, sql } from 'drizzle-orm';
import {
  accounts,
  modalities,
  registrations,
  registryPatients,
  scheduledExams,
  type RegistrationRow,
  type RegistryPatientRow,
  type ScheduledExamRow,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { patientTextMatch } from './registry-search.store.js';

/* ---------- ownership ---------- */

/** The organization that owns a scheduled exam. */
export async function ownerOfScheduledExam(db: Db, id: string): Promise<string | undefined> {
  const rows = await db
    .select({ bucketId: scheduledExams.bucketId })
    .from(scheduledExams)
    .where(eq(scheduledExams.id, id))
    .limit(1);
  return rows[0]?.bucketId;
}

/* ---------- patients ---------- */

export async function findPatient(db: Db, groupId: string, id: string): Promise<RegistryPatientRow | undefined> {
  const rows = await db
    .select()
    .from(registryPatients)
    .where(and(eq(registryPatients.groupId, groupId), eq(registryPatients.id, id)))
    .limit(1);
  return rows[0];
}

export async function findPatientById(db: Db, id: string): Promise<RegistryPatientRow | undefined> {
  const rows = await db.select().from(registryPatients).where(eq(registryPatients.id, id)).limit(1);
  return rows[0];
}

export async function findPatientByPid(
  db: Db,
  groupId: string,
  patientId: string,
): Promise<RegistryPatientRow | undefined> {
  const rows = await db
    .select()
    .from(registryPatients)
    .where(and(eq(registryPatients.groupId, groupId), eq(registryPatients.patientId, patientId)))
    .limit(1);
  return rows[0];
}

/** Patients of the group with this name whose birth date lies in [from, to] (YYYYMMDD), oldest record first. */
export function findPatientsByName(
  db: Db,
  groupId: string,
  name: string,
  birth: { from: string; to: string },
): Promise<RegistryPatientRow[]> {
  return db
    .select()
    .from(registryPatients)
    .where(
      and(
        eq(registryPatients.groupId, groupId),
        eq(registryPatients.name, name),
        gte(registryPatients.birthDate, birth.from),
        lte(registryPatients.birthDate, birth.to),
      ),
    )
    .orderBy(asc(registryPatients.created))
    .limit(10);
}

/** Which of these patient IDs the group's records already hold. */
export async function takenPatientIds(db: Db, groupId: string, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ v: registryPatients.patientId })
    .from(registryPatients)
    .where(and(eq(registryPatients.groupId, groupId), inArray(registryPatients.patientId, [...ids])));
  return new Set(rows.map((r) => r.v));
}

/** Which of these accession numbers the organization's scheduled exams already hold. */
export async function takenAccessions(db: Db, bucketId: string, numbers: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ v: scheduledExams.accessionNumber })
    .from(scheduledExams)
    .where(and(eq(scheduledExams.bucketId, bucketId), inArray(scheduledExams.accessionNumber, [...numbers])));
  return new Set(rows.map((r) => r.v));
}

export type PatientValues = Omit<typeof registryPatients.$inferInsert, 'created' | 'updated'>;

export async function insertPatient(db: Db, values: PatientValues, now: Date): Promise<RegistryPatientRow> {
  const [row] = await db
    .insert(registryPatients)
    .values({ ...values, created: now, updated: now })
    .returning();
  return row!;
}

export async function updatePatient(
  db: Db,
  id: string,
  values: Partial<Omit<PatientValues, 'id' | 'groupId'>>,
  now: Date,
): Promise<RegistryPatientRow> {
  const [row] = await db
    .update(registryPatients)
    .set({ ...values, updated: now })
    .where(eq(registryPatients.id, id))
    .returning();
  return row!;
}

/** POST patients/query: the group's patients by name, pinyin initials, patient ID or phone, newest first. */
export async function queryPatients(
  db: Db,
  groupIds: string[],
  q: string,
  page: { skip: number; limit: number },
): Promise<{ rows: RegistryPatientRow[]; count: number }> {
  if (groupIds.length === 0) return { rows: [], count: 0 };
  const where = and(
    inArray(registryPatients.groupId, groupIds),
    q ? or(patientTextMatch(q), eq(registryPatients.patientId, q), eq(registryPatients.phone, q)) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(registryPatients)
      .where(where)
      .orderBy(desc(registryPatients.created), asc(registryPatients.id))
      .offset(page.skip)
      .limit(page.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(registryPatients)
      .where(where),
  ]);
  return { rows, count: count?.n ?? 0 };
}

/* ---------- registrations ---------- */

export type RegistrationValues = Omit<typeof registrations.$inferInsert, 'created' | 'updated' | 'version'>;

export async function insertRegistration(db: Db, values: RegistrationValues, now: Date): Promise<RegistrationRow> {
  const [row] = await db
    .insert(registrations)
    .values({ ...values, created: now, updated: now })
    .returning();
  return row!;
}

/** Writes the registration's fields when it is still at `version`; undefined when someone else changed it first. */
export async function updateRegistration(
  db: Db,
  id: string,
  version: number,
  values: Partial<Omit<RegistrationValues, 'id' | 'groupId' | 'bucketId' | 'passCode' | 'createdBy' | 'source'>>,
  now: Date,
): Promise<RegistrationRow | undefined> {
  const [row] = await db
    .update(registrations)
    .set({ ...values, version: version + 1, updated: now })
    .where(and(eq(registrations.id, id), eq(registrations.version, version)))
    .returning();
  return row;
}

export async function findRegistration(db: Db, id: string): Promise<RegistrationRow | undefined> {
  const rows = await db.select().from(registrations).where(eq(registrations.id, id)).limit(1);
  return rows[0];
}

export async function findRegistrationByPassCode(db: Db, passCode: string): Promise<RegistrationRow | undefined> {
  const rows = await db.select().from(registrations).where(eq(registrations.passCode, passCode)).limit(1);
  return rows[0];
}

export function registrationsOfPatient(db: Db, patientRef: string, bucketIds: string[]): Promise<RegistrationRow[]> {
  if (bucketIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(registrations)
    .where(and(eq(registrations.patientRef, patientRef), inArray(registrations.bucketId, bucketIds)))
    .orderBy(desc(registrations.created))
    .limit(50);
}

export async function accountName(db: Db, id: string | null): Promise<string> {
  if (!id) return '';
  const rows = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, id)).limit(1);
  return rows[0]?.name ?? '';
}

/* ---------- scheduled exams ---------- */

export type ScheduledExamValues = Omit<typeof scheduledExams.$inferInsert, 'created' | 'updated'>;

export async function insertScheduledExams(
  db: Db,
  values: ScheduledExamValues[],
  now: Date,
): Promise<ScheduledExamRow[]> {
  if (values.length === 0) return [];
  return db
    .insert(scheduledExams)
    .values(values.map((v) => ({ ...v, created: now, updated: now })))
    .returning();
}

export async function findScheduledExam(db: Db, id: string): Promise<ScheduledExamRow | undefined> {
  const rows = await db.select().from(scheduledExams).where(eq(scheduledExams.id, id)).limit(1);
  return rows[0];
}

export function findScheduledExams(db: Db, ids: string[]): Promise<ScheduledExamRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select().from(scheduledExams).where(inArray(scheduledExams.id, ids));
}

export function scheduledExamsOf(db: Db, registrationIds: string[]): Promise<ScheduledExamRow[]> {
  if (registrationIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(scheduledExams)
    .where(inArray(scheduledExams.registrationId, registrationIds))
    .orderBy(asc(scheduledExams.created), asc(scheduledExams.accessionNumber));
}

/**
 * Moves a scheduled exam on when it is still in `from` (so two desks acting at once cannot both
 * move it); undefined when its status changed in between.
 */
export async function transitionScheduledExam(
  db: Db,
  id: string,
  from: ExamStatus,
  values: Partial<Omit<ScheduledExamValues, 'id' | 'registrationId' | 'bucketId'>>,
  now: Date,
): Promise<ScheduledExamRow | undefined> {
  const [row] = await db
    .update(scheduledExams)
    .set({ ...values, updated: now })
    .where(and(eq(scheduledExams.id, id), eq(scheduledExams.status, from)))
    .returning();
  return row;
}

export async function deleteScheduledExam(db: Db, id: string, from: ExamStatus): Promise<boolean> {
  const rows = await db
    .delete(scheduledExams)
    .where(and(eq(scheduledExams.id, id), eq(scheduledExams.status, from)))
    .returning({ id: scheduledExams.id });
  return rows.length > 0;
}

/** Removes a registration left without scheduled exams. */
export async function deleteEmptyRegistration(db: Db, id: string): Promise<void> {
  await db
    .delete(registrations)
    .where(
      and(
        eq(registrations.id, id),
        sql`not exists (select 1 from ${scheduledExams} where ${scheduledExams.registrationId} = ${registrations.id})`,
      ),
    );
}

/** The name of each device (modality) of the organizations, by id. */
export async function deviceNames(
  db: Db,
  ids: string[],
): Promise<Map<string, { name: string; aeTitle: string; bucketId: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: modalities.id, name: modalities.name, aeTitle: modalities.aeTitle, bucketId: modalities.bucketId })
    .from(modalities)
    .where(inArray(modalities.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

export { queryRegistry, type RegistryRow } from './registry-query.store.js';

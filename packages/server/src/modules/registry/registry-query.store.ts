import type { registryQuerySchema } from '@yyp/contracts';
import type { z } from 'zod';
import { and, asc, desc, eq, gte, inArray, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import {
  accounts,
  buckets,
  modalities,
  registrations,
  registryCounts,
  registryPatients,
  scheduledExams,
  type RegistrationRow,
  type RegistryPatientRow,
  type ScheduledExamRow,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { patientTextMatch } from './registry-search.store.js';

const SORTS = {
  created: scheduledExams.created,
  scheduledDate: scheduledExams.scheduledDate,
  patientName: registryPatients.name,
  status: scheduledExams.status,
  accessionNumber: scheduledExams.accessionNumber,
} as const;

export type RegistryRow = {
  exam: ScheduledExamRow;
  registration: RegistrationRow;
  patient: RegistryPatientRow;
  arriverName: string | null;
  registrarName: string | null;
  deviceName: string | null;
};

type RegistryQuery = z.output<typeof registryQuerySchema>;

/**
 * `column = any(array)` of ids found by an earlier statement: PostgreSQL knows how many and looks
 * each up by index (a subquery's misjudged count once made it hash a whole table instead).
 */
function anyOf(column: SQLWrapper, rows: { id: string }[] | string[]): SQL {
  const ids = rows.map((r) => (typeof r === 'string' ? r : r.id));
  return sql`${column} = any(${`{${ids.map((id) => `"${id.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[])`;
}

/** What the search box takes for an identifier rather than a name (see searchCondition). */
const IDENTIFIER = /^[A-Za-z]?\d{5,}$/;

/**
 * The search box: the organization's scheduled exams it finds by accession number, by its
 * registration's pass code, or by its patient (of the organization's group) by name (contains,
 * case-insensitive), pinyin initials (prefix, stored lower-case), patient ID or phone. The patients
 * come first (names and pinyin through the search keys' index, registry-search.store.ts), and the
 * few exams of a pass code or an accession number; the answer is a condition on scheduled_exams
 * alone (the patient's exams by scheduled_exams_bucket_patient_idx, the others by id), undefined
 * when nothing is found.
 */
async function searchCondition(db: Db, bucketId: string, q: string): Promise<SQL | undefined> {
  // An identifier typed or scanned (accession number, phone, patient ID: five digits or more, a
  // letter before them at most) is no name nor pinyin: looked up by index alone, not by reading
  // every patient of the group.
  const identifier = IDENTIFIER.test(q);
  const patientsFound = db
    .select({ id: registryPatients.id })
    .from(registryPatients)
    .where(
      and(
        eq(
          registryPatients.groupId,
          db.select({ groupId: buckets.groupId }).from(buckets).where(eq(buckets.id, bucketId)),
        ),
        identifier
          ? or(eq(registryPatients.patientId, q), eq(registryPatients.phone, q))
          : or(patientTextMatch(q), eq(registryPatients.patientId, q), eq(registryPatients.phone, q)),
      ),
    );
  const byPassCode = db
    .select({ id: scheduledExams.id })
    .from(scheduledExams)
    .where(
      and(
        eq(scheduledExams.bucketId, bucketId),
        inArray(
          scheduledExams.registrationId,
          db.select({ id: registrations.id }).from(registrations).where(eq(registrations.passCode, q.toUpperCase())),
        ),
      ),
    );
  const byAccession = db
    .select({ id: scheduledExams.id })
    .from(scheduledExams)
    .where(and(eq(scheduledExams.bucketId, bucketId), eq(scheduledExams.accessionNumber, q)));
  const [patients, exams] = await Promise.all([patientsFound, union(byPassCode, byAccession)]);
  if (patients.length === 0 && exams.length === 0) return undefined;
  return or(
    patients.length ? anyOf(scheduledExams.patientRef, patients) : undefined,
    exams.length ? anyOf(scheduledExams.id, exams) : undefined,
  );
}

/**
 * The list's count: from the per-organization counters (registry_counts, kept by triggers) when
 * the desk filters on status and source only, else counted on scheduled_exams alone.
 */
async function countRegistry(db: Db, bucketId: string, query: RegistryQuery, condition: SQL | undefined) {
  if (!query.q && !query.from && !query.to && !query.modality && !query.deviceId) {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${registryCounts.n}), 0)::int` })
      .from(registryCounts)
      .where(
        and(
          eq(registryCounts.bucketId, bucketId),
          query.source !== 'all' ? eq(registryCounts.source, query.source) : undefined,
          query.statuses.length ? inArray(registryCounts.status, query.statuses) : undefined,
        ),
      );
    return row?.n ?? 0;
  }
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(scheduledExams)
    .where(condition);
  return row?.n ?? 0;
}

/**
 * POST buckets/{id}/registry/query: the organization's scheduled exams with their registrations
 * and patients, filtered and sorted as the desk asks. Every filter is on scheduled_exams (the
 * registration's source is copied onto it; the search box is searchCondition), so the page's ids
 * come from its indexes before the ten rows are joined, and the count needs no join.
 */
export async function queryRegistry(
  db: Db,
  bucketId: string,
  query: RegistryQuery,
): Promise<{ rows: RegistryRow[]; count: number }> {
  const where: (SQL | undefined)[] = [eq(scheduledExams.bucketId, bucketId)];
  if (query.statuses.length) where.push(inArray(scheduledExams.status, query.statuses));
  if (query.source !== 'all') where.push(eq(scheduledExams.source, query.source));
  if (query.from) where.push(gte(scheduledExams.scheduledDate, query.from));
  if (query.to) where.push(lte(scheduledExams.scheduledDate, query.to));
  if (query.modality) where.push(eq(scheduledExams.modality, query.modality));
  if (query.deviceId) where.push(eq(scheduledExams.deviceId, query.deviceId));
  if (query.q) {
    const found = await searchCondition(db, bucketId, query.q);
    if (!found) return { rows: [], count: 0 };
    where.push(found);
  }
  const condition = and(...where);
  const column = SORTS[query.sort.field];
  const order = query.sort.direction === 'asc' ? asc(column) : desc(column);
  const arriver = sql<
    string | null
  >`(select ${accounts.name} from ${accounts} where ${accounts.id} = ${scheduledExams.arrivedBy})`;
  const registrar = sql<
    string | null
  >`(select ${accounts.name} from ${accounts} where ${accounts.id} = ${registrations.createdBy})`;
  const device = sql<
    string | null
  >`(select ${modalities.name} from ${modalities} where ${modalities.id} = ${scheduledExams.deviceId})`;
  const joined = db
    .select({
      exam: scheduledExams,
      registration: registrations,
      patient: registryPatients,
      arriverName: arriver,
      registrarName: registrar,
      deviceName: device,
    })
    .from(scheduledExams)
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .innerJoin(registryPatients, eq(registryPatients.id, registrations.patientRef));
  // Sorted by the patient's name, the page needs the join; sorted on the exam, its ids do not.
  const page =
    query.sort.field === 'patientName'
      ? joined.where(condition)
      : joined.where(
          inArray(
            scheduledExams.id,
            db
              .select({ id: scheduledExams.id })
              .from(scheduledExams)
              .where(condition)
              .orderBy(order, desc(scheduledExams.id))
              .offset(query.skip)
              .limit(query.limit),
          ),
        );
  const [rows, count] = await Promise.all([
    query.sort.field === 'patientName'
      ? page.orderBy(order, desc(scheduledExams.id)).offset(query.skip).limit(query.limit)
      : page.orderBy(order, desc(scheduledExams.id)),
    countRegistry(db, bucketId, query, condition),
  ]);
  return { rows, count };
}

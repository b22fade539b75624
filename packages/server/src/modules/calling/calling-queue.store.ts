import type { QueueStatus, Renumbering, WaitingSlot } from '@yyp/contracts';
import { and, asc, desc, eq, ilike, inArray, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  accounts,
  queueDayCounters,
  queueExams,
  queueTypes,
  registrations,
  registryPatients,
  scheduledExams,
  type QueueExamRow,
  type QueueTypeRow,
} from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/* ---------- ownership and single rows ---------- */

/** The organization that owns a queue exam. */
export async function ownerOfQueueExam(db: Db, id: string): Promise<string | undefined> {
  const rows = await db
    .select({ bucketId: queueExams.bucketId })
    .from(queueExams)
    .where(eq(queueExams.id, id))
    .limit(1);
  return rows[0]?.bucketId;
}

export async function findQueueExam(db: Db, id: string): Promise<QueueExamRow | undefined> {
  const rows = await db.select().from(queueExams).where(eq(queueExams.id, id)).limit(1);
  return rows[0];
}

/**
 * Locks the queue (its queue type's row) for the rest of the transaction: every change of a
 * queue's numbers or statuses takes it first, so two rooms pressing call-next at once, or two
 * check-ins, run one after the other and never take the same patient or number.
 */
export async function lockQueue(tx: Db, queueTypeId: string): Promise<QueueTypeRow | undefined> {
  const rows = await tx.select().from(queueTypes).where(eq(queueTypes.id, queueTypeId)).for('update');
  return rows[0];
}

/* ---------- numbering ---------- */

/** The waiting exams of a queue on a day, by number. */
export function waitingSlots(tx: Db, queueTypeId: string, day: string): Promise<WaitingSlot[]> {
  return tx
    .select({ id: queueExams.id, queueNo: queueExams.queueNo, urgent: queueExams.urgent })
    .from(queueExams)
    .where(
      and(eq(queueExams.queueTypeId, queueTypeId), eq(queueExams.checkInDate, day), eq(queueExams.status, 'waiting')),
    )
    .orderBy(asc(queueExams.queueNo));
}

/**
 * The highest number the queue issued on a day (0 before the first): its counter, or the highest
 * number among its exams for a day counted before the counters existed.
 */
export async function lastQueueNo(tx: Db, queueTypeId: string, day: string): Promise<number> {
  const counted = tx
    .select({ n: queueDayCounters.lastNo })
    .from(queueDayCounters)
    .where(and(eq(queueDayCounters.queueTypeId, queueTypeId), eq(queueDayCounters.day, day)));
  const rows = await tx
    .select({ n: sql<number>`greatest(coalesce(max(${queueExams.queueNo}), 0), coalesce((${counted}), 0))::int` })
    .from(queueExams)
    .where(and(eq(queueExams.queueTypeId, queueTypeId), eq(queueExams.checkInDate, day)));
  return rows[0]?.n ?? 0;
}

/** Records `lastNo` as the highest number the queue issued on the day (the queue type is locked). */
export async function recordQueueNo(tx: Db, queueTypeId: string, day: string, lastNo: number): Promise<void> {
  await tx
    .insert(queueDayCounters)
    .values({ queueTypeId, day, lastNo })
    .onConflictDoUpdate({
      target: [queueDayCounters.queueTypeId, queueDayCounters.day],
      set: { lastNo: sql`greatest(${queueDayCounters.lastNo}, excluded.last_no)` },
    });
}

/**
 * New numbers for waiting exams of one queue and day, in two statements so the unique (queue,
 * day, number) index holds after each: first each takes minus its new number (negative numbers
 * are never issued), then every negative number turns positive.
 */
export async function renumber(tx: Db, changes: readonly Renumbering[], now: Date): Promise<void> {
  if (changes.length === 0) return;
  const cases = sql.join(
    changes.map((c) => sql`when ${c.id} then ${-c.queueNo}`),
    sql` `,
  );
  const ids = changes.map((c) => c.id);
  await tx
    .update(queueExams)
    .set({ queueNo: sql`(case ${queueExams.id} ${cases} end)::int`, updated: now })
    .where(inArray(queueExams.id, ids));
  await tx
    .update(queueExams)
    .set({ queueNo: sql`-${queueExams.queueNo}` })
    .where(inArray(queueExams.id, ids));
}

/* ---------- writes ---------- */

export async function insertQueueExam(tx: Db, values: typeof queueExams.$inferInsert): Promise<QueueExamRow> {
  const [row] = await tx.insert(queueExams).values(values).returning();
  return row!;
}

export async function updateQueueExam(
  tx: Db,
  id: string,
  values: Partial<Omit<QueueExamRow, 'id' | 'bucketId' | 'scheduledExamId'>>,
): Promise<QueueExamRow> {
  const [row] = await tx.update(queueExams).set(values).where(eq(queueExams.id, id)).returning();
  return row!;
}

/**
 * The waiting exam with the lowest number (call-next), locked; the queue is locked already. An
 * exam whose arrival the desk cancelled since (its scheduled exam is no longer in `statuses`) is
 * passed over.
 */
export async function firstWaiting(
  tx: Db,
  queueTypeId: string,
  day: string,
  statuses: ReadonlySet<string>,
): Promise<QueueExamRow | undefined> {
  const rows = await tx
    .select({ row: queueExams })
    .from(queueExams)
    .innerJoin(scheduledExams, eq(scheduledExams.id, queueExams.scheduledExamId))
    .where(
      and(
        eq(queueExams.queueTypeId, queueTypeId),
        eq(queueExams.checkInDate, day),
        eq(queueExams.status, 'waiting'),
        inArray(scheduledExams.status, [...statuses]),
      ),
    )
    .orderBy(asc(queueExams.queueNo))
    .limit(1)
    .for('update', { of: queueExams, skipLocked: true });
  return rows[0]?.row;
}

/* ---------- check-in ---------- */

/** What check-in reads of a scheduled exam: its organization, status, modality and the registration's urgency. */
export async function scheduledForCheckIn(
  db: Db,
  scheduledExamId: string,
): Promise<{ id: string; bucketId: string; status: string; modality: string; urgent: boolean } | undefined> {
  const rows = await db
    .select({
      id: scheduledExams.id,
      bucketId: scheduledExams.bucketId,
      status: scheduledExams.status,
      modality: scheduledExams.modality,
      urgent: registrations.urgent,
    })
    .from(scheduledExams)
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .where(eq(scheduledExams.id, scheduledExamId))
    .limit(1);
  return rows[0];
}

/** The scheduled exam's place in a queue that day, unless it moved on. */
export async function checkedIn(tx: Db, scheduledExamId: string, day: string): Promise<QueueExamRow | undefined> {
  const rows = await tx
    .select()
    .from(queueExams)
    .where(
      and(
        eq(queueExams.scheduledExamId, scheduledExamId),
        eq(queueExams.checkInDate, day),
        ne(queueExams.status, 'moved'),
      ),
    )
    .limit(1);
  return rows[0];
}

/** Removes a queue exam still holding a place (waiting, called or missed); the row removed, if any. */
export async function removeOpenPlace(
  tx: Db,
  id: string,
  open: readonly QueueStatus[],
): Promise<QueueExamRow | undefined> {
  const rows = await tx
    .delete(queueExams)
    .where(and(eq(queueExams.id, id), inArray(queueExams.status, [...open])))
    .returning();
  return rows[0];
}

/* ---------- reads with the patient ---------- */

/** A queue exam with what its answer shows: queue name, patient, exam and caller. */
export interface QueueExamView extends QueueExamRow {
  queueTypeName: string;
  roomName: string;
  patientName: string;
  patientGender: string;
  patientId: string;
  modality: string;
  examName: string;
  accessionNumber: string;
  callerName: string;
}

const viewColumns = {
  row: queueExams,
  queueTypeName: queueTypes.displayName,
  roomName: queueTypes.roomName,
  patientName: registryPatients.name,
  patientGender: registryPatients.gender,
  patientId: registryPatients.patientId,
  modality: scheduledExams.modality,
  examName: sql<string>`coalesce(nullif(${scheduledExams.procedureName}, ''), ${scheduledExams.studyDesc})`,
  accessionNumber: scheduledExams.accessionNumber,
  callerName: sql<string>`coalesce(${accounts.name}, '')`,
};

const view = (db: Db) =>
  db
    .select(viewColumns)
    .from(queueExams)
    .innerJoin(queueTypes, eq(queueTypes.id, queueExams.queueTypeId))
    .innerJoin(scheduledExams, eq(scheduledExams.id, queueExams.scheduledExamId))
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .innerJoin(registryPatients, eq(registryPatients.id, registrations.patientRef))
    .leftJoin(accounts, eq(accounts.id, queueExams.calledBy));

type ViewRow = Awaited<ReturnType<ReturnType<typeof view>['execute']>>[number];
const flatten = ({ row, ...rest }: ViewRow): QueueExamView => ({ ...row, ...rest });

export async function queueExamViews(db: Db, ids: readonly string[]): Promise<QueueExamView[]> {
  if (ids.length === 0) return [];
  const rows = await view(db).where(inArray(queueExams.id, [...ids]));
  const byId = new Map(rows.map((r) => [r.row.id, flatten(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export interface QueueFilter {
  bucketId: string;
  day: string;
  queueTypeId?: string;
  statuses: readonly QueueStatus[];
  q: string;
}

function filterOf(f: QueueFilter): SQL {
  const escaped = f.q.replace(/[\\%_]/g, (c) => `\\${c}`);
  return and(
    eq(queueExams.bucketId, f.bucketId),
    eq(queueExams.checkInDate, f.day),
    f.queueTypeId ? eq(queueExams.queueTypeId, f.queueTypeId) : undefined,
    f.statuses.length > 0 ? inArray(queueExams.status, [...f.statuses]) : undefined,
    f.q
      ? or(
          ilike(registryPatients.name, `%${escaped}%`),
          eq(scheduledExams.accessionNumber, f.q),
          eq(registryPatients.patientId, f.q),
        )
      : undefined,
  )!;
}

/** A day's queue of an organization, by queue (in the order the queue types were added) and number. */
export async function queryQueue(
  db: Db,
  filter: QueueFilter,
  page: { skip: number; limit: number },
): Promise<{ rows: QueueExamView[]; count: number }> {
  const where = filterOf(filter);
  const rows = await view(db)
    .where(where)
    .orderBy(asc(queueTypes.created), asc(queueTypes.displayName), asc(queueExams.queueNo))
    .offset(page.skip)
    .limit(page.limit);
  const [counted] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(queueExams)
    .innerJoin(scheduledExams, eq(scheduledExams.id, queueExams.scheduledExamId))
    .innerJoin(registrations, eq(registrations.id, scheduledExams.registrationId))
    .innerJoin(registryPatients, eq(registryPatients.id, registrations.patientRef))
    .where(where);
  return { rows: rows.map(flatten), count: counted?.n ?? 0 };
}

/**
 * The current call of each room: the exam called last in each room that day, while it is still
 * called (a room whose last call was passed or finished calls nobody now), newest first.
 */
export async function currentCalls(db: Db, bucketId: string, day: string): Promise<QueueExamView[]> {
  const rows = await view(db)
    .where(and(eq(queueExams.bucketId, bucketId), eq(queueExams.checkInDate, day), isNotNull(queueExams.calledAt)))
    .orderBy(desc(queueExams.calledAt), desc(queueExams.id));
  const rooms = new Set<string>();
  return rows.map(flatten).filter((r) => {
    if (rooms.has(r.room)) return false;
    rooms.add(r.room);
    return r.status === 'called';
  });
}

/** The day's missed exams, the most recently called first. */
export async function missedExams(db: Db, bucketId: string, day: string, limit: number): Promise<QueueExamView[]> {
  const rows = await view(db)
    .where(and(eq(queueExams.bucketId, bucketId), eq(queueExams.checkInDate, day), eq(queueExams.status, 'missed')))
    .orderBy(desc(queueExams.calledAt), asc(queueExams.queueNo))
    .limit(limit);
  return rows.map(flatten);
}

/** The day's waiting exams of the organization, by queue and number (the screen's next patients). */
export async function waitingExams(db: Db, bucketId: string, day: string): Promise<QueueExamView[]> {
  const rows = await view(db)
    .where(and(eq(queueExams.bucketId, bucketId), eq(queueExams.checkInDate, day), eq(queueExams.status, 'waiting')))
    .orderBy(asc(queueExams.queueTypeId), asc(queueExams.queueNo));
  return rows.map(flatten);
}

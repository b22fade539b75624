import type { OrderStatus, PaymentStatus } from '@yyp/contracts';
import { and, asc, desc, eq, gte, ilike, inArray, isNull, like, lte, ne, sql, type SQL } from 'drizzle-orm';
import { buckets, exams, orderCounts, orders, type OrderRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import { databaseErrorOf } from '../../platform/http.js';
import { escapeLike, foldsOnlyAscii } from '../../db/like.js';

const likeContains = (s: string) => `%${escapeLike(s)}%`;

/** The live exam an order is applied for, with its organization's group. */
export async function examForApply(db: Db, examId: string) {
  const rows = await db
    .select({
      id: exams.id,
      bucketId: exams.bucketId,
      groupId: buckets.groupId,
      patientName: exams.patientName,
      patientGender: exams.patientGender,
      patientDob: exams.patientDob,
      studyDate: exams.studyDate,
      modality: exams.modality,
    })
    .from(exams)
    .innerJoin(buckets, eq(buckets.id, exams.bucketId))
    .where(and(eq(exams.id, examId), isNull(exams.deletedTime)))
    .limit(1);
  return rows[0];
}

export async function findOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  return (await db.select().from(orders).where(eq(orders.id, id)).limit(1))[0];
}

/** The order row under its row lock (for a change in `tx`). */
export async function lockOrder(tx: Db, id: string): Promise<OrderRow | undefined> {
  return (await tx.select().from(orders).where(eq(orders.id, id)).for('update'))[0];
}

/** Report orders only: a consultation's fee names its first exam, and spec 000 §5's once-per-exam is not about it. */
const REPORT_ORDER = ne(orders.type, 'consultation');

/** The exam's live report order (any but cancelled), undefined when none. */
export async function liveOrderOfExam(db: Db, examId: string): Promise<OrderRow | undefined> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.examId, examId), ne(orders.status, 'cancelled'), REPORT_ORDER))
    .limit(1);
  return rows[0];
}

/** The exam's report orders, newest first (a consultation's fee names an exam but orders no read of it). */
export function ordersOfExam(db: Db, examId: string): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.examId, examId), REPORT_ORDER))
    .orderBy(desc(orders.created), desc(orders.id));
}

/** The order whose shared exam (in the expert organization) this is, undefined when none. */
export async function orderOfTargetExam(db: Db, targetExamId: string): Promise<OrderRow | undefined> {
  const rows = await db
    .select()
    .from(orders)
    .where(and(eq(orders.targetExamId, targetExamId), ne(orders.status, 'cancelled')))
    .limit(1);
  return rows[0];
}

/** Inserts an order; undefined when the exam already has a live one (the partial unique index). */
export async function insertOrder(db: Db, row: typeof orders.$inferInsert): Promise<OrderRow | undefined> {
  try {
    const [out] = await db.insert(orders).values(row).returning();
    return out;
  } catch (err) {
    const e = databaseErrorOf(err) as { code?: string; constraint?: string; constraint_name?: string } | null;
    if (e?.code === '23505') return undefined;
    throw err;
  }
}

/** Changes an order (its version goes up). */
export async function updateOrder(db: Db, id: string, changes: Partial<typeof orders.$inferInsert>): Promise<OrderRow> {
  const [out] = await db
    .update(orders)
    .set({ ...changes, version: sql`${orders.version} + 1` })
    .where(eq(orders.id, id))
    .returning();
  return out!;
}

export async function deleteOrder(db: Db, id: string): Promise<void> {
  await db.delete(orders).where(eq(orders.id, id));
}

/** Organization names by id. */
export async function bucketNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select({ id: buckets.id, name: buckets.name }).from(buckets).where(inArray(buckets.id, unique));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/* ---------- orders/page-query ---------- */

/**
 * The patient's name contains `q` in any case. orders.search_keys (migration 0037) holds each
 * character and pair of adjacent characters of the lower-cased name, so a name containing `q` holds
 * every key of `q`: the GIN index narrows the orders to those, and the name itself is then checked.
 */
function patientNameMatch(q: string): SQL {
  const name = ilike(orders.patientName, likeContains(q));
  if (!foldsOnlyAscii(q)) return name;
  return and(sql`${orders.searchKeys} @> registry_search_keys(${q}::text, '')`, name)!;
}

export interface OrderFilter {
  side: 'request' | 'target';
  bucketId: string;
  status?: OrderStatus[];
  paymentStatus?: PaymentStatus[];
  type?: string;
  from?: Date;
  to?: Date;
  patientName?: string;
  orderNo?: string;
}

const SORTS = {
  created: orders.created,
  paidAt: orders.paidAt,
  priceFen: orders.priceFen,
  deadlineAt: orders.deadlineAt,
} as const;

function where(f: OrderFilter): SQL {
  const conds: (SQL | undefined)[] = [
    f.side === 'request' ? eq(orders.requestBucketId, f.bucketId) : eq(orders.targetBucketId, f.bucketId),
    // The experts see an order once it is paid or needs no payment (billing-interfaces.md).
    f.side === 'target' ? sql`${orders.targetExamId} is not null` : undefined,
    f.status?.length ? inArray(orders.status, f.status) : undefined,
    f.paymentStatus?.length ? inArray(orders.paymentStatus, f.paymentStatus) : undefined,
    f.type ? eq(orders.type, f.type) : undefined,
    f.from ? gte(orders.created, f.from) : undefined,
    f.to ? lte(orders.created, f.to) : undefined,
    f.patientName ? patientNameMatch(f.patientName) : undefined,
    // A whole request number is found by its unique index; its beginning by the prefix index (0037).
    f.orderNo
      ? /^R\d{16}$/i.test(f.orderNo)
        ? eq(orders.orderNo, f.orderNo.toUpperCase())
        : like(orders.orderNo, `${escapeLike(f.orderNo.toUpperCase())}%`)
      : undefined,
  ];
  return and(...conds)!;
}

/** A filter of status, payment status and type only is counted from order_counts (migration 0037's triggers). */
const countable = (f: OrderFilter) => !f.from && !f.to && !f.patientName && !f.orderNo;

export async function pageOrders(
  db: Db,
  f: OrderFilter,
  page: { limit: number; skip: number; sorts: { field: keyof typeof SORTS; direction: 'asc' | 'desc' }[] },
): Promise<{ rows: OrderRow[]; count: number }> {
  const order = [
    ...page.sorts.map((s) => (s.direction === 'asc' ? asc(SORTS[s.field]) : desc(SORTS[s.field]))),
    desc(orders.created),
    desc(orders.id),
  ];
  const w = where(f);
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(w)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.skip),
    countable(f)
      ? db
          .select({ n: sql<number>`coalesce(sum(${orderCounts.n}), 0)::int` })
          .from(orderCounts)
          .where(
            and(
              eq(orderCounts.bucketId, f.bucketId),
              eq(orderCounts.side, f.side),
              f.status?.length ? inArray(orderCounts.status, f.status) : undefined,
              f.paymentStatus?.length ? inArray(orderCounts.paymentStatus, f.paymentStatus) : undefined,
              f.type ? eq(orderCounts.type, f.type) : undefined,
            ),
          )
      : db
          .select({ n: sql<number>`count(*)::int` })
          .from(orders)
          .where(w),
  ]);
  return { rows, count: Number(counted[0]?.n ?? 0) };
}

/* ---------- turnaround ---------- */

/** Orders past their deadline, not reported and not yet marked breached (the partial index). */
export function breachedOrders(db: Db, now: Date, limit: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(
      and(
        lte(orders.deadlineAt, now),
        isNull(orders.breachedAt),
        ne(orders.status, 'cancelled'),
        isNull(orders.reportedAt),
      ),
    )
    .orderBy(asc(orders.deadlineAt))
    .limit(limit);
}

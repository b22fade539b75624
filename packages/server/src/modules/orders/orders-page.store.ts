import type { OrderStatus, PaymentStatus } from '@yyp/contracts';
import { and, asc, desc, eq, gte, ilike, inArray, like, lte, sql, type SQL } from 'drizzle-orm';
import { escapeLike } from '../../db/like.js';
import { orderCounts, orders, type OrderRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/*
 * orders/page-query (spec 001 §7: {filters, limit 10, skip, sorts}, answer data and count) at a
 * million orders (bench/billing): the page's rows come from orders_request_bucket_created_idx (or
 * the experts' orders_target_bucket_created_idx) newest first; the count from order_counts (kept by
 * triggers, migration 0037) when the list filters on status, payment status and type only; a
 * patient's name asks the GIN index on orders.search_keys first, an order number its prefix index.
 */

export interface OrderFilter {
  /** 'request': the orders an organization placed; 'target': those it received (once shared) */
  side: 'request' | 'target';
  bucketId: string;
  status?: OrderStatus[];
  paymentStatus?: PaymentStatus[];
  type?: string;
  from?: Date;
  to?: Date;
  /** contained in the patient's name, in any case */
  patientName?: string;
  /** the order number, or its beginning (a day's orders: R20261127…) */
  orderNo?: string;
}

const SORTS = {
  created: orders.created,
  paidAt: orders.paidAt,
  priceFen: orders.priceFen,
  deadlineAt: orders.deadlineAt,
} as const;
export type OrderSortField = keyof typeof SORTS;

/** No cased letter beyond ASCII, which PostgreSQL's lower() may leave as it is (C collation). */
function foldsOnlyAscii(q: string): boolean {
  return ![...q].some((c) => c.codePointAt(0)! > 0x7f && c.toLowerCase() !== c.toUpperCase());
}

/**
 * The patient's name contains `q` in any case. The search keys hold each character and pair of
 * adjacent characters of the lower-cased name, so a name containing `q` holds every key of `q`: the
 * GIN index narrows the orders to those, and the name itself is then checked.
 */
function patientNameMatch(q: string): SQL {
  const name = ilike(orders.patientName, `%${escapeLike(q)}%`);
  if (!foldsOnlyAscii(q)) return name;
  return and(sql`${orders.searchKeys} @> registry_search_keys(${q}::text, '')`, name)!;
}

function where(f: OrderFilter): SQL {
  return and(
    f.side === 'request' ? eq(orders.requestBucketId, f.bucketId) : eq(orders.targetBucketId, f.bucketId),
    // The experts see an order once it is shared with them: paid, or needing no payment.
    f.side === 'target' ? sql`${orders.targetExamId} is not null` : undefined,
    f.status?.length ? inArray(orders.status, f.status) : undefined,
    f.paymentStatus?.length ? inArray(orders.paymentStatus, f.paymentStatus) : undefined,
    f.type ? eq(orders.type, f.type) : undefined,
    f.from ? gte(orders.created, f.from) : undefined,
    f.to ? lte(orders.created, f.to) : undefined,
    f.patientName ? patientNameMatch(f.patientName) : undefined,
    f.orderNo ? like(orders.orderNo, `${escapeLike(f.orderNo)}%`) : undefined,
  )!;
}

/** The count: from order_counts when nothing but status, payment status and type is asked. */
async function countOrders(db: Db, f: OrderFilter, w: SQL): Promise<number> {
  if (!f.from && !f.to && !f.patientName && !f.orderNo) {
    const [row] = await db
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
      );
    return Number(row?.n ?? 0);
  }
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(w);
  return Number(row?.n ?? 0);
}

/** A page of an organization's orders, sorted as asked (then newest first), and how many there are. */
export async function pageOrders(
  db: Db,
  f: OrderFilter,
  page: { limit: number; skip: number; sorts: { field: OrderSortField; direction: 'asc' | 'desc' }[] },
): Promise<{ rows: OrderRow[]; count: number }> {
  // The asked sorts, then the newest first (the id breaking ties, in the created sort's direction),
  // so the default walks the organization's created index backwards.
  const created = page.sorts.find((s) => s.field === 'created');
  const order = [
    ...page.sorts.map((s) => (s.direction === 'asc' ? asc(SORTS[s.field]) : desc(SORTS[s.field]))),
    ...(created ? [] : [desc(orders.created)]),
    created?.direction === 'asc' ? asc(orders.id) : desc(orders.id),
  ];
  const w = where(f);
  const [rows, count] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(w)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.skip),
    countOrders(db, f, w),
  ]);
  return { rows, count };
}

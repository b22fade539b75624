import type { PaymentFilters } from '@yyp/contracts';
import { and, asc, count, desc, eq, gte, inArray, lt, or, type SQL } from 'drizzle-orm';
import { orders, payments } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';
import type { PaymentListRow } from './payments.presenter.js';

/**
 * payments/page-query and export-excel: an organization's payments, as the payer (the payments it
 * made) or as the experts (the paid payments of orders placed with it). Always scoped by that
 * organization; filters narrow, never widen.
 */
export interface PaymentScope {
  bucketId: string;
  side: 'payer' | 'expert';
}

const columns = {
  id: payments.id,
  paymentNo: payments.paymentNo,
  orderId: payments.orderId,
  orderNo: orders.orderNo,
  productName: orders.productName,
  requestBucketId: orders.requestBucketId,
  expertBucketId: orders.targetBucketId,
  channel: payments.channel,
  amountFen: payments.amountFen,
  currency: payments.currency,
  refundedFen: payments.refundedFen,
  status: payments.status,
  paymentStatus: orders.paymentStatus,
  transactionId: payments.transactionId,
  invoiceStatus: orders.invoiceStatus,
  invoiceId: orders.invoiceId,
  created: payments.created,
  paidAt: payments.paidAt,
};

/** A date (YYYY-MM-DD, the day's start in UTC) or an instant. */
const instant = (v: string) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v);

function where(scope: PaymentScope, f: PaymentFilters): SQL {
  const parts: (SQL | undefined)[] =
    scope.side === 'payer'
      ? [eq(payments.bucketId, scope.bucketId)]
      : [eq(orders.targetBucketId, scope.bucketId), eq(payments.status, 'paid')];
  if (f.status) parts.push(eq(payments.status, f.status));
  if (f.channel) parts.push(eq(payments.channel, f.channel));
  if (f.paymentStatus !== undefined) parts.push(eq(orders.paymentStatus, f.paymentStatus));
  if (f.from) parts.push(gte(payments.created, instant(f.from)));
  if (f.to) parts.push(lt(payments.created, instant(f.to)));
  if (f.no) parts.push(or(eq(payments.paymentNo, f.no), eq(orders.orderNo, f.no)));
  return and(inArray(payments.purpose, ['order', 'duplicate']), ...parts)!;
}

const SORTS = { created: payments.created, amountFen: payments.amountFen, paidAt: payments.paidAt } as const;

export async function paymentsPage(
  db: Db,
  scope: PaymentScope,
  q: {
    filters: PaymentFilters;
    limit: number;
    skip: number;
    sorts: { field: keyof typeof SORTS; order: 'asc' | 'desc' }[];
  },
): Promise<PaymentListRow[]> {
  const order = q.sorts.map((s) => (s.order === 'asc' ? asc(SORTS[s.field]) : desc(SORTS[s.field])));
  return db
    .select(columns)
    .from(payments)
    .leftJoin(orders, eq(orders.id, payments.orderId))
    .where(where(scope, q.filters))
    .orderBy(...order, desc(payments.created), desc(payments.id))
    .limit(q.limit)
    .offset(q.skip);
}

export async function paymentsCount(db: Db, scope: PaymentScope, filters: PaymentFilters): Promise<number> {
  const rows = await db
    .select({ n: count() })
    .from(payments)
    .leftJoin(orders, eq(orders.id, payments.orderId))
    .where(where(scope, filters));
  return Number(rows[0]?.n ?? 0);
}

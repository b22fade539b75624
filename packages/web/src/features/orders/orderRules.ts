import {
  ORDERS_PAGE_SIZE,
  type ApplyRequest,
  type OrderStatus,
  type OrderType,
  type OrdersPageQuery,
  type PaymentStatus,
} from '@yyp/contracts';

/** A turnaround in minutes as hours and minutes (for "2 h", "1 h 30 min", "45 min"); null: none promised. */
export function splitMinutes(minutes: number | null): { hours: number; minutes: number } | null {
  if (minutes === null || minutes < 0) return null;
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}

/** Time left until an order's deadline: null without one; overdue when passed (issue 24 turnaround). */
export function remaining(
  deadlineAt: string | null,
  now: number,
): { overdue: boolean; hours: number; minutes: number } | null {
  if (!deadlineAt) return null;
  const ms = Date.parse(deadlineAt) - now;
  const total = Math.floor(Math.abs(ms) / 60_000);
  return { overdue: ms < 0, hours: Math.floor(total / 60), minutes: total % 60 };
}

export interface ApplyFormValues {
  productId?: string;
  targetBucketId?: string;
  reason?: string;
  applicantMobile?: string;
  applicantEmail?: string;
}

/** The apply form's values as the request/apply body (trimmed, empty contacts as ''). */
export function applyBody(examId: string, values: ApplyFormValues): ApplyRequest {
  return {
    examId,
    ...(values.productId ? { productId: values.productId } : {}),
    ...(values.targetBucketId ? { targetBucketId: values.targetBucketId } : {}),
    reason: (values.reason ?? '').trim(),
    applicantMobile: (values.applicantMobile ?? '').trim(),
    applicantEmail: (values.applicantEmail ?? '').trim(),
  };
}

/** The order list's filters as the screen holds them. */
export interface OrderFilters {
  status?: OrderStatus[];
  paymentStatus?: PaymentStatus[];
  /** one kind: expert or remote report, or a consultation's fee */
  type?: OrderType | null;
  /** [from, to] as YYYY-MM-DD, inclusive days */
  dates?: [string, string] | null;
  patientName?: string;
  orderNo?: string;
}

/** Whole local days → the instants the server compares: from the first day's start to the next day after the last. */
function dayStart(date: string, addDays = 0): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, (d ?? 1) + addDays).toISOString();
}

/** orders/page-query's body for a page of the list (page size 10, spec 001 §9), newest first. */
export function ordersQueryBody(filters: OrderFilters, page: number): OrdersPageQuery {
  const f: NonNullable<OrdersPageQuery['filters']> = {};
  if (filters.status?.length) f.status = filters.status;
  if (filters.paymentStatus?.length) f.paymentStatus = filters.paymentStatus;
  if (filters.type) f.type = filters.type;
  if (filters.dates) {
    f.from = dayStart(filters.dates[0]);
    f.to = dayStart(filters.dates[1], 1);
  }
  const patientName = filters.patientName?.trim();
  if (patientName) f.patientName = patientName;
  const orderNo = filters.orderNo?.trim();
  if (orderNo) f.orderNo = orderNo;
  return {
    filters: f,
    limit: ORDERS_PAGE_SIZE,
    skip: Math.max(0, page - 1) * ORDERS_PAGE_SIZE,
    sorts: [{ field: 'created', direction: 'desc' }],
  };
}

/** What may be refunded of a paid order: paid minus refunded (the server refuses more: RefundExceedsPaid). */
export function refundableFen(order: { paidFen: number; refundedFen: number }): number {
  return Math.max(0, order.paidFen - order.refundedFen);
}

/**
 * Which selected orders an invoice may cover (spec 000 §5): paid by weixin, not yet invoiced, all
 * of one expert organization. Answers the first rule broken (its error code's key) or null.
 */
export function invoiceRefusal(
  orders: { paymentStatus: PaymentStatus; channel: string | null; invoiceStatus: string; targetBucketId: string }[],
): 'none' | 'InvoiceOrderUnpaid' | 'InvoiceWrongChannel' | 'InvoiceAlreadyApplied' | 'InvoiceMixedExperts' | null {
  if (orders.length === 0) return 'none';
  if (orders.some((o) => o.paymentStatus === 0)) return 'InvoiceOrderUnpaid';
  if (orders.some((o) => o.channel !== 'weixin')) return 'InvoiceWrongChannel';
  if (orders.some((o) => o.invoiceStatus !== 'none')) return 'InvoiceAlreadyApplied';
  if (new Set(orders.map((o) => o.targetBucketId)).size > 1) return 'InvoiceMixedExperts';
  return null;
}

import type { InvoiceFilters, InvoiceSide } from '@yyp/contracts';
import { aliasedTable, and, count, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import { buckets, invoices, orders, type InvoiceRow } from '../../db/schema.js';
import type { Db } from '../../platform/db.js';

/**
 * invoices/page-query: one organization's invoices, as the applicant (invoices.request_bucket_id)
 * or as the issuer (invoices.bucket_id). Always scoped by that organization; filters narrow only.
 */
export interface InvoiceScope {
  bucketId: string;
  side: InvoiceSide;
}

const expert = aliasedTable(buckets, 'expert_bucket');
const requester = aliasedTable(buckets, 'request_bucket');

/** A date (YYYY-MM-DD, the day's start in UTC) or an instant. */
const instant = (v: string) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v);

function where(scope: InvoiceScope, f: InvoiceFilters): SQL {
  return and(
    scope.side === 'issuer' ? eq(invoices.bucketId, scope.bucketId) : eq(invoices.requestBucketId, scope.bucketId),
    f.status ? eq(invoices.status, f.status) : undefined,
    f.from ? gte(invoices.appliedAt, instant(f.from)) : undefined,
    f.to ? lt(invoices.appliedAt, instant(f.to)) : undefined,
  )!;
}

export type InvoiceListRow = InvoiceRow & { expertBucketName: string | null; requestBucketName: string | null };

export async function invoicesPage(
  db: Db,
  scope: InvoiceScope,
  q: { filters: InvoiceFilters; limit: number; skip: number },
): Promise<InvoiceListRow[]> {
  const rows = await db
    .select({ invoice: invoices, expertBucketName: expert.name, requestBucketName: requester.name })
    .from(invoices)
    .leftJoin(expert, eq(expert.id, invoices.bucketId))
    .leftJoin(requester, eq(requester.id, invoices.requestBucketId))
    .where(where(scope, q.filters))
    .orderBy(desc(invoices.appliedAt), desc(invoices.id))
    .limit(q.limit)
    .offset(q.skip);
  return rows.map((r) => ({
    ...r.invoice,
    expertBucketName: r.expertBucketName,
    requestBucketName: r.requestBucketName,
  }));
}

export async function invoicesCount(db: Db, scope: InvoiceScope, filters: InvoiceFilters): Promise<number> {
  const rows = await db.select({ n: count() }).from(invoices).where(where(scope, filters));
  return Number(rows[0]?.n ?? 0);
}

/** The orders the invoices cover, by order no. */
export async function ordersOfInvoices(db: Db, invoiceIds: string[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .select({ invoiceId: orders.invoiceId, id: orders.id, orderNo: orders.orderNo, productName: orders.productName })
    .from(orders)
    .where(inArray(orders.invoiceId, invoiceIds))
    .orderBy(orders.orderNo);
}

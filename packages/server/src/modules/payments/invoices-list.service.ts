import {
  INVOICE_READER_ACTIONS,
  invoicesPageQuerySchema,
  type InvoiceListItem,
  type InvoicesPage,
  type InvoicesPageQuery,
  type InvoiceSide,
} from '@yyp/contracts';
import type { BucketAction } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { requireIn, type PayCaller } from './payments.access.js';
import { presentInvoice } from './payments.presenter.js';
import { invoicesCount, invoicesPage, ordersOfInvoices, type InvoiceScope } from './invoices-list.store.js';

/** Who reads an organization's invoices, per side (contracts invoices.ts). */
export const INVOICE_READERS: Record<InvoiceSide, readonly BucketAction[]> = INVOICE_READER_ACTIONS;

/** invoices/page-query (issue 24's invoice list; beyond spec 001's call list). */
export class InvoicesListService {
  constructor(private readonly db: Db) {}

  async page(caller: PayCaller, scope: InvoiceScope, input: InvoicesPageQuery): Promise<InvoicesPage> {
    await requireIn(this.db, caller, scope.bucketId, INVOICE_READERS[scope.side]);
    const q = invoicesPageQuerySchema.parse(input);
    const [rows, n] = await Promise.all([invoicesPage(this.db, scope, q), invoicesCount(this.db, scope, q.filters)]);
    const covered = await ordersOfInvoices(
      this.db,
      rows.map((r) => r.id),
    );
    const data = rows.map((r): InvoiceListItem => {
      const own = covered.filter((o) => o.invoiceId === r.id);
      return {
        ...presentInvoice(r, own.map((o) => o.id).sort()),
        expertBucketName: r.expertBucketName ?? '',
        requestBucketName: r.requestBucketName,
        orders: own.map((o) => ({ id: o.id, orderNo: o.orderNo, productName: o.productName })),
      };
    });
    return { data, count: n };
  }
}

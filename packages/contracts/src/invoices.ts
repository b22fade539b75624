import { z } from 'zod';
import { invoiceSchema } from './payment.js';

/**
 * The invoice list (issue 24: /settings/billing shows invoices). One organization's invoices, from
 * one side: those it applied for (`applicant`: the requesting organization's orderers and admins)
 * or those it is to issue (`issuer`: the expert organization's issue_invoice holders and admins).
 * Applying and issuing are payments/apply-invoice and payments/issue-invoice (payment-calls.ts).
 */
export const INVOICE_SIDES = ['applicant', 'issuer'] as const;
export const invoiceSideSchema = z.enum(INVOICE_SIDES);
export type InvoiceSide = z.infer<typeof invoiceSideSchema>;

/**
 * Who reads an organization's invoices (any of the side's actions in that organization): as the
 * applicant its orderers (who apply) and admins; as the issuer its issue_invoice holders and admins.
 */
export const INVOICE_READER_ACTIONS = {
  applicant: ['apply_expert_report', 'apply_remote_report', 'bucket_manage'],
  issuer: ['issue_invoice', 'bucket_manage'],
} as const satisfies Record<InvoiceSide, readonly string[]>;

/** POST invoices/page-query?bucketId&side. */
export const invoicesQuerySchema = z.object({
  bucketId: z.string().min(1).max(64),
  side: invoiceSideSchema.default('applicant'),
});

export const invoiceFiltersSchema = z
  .object({
    status: z.enum(['applied', 'issued']).optional(),
    /** applied from / before, ISO dates or instants */
    from: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
    to: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
  })
  .strict();
export type InvoiceFilters = z.infer<typeof invoiceFiltersSchema>;

export const INVOICES_PAGE_SIZE = 10;
export const invoicesPageQuerySchema = z
  .object({
    filters: invoiceFiltersSchema.default({}),
    limit: z.number().int().min(1).max(100).default(INVOICES_PAGE_SIZE),
    skip: z.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type InvoicesPageQuery = z.input<typeof invoicesPageQuerySchema>;

/** An invoice as the list shows it: who applied, who issues, and the orders it covers. */
export const invoiceListItemSchema = invoiceSchema.extend({
  expertBucketName: z.string(),
  requestBucketName: z.string().nullable(),
  orders: z.array(z.object({ id: z.string(), orderNo: z.string(), productName: z.string() })),
});
export type InvoiceListItem = z.infer<typeof invoiceListItemSchema>;
export const invoicesPageSchema = z.object({ data: z.array(invoiceListItemSchema), count: z.number().int() });
export type InvoicesPage = z.infer<typeof invoicesPageSchema>;

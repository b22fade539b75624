import { defineCall } from './call.js';
import { invoicesPageQuerySchema, invoicesPageSchema, invoicesQuerySchema } from './invoices.js';

/**
 * The invoice list (issue 24). Beyond spec 001 §7's call list, which names only apply-invoice and
 * issue-invoice (payment-calls.ts): the settings page needs to show the invoices it applied for and
 * those it is to issue. Newest applied first.
 */
export const invoiceCalls = {
  pageQuery: defineCall({
    method: 'POST',
    path: 'invoices/page-query',
    query: invoicesQuerySchema,
    body: invoicesPageQuerySchema,
    answer: invoicesPageSchema,
  }),
};

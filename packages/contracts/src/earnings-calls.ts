import { defineCall } from './call.js';
import {
  earningsExportQuerySchema,
  earningsPageQuerySchema,
  earningsPageSchema,
  earningsQuerySchema,
} from './earnings.js';

/**
 * An expert organization's earnings statement (issue 24; beyond spec 001 §7's call list, which has
 * no such statement): sums of its revenue ledger account per month, and the orders behind them.
 * Its readers are the organization's payment_refund or issue_invoice holders and its admins.
 */
export const earningsCalls = {
  pageQuery: defineCall({
    method: 'POST',
    path: 'earnings/page-query',
    query: earningsQuerySchema,
    body: earningsPageQuerySchema,
    answer: earningsPageSchema,
  }),
  /** .xlsx: a months sheet and an orders sheet; at most 1,000 order lines (ExportLimitExceeded) */
  exportExcel: defineCall({ method: 'GET', path: 'earnings/export-excel', query: earningsExportQuerySchema }),
};

import {
  earningsCalls,
  invoiceCalls,
  type EarningsPage,
  type EarningsPageQuery,
  type InvoiceSide,
  type InvoicesPage,
  type InvoicesPageQuery,
  type Language,
} from '@yyp/contracts';
import { callApi } from './call';

/** The invoice list and the expert organization's earnings (issue 24; contracts invoice-calls.ts, earnings-calls.ts). */

export function queryInvoices(
  bucketId: string,
  side: InvoiceSide,
  body: InvoicesPageQuery,
  signal?: AbortSignal,
): Promise<InvoicesPage> {
  return callApi(invoiceCalls.pageQuery, { query: { bucketId, side }, body }, { signal });
}

export function queryEarnings(bucketId: string, body: EarningsPageQuery, signal?: AbortSignal): Promise<EarningsPage> {
  return callApi(earningsCalls.pageQuery, { query: { bucketId }, body }, { signal });
}

/** earnings/export-excel (.xlsx, at most 1,000 orders: ExportLimitExceeded beyond). */
export function exportEarnings(query: {
  bucketId: string;
  from: string;
  to: string;
  language: Language;
}): Promise<Blob> {
  return callApi(
    earningsCalls.exportExcel,
    { query },
    { as: 'blob', timeoutMs: 120_000 },
  ) as Promise<unknown> as Promise<Blob>;
}

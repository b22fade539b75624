import {
  REPORT_VIEW_TIMEOUT_MS,
  reportPrintCalls as calls,
  type PrintTemplateAnswer,
  type PrintTemplateInput,
  type PrintTime,
  type PrintView,
} from '@yyp/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/call';
import { studyKeys } from '../../../shared/queries/studyQueries';
import { reportKeys } from '../useReportEditor';

/** Printing calls (contracts reportPrintCalls): print templates, print views, print records and the report PDF. */

const of = (reportId: string) => ({ params: { reportId } });

export const printKeys = {
  view: (reportId: string) => ['reports', reportId, 'print-view'] as const,
  template: (bucketId: string) => ['buckets', bucketId, 'print-template'] as const,
};

export function fetchPrintView(reportId: string, signal?: AbortSignal): Promise<PrintView> {
  return callApi(calls.printView, of(reportId), { timeoutMs: REPORT_VIEW_TIMEOUT_MS, signal });
}

/** Printing sheets: several exams of one organization and one day merged into one print. */
export function fetchPrintSheets(examIds: string[]): Promise<PrintView> {
  return callApi(calls.printSheets, { body: { examIds } }, { timeoutMs: REPORT_VIEW_TIMEOUT_MS });
}

/** Records a print: printApprovedAt (and status printed) for an approved report, else printSubmittedAt. */
export function updatePrintTime(reportId: string): Promise<PrintTime> {
  return callApi(calls.updatePrintTime, of(reportId));
}

export function fetchReportPdf(reportId: string, lang: 'chs' | 'en' | 'tib'): Promise<Blob> {
  return callApi(
    calls.pdf,
    { ...of(reportId), query: { lang } },
    { as: 'blob', timeoutMs: REPORT_VIEW_TIMEOUT_MS },
  ) as Promise<unknown> as Promise<Blob>;
}

export function fetchPrintTemplate(bucketId: string, signal?: AbortSignal): Promise<PrintTemplateAnswer> {
  return callApi(calls.template, { params: { bucketId } }, { signal });
}

export function savePrintTemplate(bucketId: string, input: PrintTemplateInput): Promise<PrintTemplateAnswer> {
  return callApi(calls.saveTemplate, { params: { bucketId }, body: input });
}

/** After a print is recorded: the print views, the reports, their trails and the study list change. */
export function invalidatePrinted(queryClient: QueryClient, reportIds: string[]): void {
  for (const id of reportIds) {
    void queryClient.invalidateQueries({ queryKey: printKeys.view(id) });
    void queryClient.invalidateQueries({ queryKey: reportKeys.detail(id) });
    void queryClient.invalidateQueries({ queryKey: reportKeys.trace(id) });
  }
  void queryClient.invalidateQueries({ queryKey: studyKeys.all });
}

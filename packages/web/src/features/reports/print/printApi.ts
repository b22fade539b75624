import {
  REPORT_VIEW_TIMEOUT_MS,
  type PrintTemplateAnswer,
  type PrintTemplateInput,
  type PrintTime,
  type PrintView,
} from '@yyp/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../api/client';
import { studyKeys } from '../../../shared/queries/studyQueries';
import { reportKeys } from '../useReportEditor';

/** Printing calls: print templates, print views, print records and the report PDF. */

const report = (id: string) => `reports/${encodeURIComponent(id)}`;
const template = (bucketId: string) => `buckets/${encodeURIComponent(bucketId)}/print-template`;

export const printKeys = {
  view: (reportId: string) => ['reports', reportId, 'print-view'] as const,
  template: (bucketId: string) => ['buckets', bucketId, 'print-template'] as const,
};

export function fetchPrintView(reportId: string, signal?: AbortSignal): Promise<PrintView> {
  return apiRequest<PrintView>(`${report(reportId)}/print-view`, { timeoutMs: REPORT_VIEW_TIMEOUT_MS, signal });
}

/** Printing sheets: several exams of one organization and one day merged into one print. */
export function fetchPrintSheets(examIds: string[]): Promise<PrintView> {
  return apiRequest<PrintView>('reports/print-sheets', {
    method: 'POST',
    body: { examIds },
    timeoutMs: REPORT_VIEW_TIMEOUT_MS,
  });
}

/** Records a print: printApprovedAt (and status printed) for an approved report, else printSubmittedAt. */
export function updatePrintTime(reportId: string): Promise<PrintTime> {
  return apiRequest<PrintTime>(`${report(reportId)}/update-print-time`, { method: 'POST' });
}

export function fetchReportPdf(reportId: string, lang: 'chs' | 'en' | 'tib'): Promise<Blob> {
  return apiRequest<Blob>(`${report(reportId)}/pdf`, {
    query: { lang },
    as: 'blob',
    timeoutMs: REPORT_VIEW_TIMEOUT_MS,
  });
}

export function fetchPrintTemplate(bucketId: string, signal?: AbortSignal): Promise<PrintTemplateAnswer> {
  return apiRequest<PrintTemplateAnswer>(template(bucketId), { signal });
}

export function savePrintTemplate(bucketId: string, input: PrintTemplateInput): Promise<PrintTemplateAnswer> {
  return apiRequest<PrintTemplateAnswer>(template(bucketId), { method: 'PUT', body: input });
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

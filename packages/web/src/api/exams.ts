import type {
  ExamDeleted,
  ExamDetail,
  ExamFilter,
  ExamItem,
  ExamPage,
  ExamSort,
  ExamTag,
  ExamUpdate,
  Language,
  QuickSearch,
  QuickSearchCriteria,
  Reporter,
  ViewerPath,
} from '@yyp/contracts';
import { quickSearchCalls } from '@yyp/contracts';
import { callApi } from './call';
import { apiRequest } from './client';

/** The study list and the exam detail drawer (spec 001 §7 "Exams", "Quick search"). */

export interface ExamQueryBody {
  filters: ExamFilter[];
  sorts: ExamSort[];
  skip: number;
  limit: number;
}

const exam = (id: string) => `exams/${encodeURIComponent(id)}`;
const report = (id: string) => `reports/${encodeURIComponent(id)}`;

export function queryExams(body: ExamQueryBody, signal?: AbortSignal): Promise<ExamPage> {
  return apiRequest<ExamPage>('exams/page-query', { method: 'POST', body, signal });
}

export function queryDeletedExams(body: ExamQueryBody, signal?: AbortSignal): Promise<ExamPage> {
  return apiRequest<ExamPage>('exams/deleted-query', { method: 'POST', body, signal });
}

export function fetchNewExams(since: string | undefined, signal?: AbortSignal): Promise<ExamPage> {
  return apiRequest<ExamPage>('exams/newly', { method: 'POST', body: since ? { since } : {}, signal });
}

export function fetchExamDetail(examId: string, signal?: AbortSignal): Promise<ExamDetail> {
  return apiRequest<ExamDetail>(`${exam(examId)}/detail`, { signal });
}

export function updateExam(examId: string, body: ExamUpdate): Promise<ExamDetail> {
  return apiRequest<ExamDetail>(exam(examId), { method: 'POST', body });
}

export function fetchPastExams(examId: string, skip: number, signal?: AbortSignal): Promise<ExamPage> {
  return apiRequest<ExamPage>(`${exam(examId)}/past`, { method: 'POST', body: { skip }, signal });
}

export function fetchCoExams(
  examId: string,
  signal?: AbortSignal,
): Promise<{ primaryExamId: string; exams: ExamItem[] }> {
  return apiRequest(`${exam(examId)}/co-exams`, { signal });
}

export function deleteExam(examId: string): Promise<ExamDeleted> {
  return apiRequest<ExamDeleted>(`${exam(examId)}/delete`, { method: 'DELETE' });
}

export function recoverExam(examId: string): Promise<ExamItem> {
  return apiRequest<ExamItem>(`${report(examId)}/recovery`, { method: 'POST' });
}

export function destroyExam(examId: string): Promise<void> {
  return apiRequest<void>(`${report(examId)}/delete`, { method: 'POST' });
}

export function setPrinted(storeUids: string[], printed: boolean): Promise<{ updated: number }> {
  return apiRequest('exams/modify-print-status', { method: 'POST', body: { storeUids, printed } });
}

export function fetchReporters(bucketIds: string[], signal?: AbortSignal): Promise<Reporter[]> {
  const query = bucketIds.map((b) => `bucketIds=${encodeURIComponent(b)}`).join('&');
  return apiRequest<Reporter[]>(`buckets/accounts/report_save?${query}`, { signal });
}

export function assignExam(examId: string, accountId: string | null) {
  return accountId
    ? apiRequest<{ assigneeId: string | null }>(`${report(examId)}/assign`, { method: 'POST', body: { accountId } })
    : apiRequest<{ assigneeId: string | null }>(`${report(examId)}/assign-remove`, { method: 'POST' });
}

export function addExamTag(examId: string, tagId: string): Promise<ExamTag[]> {
  return apiRequest<ExamTag[]>(`${report(examId)}/tags`, { method: 'POST', body: { tagId } });
}

export function removeExamTag(examId: string, tagId: string): Promise<ExamTag[]> {
  return apiRequest<ExamTag[]>(`${report(examId)}/tags/${encodeURIComponent(tagId)}`, { method: 'DELETE' });
}

/** A signed viewer path; with a report id the viewer can send key images to that report. */
export function viewerPath(examId: string, kind: 'path' | 'share-path', reportId?: string): Promise<ViewerPath> {
  return apiRequest<ViewerPath>(`viewers/${encodeURIComponent(examId)}/${kind}`, {
    method: 'POST',
    body: reportId ? { reportId } : {},
  });
}

export function sendAiTask(examId: string, bucketId: string, force: boolean) {
  return apiRequest<{ aiStatus: string }>(`${exam(examId)}/ai/task`, {
    method: 'POST',
    query: { bucketId },
    body: force ? { force: true } : {},
  });
}

export function exportExams(body: {
  filters: ExamFilter[];
  sorts: ExamSort[];
  columns?: string[];
  language: Language;
}): Promise<Blob> {
  return apiRequest<Blob>('exports/exams', { method: 'POST', body, as: 'blob', timeoutMs: 120_000 });
}

export function fetchQuickSearches(signal?: AbortSignal): Promise<QuickSearch[]> {
  return callApi(quickSearchCalls.mine, { query: { type: 'study' } }, { signal });
}

export function createQuickSearch(title: string, criteria: QuickSearchCriteria): Promise<QuickSearch> {
  return callApi(quickSearchCalls.create, { body: { type: 'study', title, criteria } });
}

export function updateQuickSearch(
  id: string,
  change: { title?: string; criteria?: QuickSearchCriteria; sort?: number },
): Promise<QuickSearch> {
  return callApi(quickSearchCalls.update, { params: { searchId: id }, body: change });
}

export function deleteQuickSearch(id: string): Promise<void> {
  return callApi(quickSearchCalls.remove, { params: { searchId: id } });
}

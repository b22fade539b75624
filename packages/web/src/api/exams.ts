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
import { aiCalls, examCalls, exportCalls, quickSearchCalls } from '@yyp/contracts';
import { callApi } from './call';

/** The study list and the exam detail drawer (spec 001 §7 "Exams", "Quick search"). */

export interface ExamQueryBody {
  filters: ExamFilter[];
  sorts: ExamSort[];
  skip: number;
  limit: number;
}

const of = (examId: string) => ({ params: { examId } });

export function queryExams(body: ExamQueryBody, signal?: AbortSignal): Promise<ExamPage> {
  return callApi(examCalls.page, { body }, { signal });
}

export function queryDeletedExams(body: ExamQueryBody, signal?: AbortSignal): Promise<ExamPage> {
  return callApi(examCalls.deletedPage, { body }, { signal });
}

export function fetchNewExams(since: string | undefined, signal?: AbortSignal): Promise<ExamPage> {
  return callApi(examCalls.newly, { body: since ? { since } : {} }, { signal });
}

export function fetchExamDetail(examId: string, signal?: AbortSignal): Promise<ExamDetail> {
  return callApi(examCalls.detail, of(examId), { signal });
}

export function updateExam(examId: string, body: ExamUpdate): Promise<ExamDetail> {
  return callApi(examCalls.update, { ...of(examId), body });
}

export function fetchPastExams(examId: string, skip: number, signal?: AbortSignal): Promise<ExamPage> {
  return callApi(examCalls.past, { ...of(examId), body: { skip } }, { signal });
}

export function fetchCoExams(
  examId: string,
  signal?: AbortSignal,
): Promise<{ primaryExamId: string; exams: ExamItem[] }> {
  return callApi(examCalls.coExams, of(examId), { signal });
}

export function deleteExam(examId: string): Promise<ExamDeleted> {
  return callApi(examCalls.softDelete, of(examId));
}

export function recoverExam(examId: string): Promise<ExamItem> {
  return callApi(examCalls.recover, of(examId));
}

export function destroyExam(examId: string): Promise<void> {
  return callApi(examCalls.destroy, of(examId));
}

export function setPrinted(storeUids: string[], printed: boolean): Promise<{ updated: number }> {
  return callApi(examCalls.modifyPrintStatus, { body: { storeUids, printed } });
}

export function fetchReporters(bucketIds: string[], signal?: AbortSignal): Promise<Reporter[]> {
  return callApi(examCalls.reporters, { query: { bucketIds } }, { signal });
}

export function assignExam(examId: string, accountId: string | null) {
  return accountId
    ? callApi(examCalls.assign, { ...of(examId), body: { accountId } })
    : callApi(examCalls.assignRemove, of(examId));
}

export function addExamTag(examId: string, tagId: string): Promise<ExamTag[]> {
  return callApi(examCalls.addTag, { ...of(examId), body: { tagId } });
}

export function removeExamTag(examId: string, tagId: string): Promise<ExamTag[]> {
  return callApi(examCalls.removeTag, { params: { examId, tagId } });
}

/** A signed viewer path; with a report id the viewer can send key images to that report. */
export function viewerPath(examId: string, kind: 'path' | 'share-path', reportId?: string): Promise<ViewerPath> {
  const call = kind === 'path' ? examCalls.viewerPath : examCalls.sharePath;
  return callApi(call, { ...of(examId), body: reportId ? { reportId } : {} });
}

export function sendAiTask(examId: string, bucketId: string, force: boolean) {
  return callApi(aiCalls.task, { ...of(examId), query: { bucketId }, body: force ? { force: true } : {} });
}

export function exportExams(body: {
  filters: ExamFilter[];
  sorts: ExamSort[];
  columns?: string[];
  language: Language;
}): Promise<Blob> {
  return callApi(exportCalls.exams, { body }, { as: 'blob', timeoutMs: 120_000 }) as Promise<unknown> as Promise<Blob>;
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

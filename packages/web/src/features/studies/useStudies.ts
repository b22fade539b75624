import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExamFilter, ExamSort } from '@yyp/contracts';
import { fetchQuickSearches, queryDeletedExams, queryExams } from '../../api/exams';
import { fetchAccessibleOrganizations } from '../../api/organizations';

export const studyKeys = {
  all: ['exams'] as const,
  list: (view: 'list' | 'deleted', body: unknown) => ['exams', view, body] as const,
  detail: (examId: string) => ['exams', 'detail', examId] as const,
  past: (examId: string) => ['exams', 'past', examId] as const,
  coExams: (examId: string) => ['exams', 'co-exams', examId] as const,
  quickSearches: ['custom-search', 'study'] as const,
  reporters: (bucketId: string) => ['exams', 'reporters', bucketId] as const,
};

/**
 * One page of the study list (or of the deleted exams). Only the visible page is fetched; the
 * previous page stays on screen while the next one loads.
 */
export function useExamPage(
  view: 'list' | 'deleted',
  filters: ExamFilter[],
  sorts: ExamSort[],
  page: number,
  pageSize: number,
) {
  const body = { filters, sorts, skip: (page - 1) * pageSize, limit: pageSize };
  return useQuery({
    queryKey: studyKeys.list(view, body),
    queryFn: ({ signal }) => (view === 'deleted' ? queryDeletedExams(body, signal) : queryExams(body, signal)),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useInvalidateExams() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: studyKeys.all });
}

export function useQuickSearches() {
  return useQuery({ queryKey: studyKeys.quickSearches, queryFn: ({ signal }) => fetchQuickSearches(signal) });
}

export function useAccessibleOrganizations() {
  return useQuery({
    queryKey: ['buckets', 'accessible'],
    queryFn: ({ signal }) => fetchAccessibleOrganizations(signal),
    staleTime: 5 * 60_000,
  });
}

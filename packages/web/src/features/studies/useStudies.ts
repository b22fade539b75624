import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExamFilter, ExamSort } from '@yyp/contracts';
import { fetchQuickSearches, queryDeletedExams, queryExams } from '../../api/exams';
import { studyKeys } from '../../shared/queries/studyQueries';

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
  /** false while what the filters depend on is still loading (the report source) */
  enabled = true,
) {
  const body = { filters, sorts, skip: (page - 1) * pageSize, limit: pageSize };
  return useQuery({
    enabled,
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

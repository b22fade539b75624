import { useQuery } from '@tanstack/react-query';
import { fetchPastExams } from '../../api/exams';
import { fetchAccessibleOrganizations } from '../../api/organizations';

/** The query keys of exams: the study list, the report editor and the group settings refresh by them. */
export const studyKeys = {
  all: ['exams'] as const,
  list: (view: 'list' | 'deleted', body: unknown) => ['exams', view, body] as const,
  detail: (examId: string) => ['exams', 'detail', examId] as const,
  past: (examId: string) => ['exams', 'past', examId] as const,
  coExams: (examId: string) => ['exams', 'co-exams', examId] as const,
  quickSearches: ['custom-search', 'study'] as const,
  reporters: (bucketId: string) => ['exams', 'reporters', bucketId] as const,
};

/** The organizations whose exams the caller may see (the study list's and the safety pages' filters). */
export function useAccessibleOrganizations() {
  return useQuery({
    queryKey: ['buckets', 'accessible'],
    queryFn: ({ signal }) => fetchAccessibleOrganizations(signal),
    staleTime: 5 * 60_000,
  });
}

/** The patient's other exams (the detail drawer and the report's history tab). */
export function usePastExams(examId: string) {
  return useQuery({
    queryKey: studyKeys.past(examId),
    queryFn: ({ signal }) => fetchPastExams(examId, 0, signal),
  });
}

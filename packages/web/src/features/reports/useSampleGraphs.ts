import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReportSampleGraph, SamplePoint } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import {
  fetchReportSampleGraphs,
  fetchSampleGraphs,
  patchReportSampleGraph,
  placeSampleGraph,
  removeReportSampleGraph,
  uploadSampleGraph,
} from '../../api/reports';
import { useNotify } from '../../shared/notify/useNotify';

export const sampleGraphKeys = {
  placed: (reportId: string) => ['reports', reportId, 'sample-graphs'] as const,
  library: (bucketId: string) => ['report-library', bucketId, 'sample-graphs'] as const,
};

/**
 * The sample graphs placed on a report and the organization's graphs to place. Changes to one
 * placement go to the server one after another (a mutation scope), each carrying all its marks,
 * and show at once.
 */
export function useSampleGraphs(reportId: string, bucketId: string, { withLibrary }: { withLibrary: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = sampleGraphKeys.placed(reportId);
  const placed = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchReportSampleGraphs(reportId, signal),
  });
  const library = useQuery({
    queryKey: sampleGraphKeys.library(bucketId),
    queryFn: ({ signal }) => fetchSampleGraphs(bucketId, signal),
    enabled: withLibrary && bucketId !== '',
  });
  const settle = (graphs: ReportSampleGraph[]) => queryClient.setQueryData(key, graphs);
  const refetch = () => queryClient.invalidateQueries({ queryKey: key });
  const onError = async (error: unknown) => {
    notify.error(error);
    await refetch();
  };
  const scope = { id: `report-sample-graphs-${reportId}` };

  const place = useMutation({
    mutationFn: (sampleGraphId: string) => placeSampleGraph(reportId, sampleGraphId),
    scope,
    onSuccess: (graphs) => {
      settle(graphs);
      notify.success(t('report.graphs.placed'));
    },
    onError,
  });
  const patch = useMutation({
    mutationFn: ({ id, change }: { id: string; change: { points?: SamplePoint[]; isPrinted?: boolean } }) =>
      patchReportSampleGraph(reportId, id, change),
    scope,
    onMutate: ({ id, change }) => {
      queryClient.setQueryData<ReportSampleGraph[]>(key, (old) =>
        old?.map((g) => (g.id === id ? { ...g, ...change } : g)),
      );
    },
    onSuccess: (graphs) => {
      // Later clicks are already on screen: only the last answer in the queue replaces them.
      if (queryClient.isMutating({ predicate: (m) => m.options.scope?.id === scope.id }) <= 1) {
        settle(graphs);
      }
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (placementId: string) => removeReportSampleGraph(reportId, placementId),
    scope,
    onSuccess: settle,
    onError,
  });
  const upload = useMutation({
    mutationFn: ({ title, file }: { title: string; file: Blob }) => uploadSampleGraph(bucketId, title, file),
    onSuccess: async (graph) => {
      notify.success(t('report.graphs.uploaded', { title: graph.title }));
      await queryClient.invalidateQueries({ queryKey: sampleGraphKeys.library(bucketId) });
    },
    onError: notify.error,
  });

  return { placed, library, place, patch, remove, upload };
}

export type SampleGraphs = ReturnType<typeof useSampleGraphs>;

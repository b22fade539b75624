import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UpdateReportTemplate } from '@yyp/contracts';
import {
  createReportTemplate,
  deleteReportTemplate,
  fetchImageDescTemplates,
  fetchKbTrees,
  fetchReportTemplates,
  updateReportTemplate,
} from '../../../api/reports';

export const libraryKeys = {
  templates: (bucketId: string) => ['report-library', bucketId, 'templates'] as const,
  kb: (bucketId: string) => ['report-library', bucketId, 'kb'] as const,
  descTemplates: (bucketId: string) => ['report-library', bucketId, 'desc-templates'] as const,
};

const LIBRARY_STALE_MS = 5 * 60_000;

export function useReportTemplates(bucketId: string, enabled = true) {
  return useQuery({
    queryKey: libraryKeys.templates(bucketId),
    queryFn: ({ signal }) => fetchReportTemplates(bucketId, signal),
    enabled: enabled && bucketId !== '',
    staleTime: LIBRARY_STALE_MS,
  });
}

export function useKbTrees(bucketId: string, enabled = true) {
  return useQuery({
    queryKey: libraryKeys.kb(bucketId),
    queryFn: ({ signal }) => fetchKbTrees(bucketId, signal),
    enabled: enabled && bucketId !== '',
    staleTime: LIBRARY_STALE_MS,
  });
}

export function useImageDescTemplates(bucketId: string, enabled = true) {
  return useQuery({
    queryKey: libraryKeys.descTemplates(bucketId),
    queryFn: ({ signal }) => fetchImageDescTemplates(bucketId, signal),
    enabled: enabled && bucketId !== '',
    staleTime: LIBRARY_STALE_MS,
  });
}

/** Report templates written from the editor: saved, changed and deleted, then every list refreshed. */
export function useTemplateChanges() {
  const queryClient = useQueryClient();
  // A personal template shows in every organization's list: refresh them all.
  const refresh = () =>
    queryClient.invalidateQueries({
      predicate: (q) => q.queryKey[0] === 'report-library' && q.queryKey[2] === 'templates',
    });
  const create = useMutation({ mutationFn: createReportTemplate, onSuccess: refresh });
  const update = useMutation({
    mutationFn: ({ id, change }: { id: string; change: UpdateReportTemplate }) => updateReportTemplate(id, change),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (id: string) => deleteReportTemplate(id), onSuccess: refresh });
  return { create, update, remove };
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNotify } from '../../../shared/notify/useNotify';
import {
  deleteProcedureListRow,
  fetchProcedureList,
  saveProcedureListRow,
  type BodyOf,
  type ProcedureListKind,
  type RowOf,
} from '../../../api/procedures';

/**
 * The lists of procedure management, cached under the organization's key (so refreshing the
 * organization refreshes them too).
 */
export const procedureListKey = (bucketId: string, kind: ProcedureListKind) =>
  ['buckets', bucketId, 'procedure-management', kind] as const;

export function useProcedureList<K extends ProcedureListKind>(bucketId: string, kind: K) {
  return useQuery({
    queryKey: procedureListKey(bucketId, kind),
    queryFn: ({ signal }) => fetchProcedureList(bucketId, kind, signal),
  });
}

/**
 * Refresh lists after a change. A deleted device group leaves its devices and procedures, so
 * every list is refreshed whatever changed.
 */
export function useRefreshProcedureLists(bucketId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: ['buckets', bucketId, 'procedure-management'] }),
    [queryClient, bucketId],
  );
}

/** Save (create when `id` is null) one row of a list. */
export function useSaveRow<K extends ProcedureListKind>(bucketId: string, kind: K) {
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: BodyOf<K> }): Promise<RowOf<K>> =>
      saveProcedureListRow(bucketId, kind, id, body),
  });
}

export function useDeleteRow(bucketId: string, kind: ProcedureListKind) {
  return useMutation({ mutationFn: (id: string) => deleteProcedureListRow(bucketId, kind, id) });
}

/**
 * A change of the lists run from a panel: once `change` succeeds it says `done` and reloads the
 * lists; a failure is said instead.
 */
export function useListChange(bucketId: string) {
  const notify = useNotify();
  const refresh = useRefreshProcedureLists(bucketId);
  return async (change: () => Promise<unknown>, done: string) => {
    try {
      await change();
      notify.success(done);
      await refresh();
    } catch (error) {
      notify.error(error);
    }
  };
}

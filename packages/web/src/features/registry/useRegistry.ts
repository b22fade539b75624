import type { RegistryQuery } from '@yyp/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchDevices, fetchProcedures, fetchRegistryBuckets, queryRegistry } from '../../api/registry';
import { useSessionState } from '../../shared/session/useSessionState';

export const registryKeys = {
  buckets: ['registry-buckets'] as const,
  list: (bucketId: string, query: RegistryQuery) => ['buckets', bucketId, 'registry', query] as const,
  all: (bucketId: string) => ['buckets', bucketId, 'registry'] as const,
  procedures: (bucketId: string) => ['buckets', bucketId, 'procedures'] as const,
  devices: (bucketId: string) => ['buckets', bucketId, 'devices'] as const,
};

/** The organizations where the caller works at the desk (GET registry-buckets): the page's picker and the navbar. */
export function useRegistryBuckets() {
  const { session } = useSessionState();
  return useQuery({
    queryKey: registryKeys.buckets,
    queryFn: ({ signal }) => fetchRegistryBuckets(signal),
    enabled: Boolean(session?.accessToken),
    staleTime: 60_000,
  });
}

/** One page of the organization's scheduled exams (POST buckets/{id}/registry/query). */
export function useRegistryPage(bucketId: string | undefined, query: RegistryQuery) {
  return useQuery({
    queryKey: registryKeys.list(bucketId ?? '', query),
    queryFn: ({ signal }) => queryRegistry(bucketId as string, query, signal),
    enabled: Boolean(bucketId),
    placeholderData: keepPreviousData,
  });
}

/** The organization's procedures and devices for the form; a failure leaves modality-only input. */
export function useProceduresAndDevices(bucketId: string | undefined) {
  const procedures = useQuery({
    queryKey: registryKeys.procedures(bucketId ?? ''),
    queryFn: ({ signal }) => fetchProcedures(bucketId as string, signal),
    enabled: Boolean(bucketId),
    staleTime: 60_000,
  });
  const devices = useQuery({
    queryKey: registryKeys.devices(bucketId ?? ''),
    queryFn: ({ signal }) => fetchDevices(bucketId as string, signal),
    enabled: Boolean(bucketId),
    staleTime: 60_000,
  });
  return { procedures, devices };
}

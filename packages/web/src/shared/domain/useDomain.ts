import { useQuery } from '@tanstack/react-query';
import { defaultDomainConfig, type DomainConfig } from '@yyp/contracts';
import { fetchDomain } from '../../api/domain';
import { queryKeys } from '../../api/queryClient';

export interface DomainState {
  /** Branding and policy; the defaults stand in while loading or when the call fails. */
  domain: DomainConfig;
  isLoading: boolean;
  isLoaded: boolean;
}

/** Domain configuration (public). "Domain info failure yields no domain" (spec 001 §8): defaults. */
export function useDomain(): DomainState {
  const query = useQuery({
    queryKey: queryKeys.domain,
    queryFn: ({ signal }) => fetchDomain(signal),
    staleTime: 5 * 60_000,
  });
  return {
    domain: query.data ?? defaultDomainConfig,
    isLoading: query.isPending,
    isLoaded: query.isSuccess,
  };
}

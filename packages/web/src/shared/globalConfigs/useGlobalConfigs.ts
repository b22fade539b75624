import { GLOBAL_CONFIG_KEYS, type GlobalConfigValues } from '@yyp/contracts';
import { useQuery } from '@tanstack/react-query';
import { fetchGlobalConfigs } from '../../api/globalConfigs';

/** The query key of every platform setting (GET global-configs/query with all keys). */
export const GLOBAL_CONFIGS_KEY = ['global-configs'] as const;

/**
 * The platform's settings by key (help address, support telephone and e-mail, announcement), read
 * once per session and kept five minutes: the help page, the announcement banner and the platform
 * admin's tab share the one query.
 */
export function useGlobalConfigs(enabled = true) {
  return useQuery({
    queryKey: GLOBAL_CONFIGS_KEY,
    queryFn: ({ signal }) => fetchGlobalConfigs(GLOBAL_CONFIG_KEYS, signal) as Promise<GlobalConfigValues>,
    staleTime: 5 * 60_000,
    enabled,
  });
}

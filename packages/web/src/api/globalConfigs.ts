import {
  GLOBAL_CONFIG_KEYS,
  globalConfigCalls,
  type GlobalConfigAnswer,
  type GlobalConfigKey,
  type GlobalConfigUpdate,
  type GlobalConfigValues,
} from '@yyp/contracts';
import { callApi } from './call';

/** GET global-configs/query: the platform settings asked (null: unset). */
export function fetchGlobalConfigs(
  keys: readonly GlobalConfigKey[] = GLOBAL_CONFIG_KEYS,
  signal?: AbortSignal,
): Promise<GlobalConfigAnswer> {
  return callApi(globalConfigCalls.query, { query: { keys: keys.join(',') } }, { signal });
}

/** PUT global-configs (platform admins): the keys given are set, null clears one. */
export function updateGlobalConfigs(body: GlobalConfigUpdate): Promise<GlobalConfigValues> {
  return callApi(globalConfigCalls.update, { body });
}

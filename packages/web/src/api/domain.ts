import { adminCalls, type DomainConfig } from '@yyp/contracts';
import { callApi } from './call';

export function fetchDomain(signal?: AbortSignal): Promise<DomainConfig> {
  return callApi(adminCalls.domain, {}, { signal });
}

import { adminCalls, type DomainConfig, type UpdateDomainConfig } from '@yyp/contracts';
import { callApi } from './call';

export function fetchDomain(signal?: AbortSignal): Promise<DomainConfig> {
  return callApi(adminCalls.domain, {}, { signal });
}

/** PUT domain (platform admin): answers the whole configuration as stored (the footer sanitised). */
export function updateDomain(body: UpdateDomainConfig): Promise<DomainConfig> {
  return callApi(adminCalls.updateDomain, { body });
}

import type { DomainConfig } from '@yyp/contracts';
import { apiRequest } from './client';

export function fetchDomain(signal?: AbortSignal): Promise<DomainConfig> {
  return apiRequest<DomainConfig>('domain', { signal });
}

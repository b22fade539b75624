import type { CriticalValuePage, CriticalValuePageBody } from '@yyp/contracts';
import { apiRequest } from './client';

/** Critical values across the caller's organizations (POST critical-values/page-query). */
export function queryCriticalValuePage(body: CriticalValuePageBody, signal?: AbortSignal): Promise<CriticalValuePage> {
  return apiRequest<CriticalValuePage>('critical-values/page-query', { method: 'POST', body, signal });
}

import { reportSafetyCalls, type CriticalValuePage, type CriticalValuePageBody } from '@yyp/contracts';
import { callApi } from './call';

/** Critical values across the caller's organizations (POST critical-values/page-query). */
export function queryCriticalValuePage(body: CriticalValuePageBody, signal?: AbortSignal): Promise<CriticalValuePage> {
  return callApi(reportSafetyCalls.criticalPage, { body }, { signal });
}

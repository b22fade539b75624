import {
  statisticsCalls,
  type AllowedStatistics,
  type CallAnswer,
  type CallQuery,
  type StatQueryInput,
  type StatTable,
  type TableStatKind,
  type TurnaroundSlowest,
  type TurnaroundStep,
} from '@yyp/contracts';
import { callApi } from './call';

/** Statistics (issue 26; contracts statistics-calls.ts). */

export type StatReportDetail = CallAnswer<typeof statisticsCalls.reportDetail>;
export type StatReportDetailQueryInput = CallQuery<typeof statisticsCalls.reportDetail>;
export type TurnaroundQueryInput = StatQueryInput & { fromStep?: TurnaroundStep; toStep?: TurnaroundStep };

/**
 * The query as GET sends it: the organizations comma-separated (the contract's GET form), nothing
 * undefined.
 */
function asGetQuery<Q extends StatQueryInput>(query: Q): Q {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? value.join(',') : value;
  }
  return out as Q;
}

/** GET buckets/allowed-statistics: per organization the statistics actions held, and the caller's groups. */
export function fetchAllowedStatistics(signal?: AbortSignal): Promise<AllowedStatistics> {
  return callApi(statisticsCalls.allowedStatistics, {}, { signal });
}

/** GET statistics/<kind>: one statistic as a table. */
export function fetchStatTable(kind: TableStatKind, query: StatQueryInput, signal?: AbortSignal): Promise<StatTable> {
  return callApi(statisticsCalls.tables[kind].get, { query: asGetQuery(query) }, { signal });
}

/** GET statistics/turnaround: the interval between two steps as a table (median and 90th percentile). */
export function fetchTurnaround(query: TurnaroundQueryInput, signal?: AbortSignal): Promise<StatTable> {
  return callApi(statisticsCalls.turnaround, { query: asGetQuery(query) }, { signal });
}

/** GET statistics/turnaround/slowest: the slowest exams of the interval, and those past the target. */
export function fetchTurnaroundSlowest(query: TurnaroundQueryInput, signal?: AbortSignal): Promise<TurnaroundSlowest> {
  return callApi(statisticsCalls.turnaroundSlowest, { query: asGetQuery(query) }, { signal });
}

/** GET statistics/report-detail: a doctor's reports of the period (drill-down). */
export function fetchReportDetail(query: StatReportDetailQueryInput, signal?: AbortSignal): Promise<StatReportDetail> {
  return callApi(statisticsCalls.reportDetail, { query: asGetQuery(query) }, { signal });
}

/** GET statistics/<kind>/export-excel: the table with the same query as .xlsx. */
export function exportStatTable(kind: TableStatKind, query: StatQueryInput): Promise<Blob> {
  return callApi(
    statisticsCalls.tables[kind].exportExcel,
    // the contract's TableStatCalls leaves the export's body type open; a GET sends none
    { query: asGetQuery(query), body: undefined },
    { as: 'blob', timeoutMs: 120_000 },
  ) as Promise<unknown> as Promise<Blob>;
}

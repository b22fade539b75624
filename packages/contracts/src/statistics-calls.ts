import { defineCall, type Call } from './call.js';
import {
  allowedBucketsQuerySchema,
  allowedBucketsSchema,
  allowedStatisticsSchema,
  groupQualityQuerySchema,
  groupQualitySchema,
  STAT_OVERVIEW_KINDS,
  statBillingsQuerySchema,
  statBillingsSchema,
  statOverviewSchema,
  statReportDetailQuerySchema,
  statReportDetailSchema,
  turnaroundQuerySchema,
  turnaroundSlowestSchema,
  type StatOverviewKind,
} from './statistics-lists.js';
import { STAT_KINDS, statQuerySchema, statTableSchema, type StatKind } from './statistics.js';
import { idParams } from './report-calls.js';

/** The table statistics answered with the common query (turnaround takes its steps besides). */
export type TableStatKind = Exclude<StatKind, 'turnaround'>;
export const TABLE_STAT_KINDS = STAT_KINDS.filter((k): k is TableStatKind => k !== 'turnaround');

type Q = typeof statQuerySchema;
type T = typeof statTableSchema;
export interface TableStatCalls {
  get: Call<'GET', string, undefined, Q, undefined, T>;
  post: Call<'POST', string, undefined, undefined, Q, T>;
  /** the table (rows and totals) as .xlsx */
  exportExcel: Call<'GET', string, undefined, Q>;
}

const tableCalls = (kind: TableStatKind): TableStatCalls => ({
  get: defineCall({ method: 'GET', path: `statistics/${kind}`, query: statQuerySchema, answer: statTableSchema }),
  post: defineCall({ method: 'POST', path: `statistics/${kind}`, body: statQuerySchema, answer: statTableSchema }),
  exportExcel: defineCall({ method: 'GET', path: `statistics/${kind}/export-excel`, query: statQuerySchema }),
});

const overviewCalls = (kind: StatOverviewKind) => ({
  get: defineCall({
    method: 'GET',
    path: `statistics/overview/${kind}`,
    query: statQuerySchema,
    answer: statOverviewSchema,
  }),
  post: defineCall({
    method: 'POST',
    path: `statistics/overview/${kind}`,
    body: statQuerySchema,
    answer: statOverviewSchema,
  }),
});

/**
 * Statistics (issue 26; spec 001 §7 "Statistics": GET and POST under statistics/ for each, GET
 * buckets/allowed-statistics, GET buckets/allowed?action; groups/{id}/quality). The routes are in
 * modules/statistics/, the web's client in api/statistics.ts. statistics/critical-value is the
 * report-safety module's (reportSafetyCalls.criticalStats).
 */
export const statisticsCalls = {
  tables: Object.fromEntries(TABLE_STAT_KINDS.map((k) => [k, tableCalls(k)])) as Record<TableStatKind, TableStatCalls>,
  overview: Object.fromEntries(STAT_OVERVIEW_KINDS.map((k) => [k, overviewCalls(k)])) as Record<
    StatOverviewKind,
    ReturnType<typeof overviewCalls>
  >,
  reportDetail: defineCall({
    method: 'GET',
    path: 'statistics/report-detail',
    query: statReportDetailQuerySchema,
    answer: statReportDetailSchema,
  }),
  reportDetailPost: defineCall({
    method: 'POST',
    path: 'statistics/report-detail',
    body: statReportDetailQuerySchema,
    answer: statReportDetailSchema,
  }),
  /** .xlsx of the report detail (at most STAT_EXPORT_MAX rows: ExportLimitExceeded beyond) */
  reportDetailExport: defineCall({
    method: 'GET',
    path: 'statistics/report-detail/export-excel',
    query: statReportDetailQuerySchema,
  }),
  billings: defineCall({
    method: 'GET',
    path: 'statistics/billings',
    query: statBillingsQuerySchema,
    answer: statBillingsSchema,
  }),
  billingsPost: defineCall({
    method: 'POST',
    path: 'statistics/billings',
    body: statBillingsQuerySchema,
    answer: statBillingsSchema,
  }),
  billingsExport: defineCall({
    method: 'GET',
    path: 'statistics/billings/export-excel',
    query: statBillingsQuerySchema,
  }),
  turnaround: defineCall({
    method: 'GET',
    path: 'statistics/turnaround',
    query: turnaroundQuerySchema,
    answer: statTableSchema,
  }),
  turnaroundSlowest: defineCall({
    method: 'GET',
    path: 'statistics/turnaround/slowest',
    query: turnaroundQuerySchema,
    answer: turnaroundSlowestSchema,
  }),
  allowedStatistics: defineCall({
    method: 'GET',
    path: 'buckets/allowed-statistics',
    answer: allowedStatisticsSchema,
  }),
  allowedBuckets: defineCall({
    method: 'GET',
    path: 'buckets/allowed',
    query: allowedBucketsQuerySchema,
    answer: allowedBucketsSchema,
  }),
  groupQuality: defineCall({
    method: 'GET',
    path: 'groups/:groupId/quality',
    params: idParams('groupId'),
    query: groupQualityQuerySchema,
    answer: groupQualitySchema,
  }),
};

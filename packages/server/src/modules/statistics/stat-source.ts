import type { StatColumn, StatDimension, StatInterval, StatKind, StatRow, WorkloadVersion } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';

/**
 * What a statistic's source is asked (statistics.service.ts builds it after the range rules and
 * the organizations are settled): the organizations, the period as hospital days and as instants,
 * the grouping and the dimension of the rows.
 */
export interface StatRequest {
  kind: StatKind;
  by: StatDimension;
  interval: StatInterval;
  version: WorkloadVersion;
  /** hospital days (UTC+8), both included */
  from: string;
  to: string;
  /** the same period as instants: start ≤ t < end */
  start: Date;
  end: Date;
  /** the organizations counted (never empty: the service answers an empty table without asking) */
  bucketIds: string[];
  modality?: string | undefined;
  doctorId?: string | undefined;
  /** the money columns' currency, when the query names one */
  currency?: 'CNY' | 'USD' | undefined;
}

/** One period's values (the chart); periods without data may be left out: the service adds them. */
export interface StatPeriod {
  period: string;
  values: Partial<Record<StatColumn, number | null>>;
}

/**
 * What a source answers: its value columns in display order, the rows by the request's dimension
 * (labels may be left '' for the service to fill with organization names when by is 'bucket'),
 * the values per period and the totals over the whole period.
 */
export interface StatResult {
  columns: StatColumn[];
  rows: StatRow[];
  periods: StatPeriod[];
  totals: Partial<Record<StatColumn, number | null>>;
  currency?: 'CNY' | 'USD';
}

export type StatSource = (db: Db, req: StatRequest) => Promise<StatResult>;

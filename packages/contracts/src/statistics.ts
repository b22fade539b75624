import { z } from 'zod';
import type { Action } from './permissions.js';
import { currencySchema } from './money.js';
import { isoDateSchema } from './registry.js';

/**
 * Statistics (issue 26; spec 000 §1, §2, §5, §6, §9; spec 001 §7 "Statistics"). Every statistic
 * is asked with one query (a period, its grouping, the organizations) and answers one table: rows
 * by a dimension, the same values per period for the chart, and the totals. Days are hospital days
 * (UTC+8, HOSPITAL_UTC_OFFSET_MINUTES), as the registry's and the earnings' are.
 */

/** The statistics of spec 001 §7 answered as a table, by their path under statistics/. */
export const STAT_KINDS = [
  'report',
  'modality',
  'study',
  'arriver',
  'remote-report',
  'note-taker',
  'registrar',
  'report-positive',
  'group-payment',
  'consul',
  'quality',
  'turnaround',
] as const;
export type StatKind = (typeof STAT_KINDS)[number];

/** The statistics actions (spec 000 §6). */
export type StatAction = Extract<
  Action,
  | 'device_workload_stats'
  | 'statistics_report'
  | 'physician_workload_stats'
  | 'positive_rate_stats'
  | 'note_taker_stats'
  | 'consultation_stats'
  | 'org_workload_stats'
  | 'remote_report_stats'
  | 'registrar_stats'
  | 'critical_value_stats'
  | 'charge_details_stats'
  | 'quality_stats'
>;

/**
 * The action each statistic needs in every organization it covers. A caller is answered only for
 * the organizations where it holds it (spec 000 §6).
 */
export const STAT_ACTION: Record<StatKind | 'report-detail' | 'billings' | 'overview' | 'critical-value', StatAction> =
  {
    report: 'physician_workload_stats',
    'report-detail': 'physician_workload_stats',
    modality: 'device_workload_stats',
    study: 'org_workload_stats',
    overview: 'org_workload_stats',
    arriver: 'registrar_stats',
    registrar: 'registrar_stats',
    'remote-report': 'remote_report_stats',
    'note-taker': 'note_taker_stats',
    'report-positive': 'positive_rate_stats',
    'group-payment': 'charge_details_stats',
    billings: 'charge_details_stats',
    consul: 'consultation_stats',
    quality: 'quality_stats',
    'critical-value': 'critical_value_stats',
    turnaround: 'statistics_report',
  };

/** Grouping of the periods (spec 000 §9). A week starts on Monday. */
export const STAT_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type StatInterval = (typeof STAT_INTERVALS)[number];
/** The quick ranges of spec 000 §9. */
export const STAT_PRESETS = ['yesterday', 'last7', 'last30'] as const;
export type StatPreset = (typeof STAT_PRESETS)[number];
/** The stored preference "workload version" (spec 000 §9), simple by default. */
export const WORKLOAD_VERSIONS = ['simple', 'detailed'] as const;
export type WorkloadVersion = (typeof WORKLOAD_VERSIONS)[number];

/** What a table's rows are. */
export const STAT_DIMENSIONS = [
  'doctor',
  'modality',
  'bodyPart',
  'bucket',
  'device',
  'room',
  'registrar',
  'arriver',
  'noteTaker',
  'counterpart',
  'product',
  'level',
  'item',
  'hour',
] as const;
export type StatDimension = (typeof STAT_DIMENSIONS)[number];

/** The dimensions each statistic can be read by; the first is its default. */
export const STAT_DIMENSIONS_OF: Record<StatKind, readonly StatDimension[]> = {
  report: ['doctor', 'modality', 'bucket'],
  modality: ['modality', 'device', 'room', 'bucket'],
  study: ['bucket', 'modality'],
  arriver: ['arriver', 'bucket'],
  'remote-report': ['counterpart', 'bucket', 'modality'],
  'note-taker': ['noteTaker', 'bucket'],
  registrar: ['registrar', 'bucket'],
  'report-positive': ['modality', 'doctor', 'bodyPart', 'bucket'],
  'group-payment': ['bucket', 'product'],
  consul: ['bucket', 'counterpart'],
  quality: ['level', 'doctor', 'item', 'bucket'],
  turnaround: ['modality', 'room', 'doctor', 'hour'],
};

/**
 * The value columns a table may carry (counts unless named otherwise: *Fen are money in fen,
 * *Minutes durations, *Rate a share 0–1).
 */
export const STAT_COLUMNS = [
  'exams',
  'bodyParts',
  'written',
  'approved',
  'writtenBodyParts',
  'approvedBodyParts',
  'reports',
  'positive',
  'negative',
  'positiveRate',
  'registrations',
  'arrivals',
  'sent',
  'received',
  'reported',
  'cancelled',
  'medianMinutes',
  'p90Minutes',
  'orders',
  'paidFen',
  'refundedFen',
  'creditedFen',
  'netFen',
  'requested',
  'completed',
  'ratings',
  'ratingAverage',
  'graded',
  'levelA',
  'levelB',
  'levelC',
  'levelD',
  'unsatisfactory',
  'overTarget',
] as const;
export type StatColumn = (typeof STAT_COLUMNS)[number];

/* ---------- the range rules (spec 000 §5) ---------- */

/** A statistic over more days than this is refused (a server guard; spec 000 §5 names tighter ones). */
export const STAT_RANGE_MAX_YEARS = 5;

export type StatRangeProblem = 'StatisticsRangeInvalid' | 'StatisticsRangeTooLong';

const dayMs = 86_400_000;
const utcDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
/** The date `n` calendar months after an ISO date (the month's last day when it has fewer days). */
export function addMonths(iso: string, n: number): string {
  const d = utcDate(iso);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), last))).toISOString().slice(0, 10);
}
/** The days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((utcDate(to).getTime() - utcDate(from).getTime()) / dayMs) + 1;
}

/**
 * The longest range each statistic takes, as the last day allowed after `from` (inclusive):
 * device workload at most one month, note-taker at most one year (spec 000 §5), the rest
 * STAT_RANGE_MAX_YEARS. "At most one month" is from the 1st to the 31st of January, or from
 * 15 March to 14 April.
 */
export function lastDayAllowed(kind: StatKind | 'report-detail' | 'billings' | 'overview', from: string): string {
  const plus = (months: number) => {
    const end = utcDate(addMonths(from, months));
    return new Date(end.getTime() - dayMs).toISOString().slice(0, 10);
  };
  if (kind === 'modality') return plus(1);
  if (kind === 'note-taker') return plus(12);
  return plus(12 * STAT_RANGE_MAX_YEARS);
}

/** Why a range is refused, or null (to before from; beyond what the statistic takes). */
export function statRangeProblem(
  kind: StatKind | 'report-detail' | 'billings' | 'overview',
  from: string,
  to: string,
): StatRangeProblem | null {
  if (to < from) return 'StatisticsRangeInvalid';
  if (to > lastDayAllowed(kind, from)) return 'StatisticsRangeTooLong';
  return null;
}

/** Remote report statistics over more than a year answer, with a warning (spec 000 §5). */
export function statRangeWarning(kind: StatKind, from: string, to: string): 'rangeBeyondYear' | null {
  return kind === 'remote-report' && to > lastDayAllowed('note-taker', from) ? 'rangeBeyondYear' : null;
}

/* ---------- periods ---------- */

/** The period a hospital day belongs to: the day, the Monday of its week, 'YYYY-MM', or 'YYYY'. */
export function periodOf(day: string, interval: StatInterval): string {
  if (interval === 'day') return day;
  if (interval === 'month') return day.slice(0, 7);
  if (interval === 'year') return day.slice(0, 4);
  const d = utcDate(day);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * dayMs).toISOString().slice(0, 10);
}

/** Every period from `from` to `to`, in order (the chart's axis, empty periods included). */
export function periodsBetween(from: string, to: string, interval: StatInterval): string[] {
  const out: string[] = [];
  for (let t = utcDate(from).getTime(); t <= utcDate(to).getTime(); t += dayMs) {
    const p = periodOf(new Date(t).toISOString().slice(0, 10), interval);
    if (out[out.length - 1] !== p) out.push(p);
  }
  return out;
}

/** The preset ranges of spec 000 §9 on a hospital day `today`. */
export function presetRange(preset: StatPreset, today: string): { from: string; to: string } {
  const shift = (n: number) => new Date(utcDate(today).getTime() + n * dayMs).toISOString().slice(0, 10);
  if (preset === 'yesterday') return { from: shift(-1), to: shift(-1) };
  return preset === 'last7' ? { from: shift(-6), to: today } : { from: shift(-29), to: today };
}

/* ---------- the query ---------- */

const id = z.string().min(1).max(64);
/** Organizations as an array (POST) or a comma-separated list (GET). */
const idList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : v),
  z.array(id.trim()).max(200),
);

/**
 * The query of every statistic (GET: the query string; POST: the body). from and to are hospital
 * days, both included, and required (spec 000 §5 "time period required"). Without bucketIds and
 * groupId: every organization where the caller holds the statistic's action; with groupId: those
 * of the group (which needs enableStat); with bucketIds: those, each needing the action.
 */
export const statQuerySchema = z.object({
  from: isoDateSchema,
  to: isoDateSchema,
  interval: z.enum(STAT_INTERVALS).default('day'),
  bucketIds: idList.optional(),
  groupId: id.optional(),
  by: z.enum(STAT_DIMENSIONS).optional(),
  version: z.enum(WORKLOAD_VERSIONS).default('simple'),
  /** one modality (CT, MR, …) */
  modality: z.string().trim().max(16).optional(),
  /** one doctor (an account id) */
  doctorId: id.optional(),
  /** the money columns' currency (income statistics count one: CNY unless USD is asked) */
  currency: currencySchema.optional(),
});
export type StatQuery = z.output<typeof statQuerySchema>;
export type StatQueryInput = z.input<typeof statQuerySchema>;

const values = z.record(z.string(), z.number().nullable());

/** Filters that open a row's exams in /studies (drill-down), as the study list's filter fields. */
export const statDrillSchema = z.record(z.string(), z.string());

export const statRowSchema = z.object({
  /** the dimension's value: an account, modality, organization, … id ('' for none) */
  key: z.string(),
  label: z.string(),
  values,
  /** for a detailed workload row: the second dimension (the modality of a doctor's row) */
  sub: z.string().optional(),
});
export type StatRow = z.infer<typeof statRowSchema>;

export const statTableSchema = z.object({
  kind: z.enum(STAT_KINDS),
  from: z.string(),
  to: z.string(),
  interval: z.enum(STAT_INTERVALS),
  by: z.enum(STAT_DIMENSIONS),
  /** the organizations counted */
  buckets: z.array(z.object({ id: z.string(), name: z.string() })),
  /** the value columns, in display order */
  columns: z.array(z.enum(STAT_COLUMNS)),
  rows: z.array(statRowSchema),
  /** the columns per period, every period of the range (the chart) */
  periods: z.array(z.object({ period: z.string(), values })),
  totals: values,
  /** money columns' currency (income statistics) */
  currency: z.enum(['CNY', 'USD']).optional(),
  warning: z.enum(['rangeBeyondYear']).nullable(),
});
export type StatTable = z.infer<typeof statTableSchema>;

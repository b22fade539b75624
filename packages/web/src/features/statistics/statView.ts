import {
  addMonths,
  formatMoney,
  hospitalDate,
  presetRange,
  STAT_ACTION,
  STAT_COLUMN_LABELS,
  STAT_DIMENSION_LABELS,
  STAT_KIND_LABELS,
  STAT_KINDS,
  STAT_WORDS,
  type AllowedStatistics,
  type Currency,
  type Language,
  type StatColumn,
  type StatDimension,
  type StatInterval,
  type StatKind,
  type StatPreset,
  type StatQueryInput,
  type StatRow,
  type TurnaroundStep,
  type WorkloadVersion,
} from '@yyp/contracts';

/** The quick ranges: spec 000 §9's three, and the last calendar month (issue 26's "done when"). */
export const PERIOD_PRESETS = ['yesterday', 'last7', 'last30', 'lastMonth'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

/** A preset's days on the hospital day `today` (UTC+8, contracts hospitalDate). */
export function periodOfPreset(preset: PeriodPreset, today: string = hospitalDate(new Date())) {
  if (preset !== 'lastMonth') return presetRange(preset as StatPreset, today);
  const thisMonth = `${today.slice(0, 7)}-01`;
  const from = addMonths(thisMonth, -1);
  const to = new Date(Date.parse(`${thisMonth}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** What the period bar asks: the statistic's query as the page keeps it. */
export interface StatSelection {
  from: string;
  to: string;
  interval: StatInterval;
  /** chosen organizations; none: the whole group (or every organization allowed) */
  bucketIds: string[];
  by: StatDimension;
  version: WorkloadVersion;
  fromStep: TurnaroundStep;
  toStep: TurnaroundStep;
  /** the income statistics' currency (one per table) */
  currency: Currency;
}

/** The organizations of a group (every organization when no group is chosen) holding the statistic's action. */
export function bucketsFor(allowed: AllowedStatistics | undefined, groupId: string | undefined, kind: StatKind) {
  return (allowed?.items ?? []).filter(
    (item) => (groupId === undefined || item.groupId === groupId) && item.actions.includes(STAT_ACTION[kind]),
  );
}

/** The statistics the caller may see in a group: those whose action it holds in one of its organizations. */
export function visibleKinds(allowed: AllowedStatistics | undefined, groupId: string | undefined): StatKind[] {
  return STAT_KINDS.filter((kind) => bucketsFor(allowed, groupId, kind).length > 0);
}

/**
 * The query the server is asked: the chosen organizations, else the group's (which needs the
 * group's enableStat), else every organization where the caller holds the action. The version
 * goes only with the doctor workload, the currency only with the income.
 */
export function queryOf(kind: StatKind, s: StatSelection, groupId: string | undefined): StatQueryInput {
  return {
    from: s.from,
    to: s.to,
    interval: s.interval,
    ...(s.bucketIds.length > 0 ? { bucketIds: s.bucketIds } : groupId ? { groupId } : {}),
    by: s.by,
    ...(kind === 'report' ? { version: s.version } : {}),
    ...(kind === 'group-payment' ? { currency: s.currency } : {}),
  };
}

/** How a column's values read: money in fen, a 0–1 share, minutes, an average, or a count. */
export type ColumnFormat = 'money' | 'rate' | 'minutes' | 'average' | 'count';
export function columnFormat(column: StatColumn): ColumnFormat {
  if (column.endsWith('Fen')) return 'money';
  if (column.endsWith('Rate')) return 'rate';
  if (column.endsWith('Minutes')) return 'minutes';
  if (column === 'ratingAverage') return 'average';
  return 'count';
}

/** A value as the table shows it (¥12.50, 42.9%, 35.5); '—' for none. */
export function formatValue(column: StatColumn, value: number | null | undefined, currency: Currency = 'CNY'): string {
  if (value === null || value === undefined) return '—';
  switch (columnFormat(column)) {
    case 'money':
      return formatMoney(value, currency);
    case 'rate':
      return `${(value * 100).toFixed(1)}%`;
    case 'minutes':
    case 'average':
      return Number.isInteger(value) ? String(value) : value.toFixed(1);
    default:
      return String(value);
  }
}

/** A value as the chart draws it (yuan, percent, the number itself). */
export function chartValue(column: StatColumn, value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const format = columnFormat(column);
  if (format === 'money') return value / 100;
  if (format === 'rate') return Math.round(value * 1000) / 10;
  return value;
}

/** The contracts' words (statistics-labels.ts) in the interface language. */
export function statWords(language: Language) {
  return {
    kind: (kind: StatKind) => STAT_KIND_LABELS[kind][language],
    dimension: (by: StatDimension) => STAT_DIMENSION_LABELS[by][language],
    column: (column: StatColumn) => STAT_COLUMN_LABELS[column][language],
    period: STAT_WORDS.period[language],
    total: STAT_WORDS.total[language],
    /** a row's name ('(none)' for the rows of no doctor, room, …) */
    row: (row: Pick<StatRow, 'label'>) => row.label || STAT_WORDS.none[language],
  };
}
export type StatWords = ReturnType<typeof statWords>;

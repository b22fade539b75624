import {
  hospitalDayStart,
  periodsBetween,
  STAT_ACTION,
  STAT_COLUMN_LABELS,
  STAT_DIMENSION_LABELS,
  STAT_DIMENSIONS_OF,
  STAT_KIND_LABELS,
  STAT_WORDS,
  statRangeProblem,
  statRangeWarning,
  type Language,
  type StatColumn,
  type StatAction,
  type StatKind,
  type StatQuery,
  type StatTable,
} from '@yyp/contracts';
import { denialAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { xlsxSheet, type XlsxColumn, type XlsxFile } from '../../platform/xlsx.js';
import type { StatRequest, StatResult, StatSource } from './stat-source.js';
import { DetailStatistics } from './statistics-detail.service.js';
import { MoneyStatistics } from './statistics-money.service.js';
import { TurnaroundStatistics } from './statistics-turnaround.service.js';
import { loadStatScope, pickBuckets, type ScopeBucket, type StatScope } from './statistics.scope.js';

import type { StatCaller } from './statistics-caller.js';

export type { StatCaller };

/** Values that are not counts: an empty period has none rather than 0. */
const MEASURES = new Set<StatColumn>(['medianMinutes', 'p90Minutes', 'positiveRate', 'ratingAverage']);

/**
 * The statistics (issue 26): settles the range rules (spec 000 §5) and the organizations (by the
 * statistic's action, statistics.scope.ts), asks the statistic's source, and answers the table with
 * every period of the range and the organizations' names.
 */
export class StatisticsService {
  /** report detail, overview, allowed organizations, group quality */
  readonly detail: DetailStatistics;
  /** statistics/billings */
  readonly money: MoneyStatistics;
  /** statistics/turnaround and its slowest exams */
  readonly turnaround: TurnaroundStatistics;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sources: Partial<Record<StatKind, StatSource>>,
  ) {
    this.detail = new DetailStatistics(db, clock, this);
    this.money = new MoneyStatistics(db, clock, this);
    this.turnaround = new TurnaroundStatistics(db, clock, this);
  }

  /** The range checked, the organizations picked: what a source is asked, and the names. */
  async request(
    caller: StatCaller,
    kind: StatKind,
    q: StatQuery,
    action = STAT_ACTION[kind],
  ): Promise<{ req: StatRequest; buckets: ScopeBucket[]; scope: StatScope }> {
    const problem = statRangeProblem(kind, q.from, q.to);
    if (problem) throw new AppError(problem, `The period ${q.from} to ${q.to} is not accepted for ${kind}`);
    const by = q.by ?? STAT_DIMENSIONS_OF[kind][0]!;
    if (!STAT_DIMENSIONS_OF[kind].includes(by)) {
      throw new AppError('ValidationError', `${kind} is not counted by ${by}`, { by });
    }
    const scope = await loadStatScope(this.db, caller.account);
    const buckets = await this.pick(caller, scope, action, q);
    const start = hospitalDayStart(q.from);
    const end = new Date(hospitalDayStart(q.to).getTime() + 86_400_000);
    const req: StatRequest = {
      kind,
      by,
      interval: q.interval,
      version: q.version,
      from: q.from,
      to: q.to,
      start,
      end,
      bucketIds: buckets.map((b) => b.id),
      modality: q.modality,
      doctorId: q.doctorId,
      currency: q.currency,
    };
    return { req, buckets, scope };
  }

  private async pick(caller: StatCaller, scope: StatScope, action: StatAction, q: StatQuery) {
    try {
      return pickBuckets(scope, action, q);
    } catch (e) {
      if (e instanceof AppError && (e.code === 'InsufficientPermissions' || e.code === 'StatisticsDisabled')) {
        await writeAudit(this.db, caller.ctx, denialAudit(caller.account, q.bucketIds?.[0], action, 'forbidden'));
      }
      throw e;
    }
  }

  /** GET/POST statistics/{kind}: the table. */
  async table(caller: StatCaller, kind: StatKind, q: StatQuery): Promise<StatTable> {
    // The range rules and the organizations first: a refusal never depends on the source.
    const { req, buckets } = await this.request(caller, kind, q);
    const source = this.sources[kind];
    if (!source) throw new AppError('NotFound', `No statistic ${kind}`);
    const result = await source(this.db, req);
    return shapeTable(req, buckets, result, statRangeWarning(kind, q.from, q.to));
  }

  /** GET statistics/{kind}/export-excel: the table's rows and totals as .xlsx, in the caller's language. */
  async exportTable(caller: StatCaller, kind: StatKind, q: StatQuery): Promise<XlsxFile> {
    const table = await this.table(caller, kind, q);
    const language: Language = caller.account.preferences.language ?? 'chs';
    type Line = { label: string; sub?: string | undefined; values: Record<string, number | null> };
    const columns: XlsxColumn<Line>[] = [
      { header: STAT_DIMENSION_LABELS[table.by], width: 24, cell: (r) => r.label },
      ...(table.rows.some((r) => r.sub !== undefined)
        ? [{ header: STAT_DIMENSION_LABELS.modality, width: 12, cell: (r: Line) => r.sub ?? '' }]
        : []),
      ...table.columns.map((c) => ({
        header: STAT_COLUMN_LABELS[c],
        width: 14,
        cell: (r: Line) => cellValue(c, r.values[c] ?? null),
      })),
    ];
    const lines: Line[] = [...table.rows, { label: STAT_WORDS.total[language], values: table.totals }];
    const now = this.clock.now();
    const body = await xlsxSheet(STAT_KIND_LABELS[kind][language].slice(0, 31), columns, lines, language, now);
    return { body, filename: `statistics-${kind}-${table.from}-${table.to}.xlsx`, count: table.rows.length };
  }
}

/** Money in yuan with two decimals, rates in percent with one, the rest as counted. */
function cellValue(c: StatColumn, v: number | null): string | number {
  if (v === null) return '';
  if (c.endsWith('Fen')) return Math.round(v) / 100;
  if (c === 'positiveRate') return Math.round(v * 1000) / 10;
  return v;
}

/** Every period of the range (empty ones with 0, or null for a measure), rows labelled. */
export function shapeTable(
  req: StatRequest,
  buckets: readonly { id: string; name: string }[],
  result: StatResult,
  warning: 'rangeBeyondYear' | null,
): StatTable {
  const names = new Map(buckets.map((b) => [b.id, b.name]));
  const empty = () =>
    Object.fromEntries(result.columns.map((c) => [c, MEASURES.has(c) ? null : 0])) as Record<string, number | null>;
  const byPeriod = new Map(result.periods.map((p) => [p.period, p.values]));
  return {
    kind: req.kind,
    from: req.from,
    to: req.to,
    interval: req.interval,
    by: req.by,
    buckets: buckets.map((b) => ({ id: b.id, name: b.name })),
    columns: result.columns,
    rows: result.rows.map((r) => ({
      ...r,
      label: r.label || (req.by === 'bucket' ? (names.get(r.key) ?? r.key) : r.key),
    })),
    periods: periodsBetween(req.from, req.to, req.interval).map((period) => ({
      period,
      values: { ...empty(), ...(byPeriod.get(period) ?? {}) },
    })),
    totals: { ...empty(), ...result.totals },
    ...(result.currency ? { currency: result.currency } : {}),
    warning,
  };
}

import { hospitalDayStart, type StatColumn, type StatRow } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { deskAccountLabels } from './stat-desk-rollup.store.js';
import { arriverStatsRaw, registrarStatsRaw } from './stat-desk.store.js';
import { sumRolled, sumRolledPeriods } from './stat-monthly.store.js';
import { refreshRollups, rollupQuery, type RollupKind } from './stat-rollup.store.js';
import type { StatRequest, StatResult, StatSource } from './stat-source.js';

/**
 * The front desk's statistics (registrar, arriver) served by the rollups rg, rm and ar
 * (stat-desk-rollup.store.ts) with the answers the raw count (stat-desk.store.ts) gives: rows by
 * person (created_by / arrived_by, '' for none, labelled with the account's name or username) or
 * by organization, sorted by the first column then the label; periods and totals. A request whose
 * instants are not whole hospital days is counted from the raw rows.
 */
const DAY_MS = 86_400_000;

function wholeDays(req: StatRequest): boolean {
  return (
    req.start.getTime() === hospitalDayStart(req.from).getTime() &&
    req.end.getTime() === hospitalDayStart(req.to).getTime() + DAY_MS
  );
}

interface DeskPlan {
  columns: StatColumn[];
  kind: (req: StatRequest) => RollupKind;
  values: (n: number, s: number) => Record<string, number>;
}

async function served(db: Db, req: StatRequest, plan: DeskPlan): Promise<StatResult> {
  await refreshRollups(db, req.bucketIds);
  const kind = plan.kind(req);
  const q = rollupQuery(req, [kind], { k2: kind === 'rg' ? undefined : req.modality || undefined });
  const byBucket = req.by === 'bucket';
  const [sums, periodSums] = await Promise.all([
    sumRolled(db, q, byBucket ? 'bucket' : 'k1'),
    sumRolledPeriods(db, q, req.interval),
  ]);
  const labels = byBucket
    ? new Map<string, string>()
    : await deskAccountLabels(
        db,
        sums.map((r) => r.key),
      );
  const rows: StatRow[] = sums
    .filter((r) => r.n > 0)
    .map((r) => ({ key: r.key, label: labels.get(r.key) ?? '', values: plan.values(r.n, r.s) }));
  const first = plan.columns[0]!;
  rows.sort((x, y) => (y.values[first] ?? 0) - (x.values[first] ?? 0) || x.label.localeCompare(y.label));
  const periods = periodSums
    .filter((p) => p.n > 0)
    .map((p) => ({ period: p.period, values: plan.values(p.n, p.s) }))
    .sort((x, y) => (x.period < y.period ? -1 : x.period > y.period ? 1 : 0));
  const n = sums.reduce((t, r) => t + r.n, 0);
  const s = sums.reduce((t, r) => t + r.s, 0);
  return { columns: plan.columns, rows, periods, totals: plan.values(n, s) };
}

const REGISTRAR: DeskPlan = {
  columns: ['registrations', 'exams'],
  kind: (req) => (req.modality ? 'rm' : 'rg'),
  values: (n, s) => ({ registrations: n, exams: s }),
};

const ARRIVER: DeskPlan = {
  columns: ['arrivals'],
  kind: () => 'ar',
  values: (n) => ({ arrivals: n }),
};

export const registrarStats: StatSource = (db, req) =>
  wholeDays(req) ? served(db, req, REGISTRAR) : registrarStatsRaw(db, req);

export const arriverStats: StatSource = (db, req) =>
  wholeDays(req) ? served(db, req, ARRIVER) : arriverStatsRaw(db, req);

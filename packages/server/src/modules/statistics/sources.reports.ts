import type { StatColumn, StatDimension, StatKind, StatRow } from '@yyp/contracts';
import type { Db } from '../../platform/db.js';
import { accountNames, deviceLabels, type DeviceKey } from './stat-reports.store.js';
import { sumRolled, sumRolledPeriods } from './stat-monthly.store.js';
import { refreshRollups, type RollupKey, type RollupKind, rollupQuery, type RollupSum } from './stat-rollup.store.js';
import type { StatPeriod, StatRequest, StatResult, StatSource } from './stat-source.js';

type Values = Partial<Record<StatColumn, number | null>>;

/** How a statistic reads the rollups: its kinds, its columns and how a key's sums become values. */
interface RollupPlan {
  kinds: RollupKind[];
  columns: StatColumn[];
  /** the key column of each dimension */
  keys: Partial<Record<StatDimension, RollupKey>>;
  /** dimensions whose keys are accounts (labelled with their names) */
  people: StatDimension[];
  /** the values of one row (or period, or the totals) from its sums by kind */
  values: (sums: ReadonlyMap<RollupKind, { n: number; s: number }>) => Values;
  /** which request filters apply: doctorId on k1, modality on k2 */
  filters: { doctor: boolean; modality: boolean };
}

const zero = { n: 0, s: 0 };

const PLANS: Partial<Record<StatKind, RollupPlan>> = {
  // Physician workload: a doctor's approved reports under written as their creator and under
  // approved as their approver, on the approval day.
  report: {
    kinds: ['rw', 'ra'],
    columns: ['written', 'approved', 'writtenBodyParts', 'approvedBodyParts'],
    keys: { doctor: 'k1', modality: 'k2', bucket: 'bucket' },
    people: ['doctor'],
    values: (m) => {
      const w = m.get('rw') ?? zero;
      const a = m.get('ra') ?? zero;
      return { written: w.n, approved: a.n, writtenBodyParts: w.s, approvedBodyParts: a.s };
    },
    filters: { doctor: true, modality: true },
  },
  // Positive rate: approved reports whose positive flag is set, by the reporting doctor (creator).
  'report-positive': {
    kinds: ['rp'],
    columns: ['reports', 'positive', 'negative', 'positiveRate'],
    keys: { modality: 'k2', doctor: 'k1', bodyPart: 'k3', bucket: 'bucket' },
    people: ['doctor'],
    values: (m) => {
      const p = m.get('rp') ?? zero;
      return { reports: p.n, positive: p.s, negative: p.n - p.s, positiveRate: p.n > 0 ? p.s / p.n : null };
    },
    filters: { doctor: true, modality: true },
  },
  // Note-taker workload: approved reports a note-taker typed.
  'note-taker': {
    kinds: ['nt'],
    columns: ['reports', 'bodyParts'],
    keys: { noteTaker: 'k1', bucket: 'bucket' },
    people: ['noteTaker'],
    values: (m) => {
      const t = m.get('nt') ?? zero;
      return { reports: t.n, bodyParts: t.s };
    },
    filters: { doctor: false, modality: false },
  },
  // Organization workload: live exams received, their body parts, reports approved.
  study: {
    kinds: ['ex', 'ra'],
    columns: ['exams', 'bodyParts', 'reported'],
    keys: { bucket: 'bucket', modality: 'k2' },
    people: [],
    values: (m) => {
      const e = m.get('ex') ?? zero;
      return { exams: e.n, bodyParts: e.s, reported: (m.get('ra') ?? zero).n };
    },
    filters: { doctor: false, modality: true },
  },
};

/** Groups sums by a label (a row's key and sub, a period) into their kinds. */
function byGroup<T extends { kind: RollupKind; n: number; s: number }>(
  sums: readonly T[],
  group: (r: T) => string,
): Map<string, Map<RollupKind, { n: number; s: number }>> {
  const out = new Map<string, Map<RollupKind, { n: number; s: number }>>();
  for (const r of sums) {
    const g = group(r);
    let kinds = out.get(g);
    if (!kinds) out.set(g, (kinds = new Map()));
    const prev = kinds.get(r.kind) ?? zero;
    kinds.set(r.kind, { n: prev.n + r.n, s: prev.s + r.s });
  }
  return out;
}

/** A statistic served by the rollups: refresh the organizations' marked days, then sum (whole months from stat_monthly). */
function rollupSource(plan: RollupPlan): StatSource {
  return async (db: Db, req: StatRequest): Promise<StatResult> => {
    await refreshRollups(db, req.bucketIds);
    const q = rollupQuery(req, plan.kinds, {
      k1: plan.filters.doctor ? req.doctorId : undefined,
      k2: plan.filters.modality ? req.modality : undefined,
    });
    const key = plan.keys[req.by] ?? 'bucket';
    const detailed = req.kind === 'report' && req.version === 'detailed' && req.by === 'doctor';
    const [sums, periodSums] = await Promise.all([
      sumRolled(db, q, key, detailed ? 'k2' : undefined),
      sumRolledPeriods(db, q, req.interval),
    ]);
    const rows = await labelRows(db, plan, req.by, sums, detailed);
    const periods: StatPeriod[] = [...byGroup(periodSums, (r) => r.period)].map(([period, m]) => ({
      period,
      values: plan.values(m),
    }));
    const totals = plan.values(byGroup(sums, () => '').get('') ?? new Map());
    return { columns: plan.columns, rows, periods, totals };
  };
}

const SEP = '\u0000';

async function labelRows(
  db: Db,
  plan: RollupPlan,
  by: StatDimension,
  sums: readonly RollupSum[],
  detailed: boolean,
): Promise<StatRow[]> {
  const groups = byGroup(sums, (r) => `${r.key}${SEP}${r.sub}`);
  const names = plan.people.includes(by) ? await accountNames(db, [...new Set(sums.map((r) => r.key))]) : new Map();
  const rows = [...groups].map(([g, m]) => {
    const [key = '', sub = ''] = g.split(SEP);
    const row: StatRow = { key, label: names.get(key) ?? (by === 'bucket' ? '' : key), values: plan.values(m) };
    if (detailed) row.sub = sub;
    return row;
  });
  return rows.sort((a, b) => a.label.localeCompare(b.label, 'zh') || (a.sub ?? '').localeCompare(b.sub ?? ''));
}

const DEVICE_COLUMNS: StatColumn[] = ['exams', 'bodyParts'];

/**
 * Device workload (device_workload_stats; a range of at most a month) from the rollups' ex rows:
 * the live exams and their body parts by modality (k2), by organization, or by the device of the
 * exam's first scheduled exam (k1) and its room, both read now ('' for an exam that came
 * unscheduled or whose device is gone), as the direct count (deviceWorkloadRaw) answers.
 */
const modalitySource: StatSource = async (db, req) => {
  await refreshRollups(db, req.bucketIds);
  const q = rollupQuery(req, ['ex'], { k2: req.modality });
  const by = req.by as DeviceKey;
  const key: RollupKey = by === 'modality' ? 'k2' : by === 'bucket' ? 'bucket' : 'k1';
  const [sums, periodSums] = await Promise.all([sumRolled(db, q, key), sumRolledPeriods(db, q, req.interval)]);
  const devices =
    by === 'device' || by === 'room'
      ? await deviceLabels(
          db,
          sums.map((r) => r.key),
        )
      : new Map();
  const lines = new Map<string, { key: string; label: string; exams: number; bodyParts: number }>();
  for (const r of sums) {
    const d = devices.get(r.key);
    const [k, label] =
      by === 'device' ? [d ? r.key : '', d?.name ?? ''] : by === 'room' ? [d?.room ?? '', d?.room ?? ''] : [r.key, ''];
    const line = lines.get(k) ?? { key: k, label, exams: 0, bodyParts: 0 };
    line.exams += r.n;
    line.bodyParts += r.s;
    lines.set(k, line);
  }
  const rows = [...lines.values()]
    .map((l) => ({ key: l.key, label: l.label, values: { exams: l.exams, bodyParts: l.bodyParts } }))
    .sort((a, b) => a.label.localeCompare(b.label, 'zh') || a.key.localeCompare(b.key));
  const periods = periodSums.map((p) => ({ period: p.period, values: { exams: p.n, bodyParts: p.s } }));
  const totals = {
    exams: rows.reduce((n, r) => n + r.values.exams, 0),
    bodyParts: rows.reduce((n, r) => n + r.values.bodyParts, 0),
  };
  return { columns: DEVICE_COLUMNS, rows, periods, totals };
};

/** The statistics counted from exams and reports (served by the daily rollups). */
export const reportSources: Partial<Record<StatKind, StatSource>> = {
  report: rollupSource(PLANS.report!),
  'report-positive': rollupSource(PLANS['report-positive']!),
  'note-taker': rollupSource(PLANS['note-taker']!),
  study: rollupSource(PLANS.study!),
  modality: modalitySource,
};

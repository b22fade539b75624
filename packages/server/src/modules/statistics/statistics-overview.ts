import {
  GROUP_ACCESS_LEVELS,
  periodsBetween,
  type StatOverview,
  type StatOverviewKind,
  type StatQuery,
  type StatRow,
} from '@yyp/contracts';
import { denialAudit, writeAudit } from '../../platform/audit.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { getDomainConfig } from '../domain/index.js';
import { accountNames } from '../reports/index.js';
import { groupsAllowingOverview } from './stat-detail.store.js';
import { sumRolled, sumRolledPeriods } from './stat-monthly.store.js';
import { refreshRollups, rollupQuery } from './stat-rollup.store.js';
import type { ScopeBucket, StatScope } from './statistics.scope.js';
import type { StatCaller, StatisticsService } from './statistics.service.js';

/**
 * Who sees the overview (spec 000: the domain's and a group's allowOverview, "overview screen"):
 * the overview is the big-screen summary of a group's organizations, so beyond org_workload_stats
 * in each organization counted it needs the domain's allowOverview, or the organization's group's
 * allowOverview, or the caller an admin of that group (who runs the group from these numbers and
 * may turn the flag on anyway). Organizations that fail it are left out; when the query named
 * organizations or a group and any of them fails, or none is left, 403 StatisticsDisabled.
 */
async function overviewBuckets(
  db: Db,
  caller: StatCaller,
  q: StatQuery,
  scope: StatScope,
  buckets: ScopeBucket[],
): Promise<ScopeBucket[]> {
  if ((await getDomainConfig(db)).allowOverview) return buckets;
  const flagged = await groupsAllowingOverview(db, [...new Set(buckets.map((b) => b.groupId))]);
  const admin = (groupId: string) => scope.access.groupLevels.get(groupId) === GROUP_ACCESS_LEVELS.admin;
  const allowed = buckets.filter((b) => flagged.has(b.groupId) || admin(b.groupId));
  const named = (q.bucketIds?.length ?? 0) > 0 || q.groupId !== undefined;
  if (allowed.length === 0 || (named && allowed.length < buckets.length)) {
    const refused = buckets.find((b) => !allowed.includes(b));
    await writeAudit(db, caller.ctx, denialAudit(caller.account, refused?.id, 'allowOverview', 'forbidden'));
    throw new AppError('StatisticsDisabled', 'The overview is turned off for this group (allowOverview)');
  }
  return allowed;
}

/**
 * statistics/overview/{total,user,bucket} (org_workload_stats): the totals of the period (live
 * exams received, approved reports, the organizations counted, the accounts that wrote or approved
 * an approved report) and rows: per period (total: exams, reports), per account (user: written,
 * approved) or per organization (bucket: exams, reports; every organization counted, zeros too).
 */
export async function overview(
  db: Db,
  stats: StatisticsService,
  caller: StatCaller,
  kind: StatOverviewKind,
  q: StatQuery,
): Promise<StatOverview> {
  const {
    req,
    buckets: held,
    scope,
  } = await stats.request(caller, 'study', { ...q, by: undefined }, 'org_workload_stats');
  const buckets = await overviewBuckets(db, caller, q, scope, held);
  // Served by the daily rollups (stat-rollup.store.ts): ex (live exams by the day received), rw and
  // ra (approved reports by approval day, under their writer and their approver); the modality
  // filter is their k2. Whole months come from stat_monthly (stat-monthly.store.ts).
  const bucketIds = buckets.map((b) => b.id);
  await refreshRollups(db, bucketIds);
  const rq = rollupQuery({ ...req, bucketIds }, ['ex', 'rw'], { k2: req.modality });
  const [byBucket, byPeriod, byPerson] = await Promise.all([
    sumRolled(db, rq, 'bucket'),
    sumRolledPeriods(db, rq, req.interval),
    sumRolled(db, { ...rq, kinds: ['rw', 'ra'] }, 'k1'),
  ]);
  // rw counts each approved report once (under its writer, '' when none): the reports
  const n = (rows: readonly { kind: string; n: number }[], kind: 'ex' | 'rw') =>
    rows.reduce((s, r) => s + (r.kind === kind ? r.n : 0), 0);
  const people = (kind: 'rw' | 'ra') =>
    new Map(byPerson.filter((r) => r.kind === kind && r.key !== '' && r.n > 0).map((r) => [r.key, r.n]));
  const written = people('rw');
  const approved = people('ra');
  const users = new Set([...written.keys(), ...approved.keys()]);
  const totals = { exams: n(byBucket, 'ex'), reports: n(byBucket, 'rw'), buckets: buckets.length, users: users.size };
  let rows: StatRow[];
  if (kind === 'total') {
    rows = periodsBetween(req.from, req.to, req.interval).map((period) => {
      const inPeriod = byPeriod.filter((r) => r.period === period);
      return { key: period, label: period, values: { exams: n(inPeriod, 'ex'), reports: n(inPeriod, 'rw') } };
    });
  } else if (kind === 'bucket') {
    rows = buckets.map((b) => {
      const inBucket = byBucket.filter((r) => r.key === b.id);
      return { key: b.id, label: b.name, values: { exams: n(inBucket, 'ex'), reports: n(inBucket, 'rw') } };
    });
  } else {
    const names = await accountNames(db, [...users]);
    rows = [...users]
      .map((id) => ({
        key: id,
        label: names.get(id) ?? '',
        values: { written: written.get(id) ?? 0, approved: approved.get(id) ?? 0 },
      }))
      .sort(
        (a, b) =>
          b.values.written + b.values.approved - (a.values.written + a.values.approved) ||
          a.label.localeCompare(b.label),
      );
  }
  return { kind, from: req.from, to: req.to, totals, rows };
}

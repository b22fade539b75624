import {
  ACTION_CATALOGUE,
  ALL_ACTIONS,
  maskIdentifier,
  maskPatientName,
  STAT_EXPORT_MAX,
  type Action,
  type AllowedStatistics,
  type GroupQuality,
  type Language,
  type StatOverview,
  type StatOverviewKind,
  type StatQuery,
  type StatReportDetailItem,
  type StatReportDetailQuery,
} from '@yyp/contracts';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import { callerScope } from '../../platform/access.js';
import { effectiveActions, examMasked } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError } from '../../platform/errors.js';
import { xlsxSheet, type XlsxFile } from '../../platform/xlsx.js';
import { gradeRows, sumGrades } from './sources.quality.js';
import { approvedReportCount, approvedReportPage, type DetailFilter, type DetailRow } from './stat-detail.store.js';
import { sumRolled } from './stat-monthly.store.js';
import { refreshRollups, rollupQuery } from './stat-rollup.store.js';
import type { StatRequest } from './stat-source.js';
import { DETAIL_SHEET, detailColumns } from './statistics-detail.sheet.js';
import { overview } from './statistics-overview.js';
import { loadStatScope, type ScopeBucket } from './statistics.scope.js';
import type { StatCaller, StatisticsService } from './statistics.service.js';
import { bucketsOfGroups } from './statistics-scope.store.js';

const STAT_ACTIONS = new Set<string>(ACTION_CATALOGUE.statistics);
const KNOWN_ACTIONS = new Set<string>(ALL_ACTIONS);

/**
 * Statistics beyond the tables: the report detail list and its export, the overview (total, user,
 * bucket), which organizations the caller may count (buckets/allowed-statistics, buckets/allowed)
 * and a group's quality summary (groups/{id}/quality).
 */
export class DetailStatistics {
  constructor(
    readonly db: Db,
    readonly clock: Clock,
    readonly stats: StatisticsService,
    /** the most reports an export holds (a test gives a small one) */
    private readonly exportMax = STAT_EXPORT_MAX,
  ) {}

  /** The range checked and the organizations holding physician_workload_stats, as a filter. */
  private async detailScope(caller: StatCaller, q: StatReportDetailQuery) {
    const { req, buckets, scope } = await this.stats.request(caller, 'report', q, 'physician_workload_stats');
    const filter: DetailFilter & Pick<StatRequest, 'from' | 'to'> = { ...req, role: q.role };
    return { filter, buckets, scope };
  }

  /**
   * How many reports the detail holds: summed from the rollups (rw under the writer, ra under the
   * approver: each approved report of a live exam once, k2 its modality), except for a doctor as
   * writer or approver alike, counted from the rows (a report they wrote and approved counts once).
   */
  private async detailTotal(filter: DetailFilter & Pick<StatRequest, 'from' | 'to'>): Promise<number> {
    if (filter.doctorId && !filter.role) return approvedReportCount(this.db, filter);
    await refreshRollups(this.db, filter.bucketIds);
    const kind = filter.role === 'approved' ? 'ra' : 'rw';
    const q = rollupQuery(filter, [kind], { k1: filter.doctorId, k2: filter.modality });
    const sums = await sumRolled(this.db, q, 'bucket');
    return sums.reduce((n, r) => n + r.n, 0);
  }

  /**
   * GET/POST statistics/report-detail: the approved reports of the period (a doctor's as writer
   * or approver), newest approval first. It names patients, masked where the caller may not see
   * them (privateFieldsMasked), and is audited as a PHI read, one row per organization shown.
   */
  async reportDetail(
    caller: StatCaller,
    q: StatReportDetailQuery,
  ): Promise<{ items: StatReportDetailItem[]; total: number }> {
    const { filter, buckets, scope } = await this.detailScope(caller, q);
    const [rows, total] = await Promise.all([
      approvedReportPage(this.db, filter, { skip: q.skip, limit: q.limit }),
      this.detailTotal(filter),
    ]);
    await this.auditShown(caller, 'statistics.report_detail.list', rows);
    return { items: rows.map((r) => presentDetail(r, buckets, scope.access)), total };
  }

  /** statistics/report-detail/export-excel: at most STAT_EXPORT_MAX reports, ExportLimitExceeded beyond. */
  async exportReportDetail(caller: StatCaller, q: StatReportDetailQuery): Promise<XlsxFile> {
    const { filter, buckets, scope } = await this.detailScope(caller, q);
    const total = await this.detailTotal(filter);
    if (total > this.exportMax) {
      throw new AppError('ExportLimitExceeded', `At most ${this.exportMax} reports can be exported`, {
        count: total,
        limit: this.exportMax,
      });
    }
    const rows = await approvedReportPage(this.db, filter, { skip: 0, limit: this.exportMax });
    const language: Language = caller.account.preferences.language ?? 'chs';
    const items = rows.map((r) => presentDetail(r, buckets, scope.access));
    const now = this.clock.now();
    const body = await xlsxSheet(DETAIL_SHEET[language], detailColumns(language), items, language, now);
    await this.auditShown(caller, 'statistics.report_detail.exported', rows);
    return { body, filename: `statistics-report-detail-${q.from}-${q.to}.xlsx`, count: items.length };
  }

  private async auditShown(caller: StatCaller, action: string, rows: readonly DetailRow[]): Promise<void> {
    for (const bucketId of new Set(rows.map((r) => r.bucketId))) {
      const examIds = rows.filter((r) => r.bucketId === bucketId).map((r) => r.examId);
      await writeAudit(
        this.db,
        caller.ctx,
        actorAudit(caller.account, { action, category: 'phi', bucketId, targetType: 'report', details: { examIds } }),
      );
    }
  }

  /** GET/POST statistics/overview/{total,user,bucket} (statistics-overview.ts). */
  overview(caller: StatCaller, kind: StatOverviewKind, q: StatQuery): Promise<StatOverview> {
    return overview(this.db, this.stats, caller, kind, q);
  }

  /**
   * GET buckets/allowed-statistics: per organization, the statistics actions the caller holds
   * there (a group admin holds them all in its groups' organizations), and the caller's groups.
   */
  async allowedStatistics(caller: StatCaller): Promise<AllowedStatistics> {
    const scope = await loadStatScope(this.db, caller.account);
    return {
      items: scope.buckets.map((b) => ({
        bucketId: b.id,
        name: b.name,
        groupId: b.groupId,
        actions: [...b.actions].filter((a) => STAT_ACTIONS.has(a)).sort(),
      })),
      groups: scope.groups.map((g) => ({ id: g.id, name: g.name, enableStat: g.enableStat, isAdmin: g.isAdmin })),
    };
  }

  /** GET buckets/allowed?action=: the organizations where the caller holds the action (400 for an unknown one). */
  async allowedBuckets(
    caller: StatCaller,
    action: string,
  ): Promise<{ items: { id: string; name: string; groupId: string }[] }> {
    if (!KNOWN_ACTIONS.has(action)) {
      throw new AppError('ValidationError', `Unknown action ${action}`, { action });
    }
    if (STAT_ACTIONS.has(action)) {
      const scope = await loadStatScope(this.db, caller.account);
      const held = scope.buckets.filter((b) => b.actions.has(action as Action));
      return { items: held.map((b) => ({ id: b.id, name: b.name, groupId: b.groupId })) };
    }
    const { access } = await callerScope(this.db, caller.account);
    const rows = await bucketsOfGroups(this.db, [...access.groupLevels.keys()]);
    const held = rows.filter((b) => effectiveActions(access, b).has(action as Action));
    return { items: held.map((b) => ({ id: b.id, name: b.name, groupId: b.groupId })) };
  }

  /**
   * GET groups/{id}/quality: the group's grades over the period (quality_stats in its
   * organizations, or a group admin): levels, the unsatisfactory items named most, and per
   * organization the grades and the good rate (A+B)/graded. enableStat off: 403 StatisticsDisabled.
   */
  async groupQuality(caller: StatCaller, groupId: string, q: { from: string; to: string }): Promise<GroupQuality> {
    const query: StatQuery = { from: q.from, to: q.to, interval: 'day', version: 'simple', groupId };
    const { req, buckets } = await this.stats.request(caller, 'quality', query, 'quality_stats');
    await refreshRollups(this.db, req.bucketIds);
    const [byBucket, byItem] = await Promise.all([gradeRows(this.db, req, 'bucket'), gradeRows(this.db, req, 'item')]);
    const perBucket = sumGrades(byBucket);
    const levels = { A: 0, B: 0, C: 0, D: 0 };
    for (const v of perBucket.values()) {
      levels.A += v.levelA!;
      levels.B += v.levelB!;
      levels.C += v.levelC!;
      levels.D += v.levelD!;
    }
    const items = [...sumGrades(byItem).entries()]
      .map(([item, v]) => ({ item, count: v.graded! }))
      .sort((a, b) => b.count - a.count || a.item.localeCompare(b.item))
      .slice(0, 10);
    return {
      groupId,
      from: q.from,
      to: q.to,
      graded: levels.A + levels.B + levels.C + levels.D,
      levels,
      items,
      buckets: buckets.map((b) => {
        const v = perBucket.get(b.id);
        const graded = v?.graded ?? 0;
        return { id: b.id, name: b.name, graded, goodRate: graded ? (v!.levelA! + v!.levelB!) / graded : null };
      }),
    };
  }
}

function presentDetail(
  r: DetailRow,
  buckets: readonly ScopeBucket[],
  access: Parameters<typeof examMasked>[0],
): StatReportDetailItem {
  const bucket = buckets.find((b) => b.id === r.bucketId);
  const masked = !bucket || examMasked(access, bucket, r);
  const person = (id: string | null, name: string | null) => (id ? { id, name: name ?? '' } : null);
  return {
    examId: r.examId,
    bucketId: r.bucketId,
    bucketName: r.bucketName,
    patientName: masked ? maskPatientName(r.patientName) : r.patientName,
    patientId: masked ? maskIdentifier(r.patientId) : r.patientId,
    accessionNumber: masked ? maskIdentifier(r.accessionNumber) : r.accessionNumber,
    modality: r.modality,
    bodyPart: r.bodyPart,
    bodyPartCount: Number(r.bodyPartCount),
    writer: person(r.writerId, r.writerName),
    approver: person(r.approverId, r.approverName),
    noteTaker: person(r.noteTakerId, r.noteTakerName),
    approvedAt: new Date(r.approvedAt).toISOString(),
    positive: r.positive === null ? null : r.positive === true || r.positive === 't' || r.positive === 'true',
  };
}

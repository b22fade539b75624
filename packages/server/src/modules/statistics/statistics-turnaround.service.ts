import {
  maskIdentifier,
  maskPatientName,
  statRangeWarning,
  type StatTable,
  type TurnaroundQuery,
  type TurnaroundSlowest,
} from '@yyp/contracts';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import { examMasked } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { turnaroundTable } from './sources.turnaround.js';
import { overdueExams, sharedTarget, slowestExams, type SlowRow } from './stat-turnaround.store.js';
import type { ScopeBucket, StatScope } from './statistics.scope.js';
import { shapeTable, type StatCaller, type StatisticsService } from './statistics.service.js';

/** How many of the slowest exams statistics/turnaround/slowest lists. */
export const TURNAROUND_SLOWEST = 20;
/** How many overdue exams it lists at most (longest waiting first). */
export const TURNAROUND_OVERDUE_MAX = 100;

/**
 * Turnaround (issue 26, beyond the spec): the minutes between two steps of an exam, recorded where
 * they happen (exam_steps, migration 0045), in the organizations where the caller holds
 * statistics_report. The doctor of an exam is its report's writer (creator).
 */
export class TurnaroundStatistics {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly stats: StatisticsService,
  ) {}

  /** GET statistics/turnaround: by modality, room, doctor or hour of the earlier step; periods by the later step's day. */
  async table(caller: StatCaller, q: TurnaroundQuery): Promise<StatTable> {
    const { req, buckets } = await this.stats.request(caller, 'turnaround', q);
    const result = await turnaroundTable(this.db, req, q);
    return shapeTable(req, buckets, result, statRangeWarning('turnaround', q.from, q.to));
  }

  /**
   * GET statistics/turnaround/slowest: the slowest exams of the interval in the period and the
   * exams now past their group's target (registration to approval) that reached the earlier step
   * in the period. It names patients (masked where the caller may not see them) and is audited as
   * a PHI read, one row per organization shown.
   */
  async slowest(caller: StatCaller, q: TurnaroundQuery): Promise<TurnaroundSlowest> {
    const { req, buckets, scope } = await this.stats.request(caller, 'turnaround', q);
    const slowest = await slowestExams(this.db, req, q, TURNAROUND_SLOWEST);
    const overdue = await overdueExams(this.db, req, q, this.clock.now(), TURNAROUND_OVERDUE_MAX);
    const targetMinutes = await sharedTarget(this.db, req.bucketIds, q);
    await this.auditShown(caller, [...slowest, ...overdue]);
    const present = (r: SlowRow) => presentSlow(r, buckets, scope);
    return { targetMinutes, slowest: slowest.map(present), overdue: overdue.map(present) };
  }

  private async auditShown(caller: StatCaller, rows: readonly SlowRow[]): Promise<void> {
    for (const bucketId of new Set(rows.map((r) => r.bucketId))) {
      const examIds = [...new Set(rows.filter((r) => r.bucketId === bucketId).map((r) => r.examId ?? r.id))];
      await writeAudit(
        this.db,
        caller.ctx,
        actorAudit(caller.account, {
          action: 'statistics.turnaround.slowest',
          category: 'phi',
          bucketId,
          targetType: 'exam',
          details: { examIds },
        }),
      );
    }
  }
}

const iso = (v: Date | string) => new Date(v).toISOString();

/** An exam of the lists; examId is the scheduled exam's id while no study is linked to it. */
function presentSlow(r: SlowRow, buckets: readonly ScopeBucket[], scope: StatScope) {
  const bucket = buckets.find((b) => b.id === r.bucketId);
  const masked = !bucket || examMasked(scope.access, bucket, { isPrivacy: r.isPrivacy });
  return {
    examId: r.examId ?? r.id,
    bucketId: r.bucketId,
    patientName: masked ? maskPatientName(r.patientName) : r.patientName,
    accessionNumber: masked ? maskIdentifier(r.accessionNumber) : r.accessionNumber,
    modality: r.modality,
    room: r.room,
    doctor: r.doctor,
    fromAt: iso(r.fromAt),
    toAt: r.toAt === null ? null : iso(r.toAt),
    minutes: Math.round(Number(r.minutes) * 10) / 10,
  };
}

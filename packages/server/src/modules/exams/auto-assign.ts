import type { FastifyBaseLogger } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { IngestSource } from '../archive/index.js';
import { pickAssignee } from './exams.manage.rules.js';
import type { ExamManageService } from './exams.manage.service.js';
import * as store from './exams.manage.store.js';

/**
 * Applies the group's assign rules to each new exam (spec 000 §3 assign rules; issue 5 "assign
 * rules applied automatically to new exams"), right after the ingest commits it. An exam someone
 * already assigned keeps its assignee.
 */
export class AutoAssigner {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly manage: ExamManageService,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The ingest pipeline's onNewExam hook. */
  readonly onNewExam = (examId: string, bucketId: string, _source: IngestSource): void => {
    const work: Promise<void> = this.assign(examId)
      .then(() => undefined)
      .catch((err: unknown) => this.log.error({ err, examId, bucketId }, 'automatic assignment failed'))
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
  };

  /** Resolves once every assignment under way has finished (shutdown, tests). */
  async whenIdle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Assigns the exam by the first matching rule; answers the assignee, or null. */
  async assign(examId: string): Promise<string | null> {
    const exam = await store.examForAssign(this.db, examId);
    if (!exam || exam.deletedTime || exam.assigneeId) return null;
    const rules = await store.assignRulesOf(this.db, exam.groupId);
    if (rules.length === 0) return null;
    const reporters = await this.manage.reportersOf(exam.bucketId);
    const candidates = [...new Set(rules.flatMap((r) => r.memberIds))].filter((id) => reporters.has(id));
    const workload = await store.openAssignments(this.db, candidates);
    const chosen = pickAssignee(rules, exam, reporters, workload);
    if (!chosen || !(await store.assignIfUnassigned(this.db, examId, chosen, this.clock.now()))) return null;
    await writeAudit(
      this.db,
      { ip: null, userAgent: 'assign-rules' },
      {
        action: 'exam.auto_assign',
        outcome: 'success',
        category: 'operation',
        bucketId: exam.bucketId,
        targetType: 'exam',
        targetId: examId,
        details: { assigneeId: chosen },
      },
    );
    return chosen;
  }
}

import type { FastifyBaseLogger } from 'fastify';
import { writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import type { IngestSource } from '../archive/index.js';
import { pickAssignee } from './exams.manage.rules.js';
import type { ExamManageService } from './exams.manage.service.js';
import * as store from './exams.manage.store.js';

/** Exams assigned together: one round of look-ups and one update for a burst of new studies. */
const BATCH = 200;

/**
 * Applies the group's assign rules to each new exam (spec 000 §3 assign rules; issue 5 "assign
 * rules applied automatically to new exams"), right after the ingest commits it. An exam someone
 * already assigned keeps its assignee. New exams are queued and assigned in batches, so a modality
 * sending thousands of one-image studies costs a few queries per batch rather than per study; within
 * a batch each choice counts the ones before it in the workload, as one-by-one assignment would.
 */
export class AutoAssigner {
  private readonly queue: string[] = [];
  private draining: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly manage: ExamManageService,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The ingest pipeline's onNewExam hook. */
  readonly onNewExam = (examId: string, _bucketId: string, _source: IngestSource): void => {
    this.queue.push(examId);
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
  };

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH);
      try {
        await this.assignMany(batch);
      } catch (err) {
        this.log.error({ err, examIds: batch }, 'automatic assignment failed');
      }
    }
  }

  /** Resolves once every assignment under way has finished (shutdown, tests). */
  async whenIdle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Assigns the exam by the first matching rule; answers the assignee, or null. */
  async assign(examId: string): Promise<string | null> {
    return (await this.assignMany([examId])).get(examId) ?? null;
  }

  /** Assigns each exam by the first matching rule of its group; answers the assignees chosen and set. */
  async assignMany(examIds: readonly string[]): Promise<Map<string, string>> {
    const open = (await store.examsForAssign(this.db, examIds)).filter((e) => !e.deletedTime && !e.assigneeId);
    const rulesOf = await store.assignRulesOfGroups(this.db, [...new Set(open.map((e) => e.groupId))]);
    const todo = open.filter((e) => (rulesOf.get(e.groupId)?.length ?? 0) > 0);
    if (todo.length === 0) return new Map();
    const bucketIds = [...new Set(todo.map((e) => e.bucketId))];
    const reportersOf = new Map(
      await Promise.all(bucketIds.map(async (b) => [b, await this.manage.reportersOf(b)] as const)),
    );
    const candidates = new Set(
      todo.flatMap((e) =>
        rulesOf.get(e.groupId)!.flatMap((r) => r.memberIds.filter((id) => reportersOf.get(e.bucketId)!.has(id))),
      ),
    );
    const workload = new Map(await store.openAssignments(this.db, [...candidates]));
    const chosen = new Map<string, string>();
    // Exams in the order they arrived, each choice adding to the workload the next one sees.
    const order = new Map(examIds.map((id, i) => [id, i]));
    for (const exam of todo.sort((a, b) => order.get(a.id)! - order.get(b.id)!)) {
      const who = pickAssignee(rulesOf.get(exam.groupId)!, exam, reportersOf.get(exam.bucketId)!, workload);
      if (!who) continue;
      chosen.set(exam.id, who);
      workload.set(who, (workload.get(who) ?? 0) + 1);
    }
    const assigned = new Set(await store.assignManyIfUnassigned(this.db, chosen, this.clock.now()));
    const out = new Map([...chosen].filter(([id]) => assigned.has(id)));
    const bucketOf = new Map(todo.map((e) => [e.id, e.bucketId]));
    await Promise.all(
      [...out].map(([examId, assigneeId]) =>
        writeAudit(
          this.db,
          { ip: null, userAgent: 'assign-rules' },
          {
            action: 'exam.auto_assign',
            outcome: 'success',
            category: 'operation',
            bucketId: bucketOf.get(examId)!,
            targetType: 'exam',
            targetId: examId,
            details: { assigneeId },
          },
        ),
      ),
    );
    return out;
  }
}

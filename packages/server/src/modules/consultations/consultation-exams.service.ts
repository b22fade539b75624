import {
  consultationExamsAddSchema,
  type ConsultationDetail,
  type ConsultationOp,
  type ConsultationStatus,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { ConsultationRow } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { auditExam } from '../exams/index.js';
import {
  ConsultationAccess,
  NO_CONTEXT,
  type ConsultationActor,
  type ConsultationContext,
} from './consultation-access.js';
import { lockConsultation } from './consultation-access.store.js';
import { bindExams, unbindExam } from './consultation-sharing.js';

/** The consultation as the caller sees it (the module's detail presenter, handed in by the service that owns it). */
export type ConsultationDetailReader = (actor: ConsultationActor, id: string) => Promise<ConsultationDetail>;

/**
 * Runs a change of the consultation's parts: the op is checked for the caller (404/403/409, refusals
 * audited), then again on the row under its lock in the change's transaction, so the change and a
 * close (which takes the shared exams back) never interleave.
 */
export async function underConsultationLock<T>(
  db: Db,
  access: ConsultationAccess,
  actor: ConsultationActor,
  id: string,
  op: ConsultationOp,
  fn: (tx: Db, row: ConsultationRow, context: ConsultationContext) => Promise<T>,
): Promise<T> {
  const context = await access.require(actor, id, op);
  return db.transaction(async (tx) => {
    const row = await lockConsultation(tx, id);
    if (!row) throw errors.notFound('Consultation');
    const locked = { ...context, row, facts: { ...context.facts, status: row.status as ConsultationStatus } };
    await access.check(actor, locked, op);
    return fn(tx, row, locked);
  });
}

/** POST consultations/{id}/exams and DELETE consultations/{id}/exams/{examId} (ops bindExam, unbindExam). */
export class ConsultationExamsService {
  private readonly access: ConsultationAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly detail: ConsultationDetailReader,
  ) {
    this.access = new ConsultationAccess(db);
  }

  /** Binds exams of the source organization; each is shared with the target at once. Audited per exam. */
  async add(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationExamsAddSchema>,
  ): Promise<ConsultationDetail> {
    const body = consultationExamsAddSchema.parse(input);
    const now = this.clock.now();
    await underConsultationLock(this.db, this.access, actor, id, 'bindExam', async (tx, row) => {
      const bound = await bindExams(tx, { accountId: actor.account.id }, row, body.examIds, now);
      for (const b of bound) {
        await auditExam(
          tx,
          actor.ctx ?? NO_CONTEXT,
          actor.account,
          'consultation.exam_bind',
          { id: b.examId, bucketId: b.bucketId },
          {
            patientId: b.patientId,
            details: { consultationId: id, targetBucketId: row.targetBucketId, sharedExamId: b.sharedExamId },
          },
        );
      }
    });
    return this.detail(actor, id);
  }

  /** Unbinds an exam; its copy leaves the target organization. */
  async remove(actor: ConsultationActor, id: string, examId: string): Promise<ConsultationDetail> {
    const now = this.clock.now();
    await underConsultationLock(this.db, this.access, actor, id, 'unbindExam', async (tx, row) => {
      const removed = await unbindExam(tx, { accountId: actor.account.id }, id, examId, now);
      await auditExam(
        tx,
        actor.ctx ?? NO_CONTEXT,
        actor.account,
        'consultation.exam_unbind',
        { id: examId, bucketId: row.sourceBucketId },
        { details: { consultationId: id, targetBucketId: row.targetBucketId, sharedExamId: removed.sharedExamId } },
      );
    });
    return this.detail(actor, id);
  }
}

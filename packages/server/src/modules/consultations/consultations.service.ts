import {
  CONSULTATION_STATUS_VALUES,
  cancelConsultationSchema,
  consultationRateSchema,
  consultationResultSchema,
  consultationStatusChangeSchema,
  consultationSuggestionSchema,
  consultationVisitUpdateSchema,
  createConsultationSchema,
  updateConsultationSchema,
  type ConsultationDetail,
  type ConsultationOp,
  type ConsultationStatus,
  type CreateConsultation,
} from '@yyp/contracts';
import type { z } from 'zod';
import type { ConsultationRow } from '../../db/schema.js';
import { actionsInBucket } from '../../platform/access.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { ownerOfExam } from '../exams/index.js';
import {
  ConsultationAccess,
  consultationAudit,
  denyIn,
  type ConsultationActor,
  type ConsultationContext,
} from './consultation-access.js';
import { lockConsultation } from './consultation-access.store.js';
import { closeFee, paymentOf } from './consultation-fee.js';
import { requireTargetAccounts } from './consultation-members.js';
import * as settings from './consultation-settings.store.js';
import { detailOf } from './consultations.presenter.js';
import * as store from './consultations.store.js';

/** What other parts of the module do inside a consultation's transactions (app.ts wires them). */
export interface ConsultationHooks {
  /** binds the exam named at creation (/consultations/add?examId) and shares it with the target */
  bindOnCreate?: (
    tx: Db,
    by: { accountId: string },
    consultationId: string,
    examId: string,
    now: Date,
  ) => Promise<unknown>;
  /** on completion, cancellation and deletion: the shared exams go back */
  onClose?: (tx: Db, consultationId: string, now: Date) => Promise<unknown>;
  /** after a deletion committed: the stored files of its cases and result (their rows went with it) */
  discardFile?: (key: string) => Promise<unknown>;
}

export { NO_CONTEXT } from './consultation-access.js';

const versionConflict = () => errors.conflict('The consultation was changed since this version');

/**
 * The consultation's life (spec 000 §3–§5, spec 001 §7 "Consultations"; issue 25): request,
 * change, accept, close, cancel, delete, the experts' suggestion and result, the requester's rating
 * and visit record, the members. Every op is checked by the rules (consultation-rules.ts) for the
 * caller, then again on the row under its lock; every change leaves a trace and bumps the version.
 */
export class ConsultationsService {
  readonly access: ConsultationAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly hooks: ConsultationHooks = {},
  ) {
    this.access = new ConsultationAccess(db);
  }

  /** POST consultations: a request from the source organization to one of its group's consultation targets. */
  async create(actor: ConsultationActor, input: CreateConsultation): Promise<ConsultationDetail> {
    const body = createConsultationSchema.parse(input);
    const grant = await actionsInBucket(this.db, actor.account, body.sourceBucketId);
    if (!grant) return this.deny(actor, body.sourceBucketId, 'consultation_create', 'notFound', 'Organization');
    if (!grant.actions.has('consultation_create')) {
      return this.deny(actor, body.sourceBucketId, 'consultation_create', 'forbidden');
    }
    const groupId = grant.bucket.groupId;
    if (!(await settings.consultationGroupsOn(this.db, [groupId])).has(groupId)) {
      return this.deny(actor, body.sourceBucketId, 'enableConsultation', 'forbidden');
    }
    const [targets, defaults] = await Promise.all([
      settings.targetsOf(this.db, [groupId]),
      settings.defaultTargetsOf(this.db, [groupId]),
    ]);
    const allowed = new Set([...targets.map((t) => t.bucketId), ...defaults.values()]);
    if (!allowed.has(body.targetBucketId) || body.targetBucketId === body.sourceBucketId) {
      throw errors.validation("The target is not one of the group's consultation targets", {
        field: 'targetBucketId',
      });
    }
    if (!(await settings.bucketBrief(this.db, body.targetBucketId))) throw errors.notFound('Organization');
    const experts = [...new Set(body.experts)];
    await requireTargetAccounts(this.db, body.targetBucketId, experts, 'experts');
    if (body.examId) {
      if (!grant.actions.has('consultation_Exam_create')) {
        return this.deny(actor, body.sourceBucketId, 'consultation_Exam_create', 'forbidden');
      }
      if ((await ownerOfExam(this.db, body.examId)) !== body.sourceBucketId) throw errors.notFound('Exam');
    }
    const now = this.clock.now();
    const id = crypto.randomUUID();
    await this.db.transaction(async (tx) => {
      await store.insertConsultation(tx, {
        id,
        groupId,
        sourceBucketId: body.sourceBucketId,
        targetBucketId: body.targetBucketId,
        title: body.title,
        status: CONSULTATION_STATUS_VALUES.pending,
        scheduledAt: new Date(body.scheduledAt),
        reason: body.reason,
        note: body.note,
        clinicImpression: body.clinicImpression,
        patientName: body.patient.name,
        patientAge: body.patient.age,
        patientGender: body.patient.gender,
        patientTel: body.patient.tel,
        patientEmail: body.patient.email,
        contactHospital: body.patient.contactHospital,
        originExamId: body.examId ?? null,
        originReportId: body.reportId ?? null,
        creatorId: actor.account.id,
        created: now,
        updated: now,
      });
      await store.replaceMembers(
        tx,
        id,
        experts.map((accountId) => ({ accountId, role: 'expert' as const })),
        now,
      );
      await store.addTrace(tx, {
        consultationId: id,
        action: 'create',
        accountId: actor.account.id,
        detail: { targetBucketId: body.targetBucketId, experts },
        at: now,
      });
      if (body.examId && this.hooks.bindOnCreate) {
        await this.hooks.bindOnCreate(tx, { accountId: actor.account.id }, id, body.examId, now);
      }
    });
    const context = await this.access.load(actor, id);
    await this.audit(actor, 'consultation.create', context.row, { targetBucketId: body.targetBucketId });
    return detailOf(this.db, context);
  }

  /** GET consultations/{id}: the consultation as the caller sees it (a PHI read, audited). */
  async detail(actor: ConsultationActor, id: string): Promise<ConsultationDetail> {
    const context = await this.access.require(actor, id, 'view');
    await this.audit(actor, 'consultation.read', context.row, {}, this.sideBucket(context));
    return detailOf(this.db, context);
  }

  /** The detail without an audit row (after a change the caller made, which is recorded itself). */
  async present(actor: ConsultationActor, id: string): Promise<ConsultationDetail> {
    return detailOf(this.db, await this.access.load(actor, id));
  }

  /** PUT consultations/{id}: the requester's fields at the version read. */
  async update(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof updateConsultationSchema>,
  ): Promise<ConsultationDetail> {
    const { version, patient, scheduledAt, ...fields } = updateConsultationSchema.parse(input);
    return this.change(actor, id, 'update', version, async () => ({
      changes: {
        ...fields,
        ...(scheduledAt ? { scheduledAt: new Date(scheduledAt) } : {}),
        ...(patient
          ? {
              patientName: patient.name,
              patientAge: patient.age,
              patientGender: patient.gender,
              patientTel: patient.tel,
              patientEmail: patient.email,
              contactHospital: patient.contactHospital,
            }
          : {}),
      },
      trace: {
        fields: [...Object.keys(fields), ...(patient ? ['patient'] : []), ...(scheduledAt ? ['scheduledAt'] : [])],
      },
    }));
  }

  /** POST consultations/{id}/status: the target accepts (scheduled; an exam must be bound) or closes it (completed; the result written). */
  async status(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationStatusChangeSchema>,
  ): Promise<ConsultationDetail> {
    const body = consultationStatusChangeSchema.parse(input);
    const op = body.status === CONSULTATION_STATUS_VALUES.scheduled ? 'schedule' : 'complete';
    return this.change(actor, id, op, body.version, async (tx, row, now) => {
      if (op === 'complete') {
        await this.hooks.onClose?.(tx, row.id, now);
        await closeFee(tx, row.id, 'completed', now);
      }
      return {
        changes: {
          status: body.status,
          ...(op === 'schedule' && body.scheduledAt ? { scheduledAt: new Date(body.scheduledAt) } : {}),
        },
        trace: { from: row.status, to: body.status, ...(body.scheduledAt ? { scheduledAt: body.scheduledAt } : {}) },
      };
    });
  }

  /** POST consultations/{id}/cancel: with a reason; cannot be undone (canceled is final). */
  async cancel(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof cancelConsultationSchema>,
  ): Promise<ConsultationDetail> {
    const body = cancelConsultationSchema.parse(input);
    return this.change(actor, id, 'cancel', body.version, async (tx, row, now) => {
      await this.hooks.onClose?.(tx, row.id, now);
      await closeFee(tx, row.id, 'canceled', now, body.reason);
      return {
        changes: { status: CONSULTATION_STATUS_VALUES.canceled, cancelReason: body.reason },
        trace: { from: row.status, reason: body.reason },
      };
    });
  }

  /** DELETE consultations/{id}: a pending or canceled request leaves for good (its shared exams first). */
  async remove(actor: ConsultationActor, id: string): Promise<void> {
    const context = await this.access.require(actor, id, 'delete');
    const keys = await this.db.transaction(async (tx) => {
      const row = await this.relock(actor, tx, id, 'delete', context);
      await this.hooks.onClose?.(tx, row.id, this.clock.now());
      await closeFee(tx, row.id, 'canceled', this.clock.now(), 'deleted');
      const fileKeys = await store.fileKeysOf(tx, id);
      await store.deleteConsultation(tx, id);
      return fileKeys;
    });
    await this.audit(actor, 'consultation.delete', context.row, { title: context.row.title, files: keys.length });
    // a file left behind is only storage: the rows that named it are gone either way
    for (const key of keys) await this.hooks.discardFile?.(key)?.catch(() => undefined);
  }

  /** PUT consultations/{id}/suggestion: a writing expert's suggestion and treatment plan. */
  async suggestion(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationSuggestionSchema>,
  ): Promise<ConsultationDetail> {
    const body = consultationSuggestionSchema.parse(input);
    return this.change(actor, id, 'suggest', body.version, async () => ({
      changes: { suggestion: body.suggestion, treatmentPlan: body.treatmentPlan },
      trace: {},
    }));
  }

  /** PUT consultations/{id}/results: the result (not empty: the schema refuses it). */
  async results(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationResultSchema>,
  ): Promise<ConsultationDetail> {
    const body = consultationResultSchema.parse(input);
    return this.change(actor, id, 'writeResult', body.version, async (_tx, _row, now) => ({
      changes: { result: body.result, resultBy: actor.account.id, resultAt: now },
      trace: {},
    }));
  }

  /** POST consultations/{id}/rating: once; a comment is required at or below the group's threshold. */
  async rate(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationRateSchema>,
  ): Promise<ConsultationDetail> {
    const body = consultationRateSchema.parse(input);
    return this.change(actor, id, 'rate', null, async (tx, row, now) => {
      const config = await settings.ratingConfigOf(tx, row.groupId);
      const threshold = Number(
        (config?.config as { commentRequiredAtOrBelow?: number } | undefined)?.commentRequiredAtOrBelow ?? 0,
      );
      if (body.score <= threshold && body.comment.trim() === '') {
        throw errors.validation(`A comment is required for a rating of ${threshold} or less`, {
          field: 'comment',
          threshold,
        });
      }
      return {
        changes: { ratingScore: body.score, ratingComment: body.comment, ratedBy: actor.account.id, ratedAt: now },
        trace: { score: body.score },
      };
    });
  }

  /** PUT consultations/{id}/visit: the linked visit record. */
  async visit(
    actor: ConsultationActor,
    id: string,
    input: z.input<typeof consultationVisitUpdateSchema>,
  ): Promise<ConsultationDetail> {
    const body = consultationVisitUpdateSchema.parse(input);
    const time = body.time === null ? null : new Date(body.time);
    if (time && Number.isNaN(time.getTime())) throw errors.validation('Invalid visit time', { field: 'time' });
    return this.change(actor, id, 'visit', null, async () => ({
      changes: {
        visitHospital: body.hospital,
        visitTime: time,
        visitDepartment: body.department,
        visitReason: body.reason,
      },
      trace: {},
    }));
  }

  /* ---------- helpers ---------- */

  /**
   * One change: the op checked for the caller, then on the row under its lock; the version (when
   * the call carries one) must be the row's; the work's changes are written with a trace.
   */
  async change(
    actor: ConsultationActor,
    id: string,
    op: ConsultationOp,
    version: number | null,
    work: (
      tx: Db,
      row: ConsultationRow,
      now: Date,
    ) => Promise<{ changes: Parameters<typeof store.updateConsultation>[2]; trace: Record<string, unknown> }>,
  ): Promise<ConsultationDetail> {
    const context = await this.access.require(actor, id, op);
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      const locked = await this.relock(actor, tx, id, op, context);
      if (version !== null && version !== locked.version) throw versionConflict();
      const { changes, trace } = await work(tx, locked, now);
      const out = await store.updateConsultation(tx, id, changes, now);
      await store.addTrace(tx, { consultationId: id, action: op, accountId: actor.account.id, detail: trace, at: now });
      return out;
    });
    await this.audit(actor, `consultation.${op}`, row, {}, this.sideBucket(context));
    return detailOf(this.db, await this.access.factsOf(actor, row));
  }

  /** The row under its lock, the op checked again on it (its status may have moved meanwhile). */
  async relock(
    actor: ConsultationActor,
    tx: Db,
    id: string,
    op: ConsultationOp,
    context: ConsultationContext,
  ): Promise<ConsultationRow> {
    const row = await lockConsultation(tx, id);
    if (!row) throw errors.notFound('Consultation');
    const facts = {
      ...context.facts,
      status: row.status as ConsultationStatus,
      hasResult: row.result.trim() !== '',
      rated: row.ratingScore !== null,
      // paid or refunded meanwhile (the payments module holds the order's lock, not this row's)
      payment: await paymentOf(tx, id),
    };
    await this.access.check(actor, { ...context, row, facts }, op);
    return row;
  }

  /** The organization the caller reads from (the audit row's). */
  sideBucket(context: ConsultationContext): string {
    return context.facts.requester ? context.row.sourceBucketId : context.row.targetBucketId;
  }

  audit(
    actor: ConsultationActor,
    action: string,
    row: ConsultationRow,
    details: Record<string, unknown>,
    bucketId = row.sourceBucketId,
  ): Promise<void> {
    return consultationAudit(this.db, actor, action, row, details, bucketId);
  }

  deny(actor: ConsultationActor, bucketId: string, needs: string, decision: 'notFound' | 'forbidden', what?: string) {
    return denyIn(this.db, actor, bucketId, needs, decision, what);
  }
}

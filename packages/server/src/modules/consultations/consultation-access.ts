import {
  ACTION_CATALOGUE,
  consultationOpStatuses,
  consultationRefusal,
  statusName,
  type Action,
  type ConsultationFacts,
  type ConsultationOp,
  type ConsultationRefusal,
  type ConsultationStatus,
} from '@yyp/contracts';
import type { FastifyRequest } from 'fastify';
import type { AccountRow, ConsultationRow } from '../../db/schema.js';
import { callerScope, findBucketsFacts } from '../../platform/access.js';
import { actorAudit, auditContext, denialAudit, writeAudit, type AuditContext } from '../../platform/audit.js';
import { canSee, effectiveActions, type BucketFacts, type CallerAccess } from '../../platform/authz.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import type { Resolve } from '../../platform/route.js';
import { findConsultation, hasBoundExam, memberRoleOf, sidesOf } from './consultation-access.store.js';
import { paymentOf } from './consultation-fee.js';

/** The caller's sides of one consultation (the detail's `roles`). */
export type ConsultationRole = 'requester' | 'expert' | 'joiner' | 'target';

/** Who calls a consultation service: the account, its memberships and where from (for the audit trail). */
export interface ConsultationActor {
  account: AccountRow;
  access: CallerAccess;
  /** the request's address and agent; absent for calls made without a request (then not recorded) */
  ctx?: AuditContext;
}

/** The actor of a route's input (AuthedInput's account, access and request). */
export function actorOf(input: {
  account: AccountRow;
  access: CallerAccess;
  request: FastifyRequest;
}): ConsultationActor {
  return { account: input.account, access: input.access, ctx: auditContext(input.request) };
}

export interface ConsultationContext {
  row: ConsultationRow;
  facts: ConsultationFacts;
  roles: ConsultationRole[];
}

/** The consultation actions of spec 000 §6 (consultation_stats is the statistics issue's). */
export const CONSULTATION_ACTIONS: readonly Action[] = ACTION_CATALOGUE.consultation;
const consultationActionSet = new Set<string>(CONSULTATION_ACTIONS);

export const NO_CONTEXT: AuditContext = { ip: null, userAgent: null };

/** The consultation actions the caller holds in an organization it can see (empty when it cannot). */
export function consultationActionsIn(access: CallerAccess, bucket: BucketFacts | undefined): Set<Action> {
  const out = new Set<Action>();
  if (!bucket || !canSee(access, bucket)) return out;
  for (const a of effectiveActions(access, bucket)) if (consultationActionSet.has(a)) out.add(a as Action);
  return out;
}

/** The refusal of the rules as the API's error. */
export function refusalError(refusal: ConsultationRefusal, op: ConsultationOp, status: ConsultationStatus): AppError {
  switch (refusal) {
    case 'NotFound':
      return errors.notFound('Consultation');
    case 'InsufficientPermissions':
      return errors.forbidden(`consultation.${op}`);
    case 'ConsultationWrongStatus':
      return new AppError('ConsultationWrongStatus', `Not allowed while the consultation is ${statusName(status)}`, {
        op,
        status,
        allowed: consultationOpStatuses(op),
      });
    case 'ConsultationNoExam':
      return new AppError('ConsultationNoExam', 'Bind an exam to the consultation first', { op });
    case 'ConsultationNoResult':
      return new AppError('ConsultationNoResult', 'Write the result first', { op });
    case 'ConsultationUnpaid':
      return new AppError('ConsultationUnpaid', "The consultation's fee is not paid yet", { op });
    case 'ConsultationPaid':
      return new AppError('ConsultationPaid', "The consultation's fee is refunded before it is cancelled", { op });
    case 'RatingAlreadySubmitted':
      return new AppError('RatingAlreadySubmitted', 'The consultation was rated already', { op });
  }
}

/**
 * The caller's facts about a consultation (contracts ConsultationFacts) and the check of an op
 * against the rules (consultation-rules.ts). Someone on no side gets 404, as for another tenant's row.
 */
export class ConsultationAccess {
  constructor(private readonly db: Db) {}

  /** The caller's facts; 404 NotFound when the caller is on no side. */
  async load(actor: ConsultationActor, id: string, tx?: Db): Promise<ConsultationContext> {
    const db = tx ?? this.db;
    const row = await findConsultation(db, id);
    if (!row) throw errors.notFound('Consultation');
    const context = await this.factsOf(actor, row, db);
    if (context.roles.length === 0) {
      await this.denied(actor, row.sourceBucketId, 'consultation', 'notFound');
      throw errors.notFound('Consultation');
    }
    return context;
  }

  /** The facts of a row already read (in `db`, a transaction when changing it). */
  async factsOf(actor: ConsultationActor, row: ConsultationRow, db: Db = this.db): Promise<ConsultationContext> {
    const scope = await callerScope(this.db, actor.account);
    const bucketFacts = await findBucketsFacts(db, [row.sourceBucketId, row.targetBucketId]);
    const source = bucketFacts.find((b) => b.id === row.sourceBucketId);
    const target = bucketFacts.find((b) => b.id === row.targetBucketId);
    const sourceActions = consultationActionsIn(scope.access, source);
    const targetActions = consultationActionsIn(scope.access, target);
    const creator = row.creatorId !== null && row.creatorId === actor.account.id;
    const requester = !!source && canSee(scope.access, source) && (sourceActions.size > 0 || creator);
    const [memberRole, hasExam, payment] = await Promise.all([
      memberRoleOf(db, row.id, actor.account.id),
      hasBoundExam(db, row.id),
      paymentOf(db, row.id),
    ]);
    const facts: ConsultationFacts = {
      status: row.status as ConsultationStatus,
      requester,
      creator,
      expert: memberRole === 'expert',
      joiner: memberRole === 'joiner',
      target: targetActions.has('consultation_update'),
      sourceActions,
      targetActions,
      hasExam,
      hasResult: row.result.trim() !== '',
      rated: row.ratingScore !== null,
      payment,
    };
    const roles: ConsultationRole[] = [];
    if (facts.requester) roles.push('requester');
    if (facts.expert) roles.push('expert');
    if (facts.joiner) roles.push('joiner');
    if (facts.target) roles.push('target');
    return { row, facts, roles };
  }

  /** load + the rules' refusal of `op` → thrown as the matching AppError (404/403/409), audited when 404/403. */
  async require(actor: ConsultationActor, id: string, op: ConsultationOp, tx?: Db): Promise<ConsultationContext> {
    const context = await this.load(actor, id, tx);
    await this.check(actor, context, op);
    return context;
  }

  /** The rules' refusal of `op` for facts already loaded, thrown. */
  async check(actor: ConsultationActor, context: ConsultationContext, op: ConsultationOp): Promise<void> {
    const refusal = consultationRefusal(op, context.facts);
    if (refusal === null) return;
    if (refusal === 'NotFound' || refusal === 'InsufficientPermissions') {
      const bucketId = context.facts.requester ? context.row.sourceBucketId : context.row.targetBucketId;
      await this.denied(actor, bucketId, `consultation.${op}`, refusal === 'NotFound' ? 'notFound' : 'forbidden');
    }
    throw refusalError(refusal, op, context.facts.status);
  }

  private denied(actor: ConsultationActor, bucketId: string, needs: string, decision: string): Promise<void> {
    return writeAudit(this.db, actor.ctx ?? NO_CONTEXT, denialAudit(actor.account, bucketId, needs, decision));
  }
}

/**
 * The owner of a consultation for route auth (`{ action: 'bucket_read', owner: consultationSide(db) }`):
 * its target organization when the caller belongs to the target (organization, else group) and not
 * to the source, else its source. Another tenant's caller sees neither and gets 404.
 */
export function consultationSide(db: Db, param = 'id'): Resolve {
  return async ({ params, callerId }) => {
    const sides = await sidesOf(db, params[param] ?? '', callerId);
    if (!sides) return undefined;
    if (sides.inTarget && !sides.inSource) return sides.targetBucketId;
    if (!sides.inSource && !sides.inSourceGroup && sides.inTargetGroup) return sides.targetBucketId;
    return sides.sourceBucketId;
  };
}

/**
 * What the video module needs of a consultation for one account: whether it takes part (any side,
 * as the rules' `video` op counts them), the status, the scheduled time and the title; null when
 * there is no such consultation.
 */
export async function consultationRoomFacts(
  db: Db,
  consultationId: string,
  accountId: string,
): Promise<{ participant: boolean; status: ConsultationStatus; scheduledAt: Date; name: string } | null> {
  const row = await findConsultation(db, consultationId);
  if (!row) return null;
  // factsOf reads the caller's memberships itself (callerScope); `access` is not consulted.
  const actor = {
    account: { id: accountId } as AccountRow,
    access: { accountId, groupLevels: new Map(), memberships: new Map() },
  };
  const { roles } = await new ConsultationAccess(db).factsOf(actor, row);
  return {
    participant: roles.length > 0,
    status: row.status as ConsultationStatus,
    scheduledAt: row.scheduledAt,
    name: row.title,
  };
}

/** The audit row of a consultation's PHI read or change (its patient named). */
export function consultationAudit(
  db: Db,
  actor: ConsultationActor,
  action: string,
  row: ConsultationRow,
  details: Record<string, unknown>,
  bucketId = row.sourceBucketId,
): Promise<void> {
  return writeAudit(
    db,
    actor.ctx ?? NO_CONTEXT,
    actorAudit(actor.account, {
      action,
      category: 'phi',
      targetType: 'consultation',
      targetId: row.id,
      bucketId,
      details: { patientName: row.patientName, ...details },
    }),
  );
}

/** A refusal a service decides in an organization named by a body: audited, then 404 (`what`) or 403. */
export async function denyIn(
  db: Db,
  actor: ConsultationActor,
  bucketId: string,
  needs: string,
  decision: 'notFound' | 'forbidden',
  what = 'Consultation',
): Promise<never> {
  await writeAudit(db, actor.ctx ?? NO_CONTEXT, denialAudit(actor.account, bucketId, needs, decision));
  throw decision === 'notFound' ? errors.notFound(what) : errors.forbidden(needs);
}

import crypto from 'node:crypto';
import type { z } from 'zod';
import {
  CALLING_ACTIONS,
  CALLING_CALL,
  hospitalDate,
  OPEN_QUEUE_STATUSES,
  planCheckIn,
  queueTopic,
  type CallingBoard,
  type ExamStatus,
  type CheckIn,
  type MissedList,
  type missedQuerySchema,
  type QueueActionResult,
  type QueueExam,
  type QueuePage,
  type queueQuerySchema,
} from '@yyp/contracts';
import type { QueueExamRow, QueueTypeRow } from '../../db/schema.js';
import { groupsWithFlagOff } from '../../platform/access.js';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { CallingAccess, type CallingCaller, type CallingGrant } from './calling.access.js';
import type { QueuePublisher } from './calling-live.js';
import { presentCall, presentQueueExam, roomOf } from './calling.presenter.js';
import * as queue from './calling-queue.store.js';
import * as types from './calling-types.store.js';
import { settingsOf } from './calling-types.service.js';
import { forecastWaits } from './calling-wait.js';

type QueryInput = z.output<typeof queueQuerySchema>;
type MissedInput = z.output<typeof missedQuerySchema>;
type CheckInInput = Required<Pick<CheckIn, 'scheduledExamId'>> & { queueTypeId?: string | undefined };

/**
 * The scheduled exams that check in (and are called): arrived ones, and those Performed at once
 * on arrival (imaging optional) or by the modality before the patient was called.
 */
export const CHECK_IN_STATUSES: ReadonlySet<string> = new Set<ExamStatus>(['Arrived', 'Performed']);

/** What the queue's writes share: the database, the clock, access, audit and the live events. */
export class QueueBase {
  protected readonly access: CallingAccess;

  constructor(
    protected readonly db: Db,
    protected readonly clock: Clock,
    protected readonly publish: QueuePublisher,
  ) {
    this.access = new CallingAccess(db);
  }

  protected today(): string {
    return hospitalDate(this.clock.now());
  }

  protected async views(ids: string[], masked: boolean): Promise<QueueExam[]> {
    return (await queue.queueExamViews(this.db, ids)).map((v) => presentQueueExam(v, masked));
  }

  /** The audit row of a read or a change of a queue exam's patient (PHI). */
  protected audit(
    caller: CallingCaller,
    action: string,
    bucketId: string,
    extra: { targetId?: string; patientId?: string; details?: Record<string, unknown> } = {},
  ): Promise<void> {
    return writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, { action, category: 'phi', targetType: 'queue_exam', bucketId, ...extra }),
    );
  }

  protected changed(bucketId: string, day: string, queueExamId?: string): Promise<void> {
    return this.publish(queueTopic(bucketId), {
      type: 'queue.changed',
      bucketId,
      checkInDate: day,
      ...(queueExamId ? { queueExamId } : {}),
    });
  }

  /** After a call or recall: the exam with its announcement, published as queue.called. */
  protected async called(row: QueueExamRow, grant: CallingGrant): Promise<QueueActionResult> {
    const [view] = await queue.queueExamViews(this.db, [row.id]);
    if (!view) throw errors.notFound('Queue exam');
    const call = presentCall(view, await settingsOf(this.db, row.bucketId));
    await this.publish(queueTopic(row.bucketId), {
      type: 'queue.called',
      bucketId: row.bucketId,
      checkInDate: row.checkInDate,
      queueExamId: row.id,
      call: { queueNo: call.queueNo, name: call.name, room: call.room, text: call.text },
    });
    return { queueExam: presentQueueExam(view, grant.masked), call };
  }

  /**
   * Into a queue (the queue's lock taken): the next number of the day, or an urgent exam's place
   * before the waiting ones that are not urgent when the queue says so. The scheduled exam's place
   * that day when it has one already (created false).
   */
  protected async enqueue(
    tx: Db,
    queueType: QueueTypeRow,
    scheduled: { id: string; bucketId: string; urgent: boolean },
    day: string,
  ): Promise<{ row: QueueExamRow; created: boolean }> {
    const locked = await queue.lockQueue(tx, queueType.id);
    if (!locked) throw errors.notFound('Queue type');
    const existing = await queue.checkedIn(tx, scheduled.id, day);
    if (existing) return { row: existing, created: false };
    const id = crypto.randomUUID();
    const now = this.clock.now();
    const lastNo = await queue.lastQueueNo(tx, queueType.id, day);
    const plan = planCheckIn(
      await queue.waitingSlots(tx, queueType.id, day),
      lastNo,
      { id, urgent: scheduled.urgent },
      locked.urgentFirst,
    );
    await queue.recordQueueNo(tx, queueType.id, day, lastNo + 1);
    await queue.renumber(tx, plan.renumber, now);
    const row = await queue.insertQueueExam(tx, {
      id,
      bucketId: scheduled.bucketId,
      queueTypeId: queueType.id,
      scheduledExamId: scheduled.id,
      checkInDate: day,
      queueNo: plan.queueNo,
      status: 'waiting',
      urgent: scheduled.urgent,
      checkedInAt: now,
      updated: now,
    });
    return { row, created: true };
  }
}

/**
 * The day's queue (issue 23): listing, check-in (by hand and on arrival at the desk), call-next,
 * the rooms' current calls and the missed list. Actions on one exam are in calling-actions.service.ts.
 */
export class CallingQueueService extends QueueBase {
  /** POST queue-exams/query */
  async query(caller: CallingCaller, input: QueryInput): Promise<QueuePage> {
    const grant = await this.access.require(caller, input.bucketId, CALLING_ACTIONS);
    const day = input.checkInDate ?? this.today();
    const { rows, count } = await queue.queryQueue(
      this.db,
      { bucketId: input.bucketId, day, queueTypeId: input.queueTypeId, statuses: input.statuses, q: input.q },
      { skip: input.skip, limit: input.limit },
    );
    await this.audit(caller, 'calling.query', input.bucketId, {
      details: { checkInDate: day, q: input.q || null, results: rows.length },
    });
    const items = rows.map((v) => presentQueueExam(v, grant.masked));
    if (day !== this.today()) return { items, count };
    // Today's queue: each queue's predicted wait, and each waiting patient's (issue 26).
    const queueTypes = await types.queueTypesOf(this.db, input.bucketId);
    const forecast = await forecastWaits(
      this.db,
      input.bucketId,
      queueTypes.map((q) => q.id),
      this.clock.now(),
    );
    return {
      items: items.map((e) =>
        e.status === 'waiting' ? { ...e, predictedWaitMinutes: forecast.places.get(e.id) ?? null } : e,
      ),
      count,
      predictions: forecast.queues,
    };
  }

  /** POST queue-exams/check-in: an arrived scheduled exam into a queue of today. */
  async checkIn(caller: CallingCaller, input: CheckInInput): Promise<QueueExam> {
    const scheduled = await queue.scheduledForCheckIn(this.db, input.scheduledExamId);
    if (!scheduled) throw errors.notFound('Scheduled exam');
    const grant = await this.access.require(caller, scheduled.bucketId, [CALLING_CALL]);
    if (!CHECK_IN_STATUSES.has(scheduled.status)) throw errors.conflict('Only an arrived exam checks in');
    const queueType = input.queueTypeId
      ? await types.findQueueType(this.db, input.queueTypeId)
      : await types.queueTypeForModality(this.db, scheduled.bucketId, scheduled.modality);
    if (input.queueTypeId && queueType?.bucketId !== scheduled.bucketId) throw errors.notFound('Queue type');
    if (!queueType) throw errors.conflict(`The organization has no queue for ${scheduled.modality || 'this exam'}`);
    const day = this.today();
    const { row, created } = await this.db.transaction((tx) => this.enqueue(tx, queueType, scheduled, day));
    if (!created) throw errors.conflict('The exam is in a queue of today already');
    await this.audit(caller, 'calling.check_in', row.bucketId, { targetId: row.id });
    await this.changed(row.bucketId, day, row.id);
    return (await this.views([row.id], grant.masked))[0]!;
  }

  /**
   * The registry's arrival hook: an arrived exam checks into the first queue of its modality,
   * unless the group turned calling off, no queue takes the modality or it is in a queue of today
   * already. Answers the queue exam's id (null when none); the face's checkInOnArrival logs a
   * failure instead of failing the arrival.
   */
  async onArrival(arrived: { scheduledExam: { id: string } }): Promise<string | null> {
    const scheduled = await queue.scheduledForCheckIn(this.db, arrived.scheduledExam.id);
    if (!scheduled || !CHECK_IN_STATUSES.has(scheduled.status) || (await this.groupOff(scheduled.bucketId))) {
      return null;
    }
    const queueType = await types.queueTypeForModality(this.db, scheduled.bucketId, scheduled.modality);
    if (!queueType) return null;
    const day = this.today();
    const { row, created } = await this.db.transaction((tx) => this.enqueue(tx, queueType, scheduled, day));
    if (created) await this.changed(row.bucketId, day, row.id);
    return row.id;
  }

  /**
   * The registry's undone-arrival hook (the desk cancelled the arrival): the exam leaves today's
   * queue if it still holds a place there (waiting, called or missed), so it disappears from the
   * lists and the screens; the others keep their numbers. Answers the removed queue exam's id.
   */
  async onArrivalUndone(undone: { scheduledExamId: string }): Promise<string | null> {
    const day = this.today();
    const removed = await this.db.transaction(async (tx) => {
      const place = await queue.checkedIn(tx, undone.scheduledExamId, day);
      if (!place || !(OPEN_QUEUE_STATUSES as readonly string[]).includes(place.status)) return undefined;
      if (!(await queue.lockQueue(tx, place.queueTypeId))) return undefined;
      return queue.removeOpenPlace(tx, place.id, OPEN_QUEUE_STATUSES);
    });
    if (!removed) return null;
    await this.changed(removed.bucketId, day, removed.id);
    return removed.id;
  }

  /** POST queue-exams/call-next: the waiting exam with the lowest number of the queue today. */
  async callNext(caller: CallingCaller, input: { queueTypeId: string; room: string }): Promise<QueueActionResult> {
    const queueType = await types.findQueueType(this.db, input.queueTypeId);
    if (!queueType) throw errors.notFound('Queue type');
    const grant = await this.access.require(caller, queueType.bucketId, [CALLING_CALL]);
    const day = this.today();
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      if (!(await queue.lockQueue(tx, queueType.id))) throw errors.notFound('Queue type');
      const next = await queue.firstWaiting(tx, queueType.id, day, CHECK_IN_STATUSES);
      if (!next) return undefined;
      return queue.updateQueueExam(tx, next.id, {
        status: 'called',
        room: roomOf(input.room, queueType),
        calledAt: now,
        calledCount: next.calledCount + 1,
        calledBy: caller.account.id,
        updated: now,
      });
    });
    if (!row) return { queueExam: null, call: null };
    await this.audit(caller, 'calling.call', row.bucketId, { targetId: row.id, details: { queueNo: row.queueNo } });
    return this.called(row, grant);
  }

  /** GET queue-exams/calling */
  async calling(
    caller: CallingCaller,
    input: { bucketId: string; checkInDate?: string | undefined },
  ): Promise<CallingBoard> {
    const grant = await this.access.require(caller, input.bucketId, CALLING_ACTIONS);
    const day = input.checkInDate ?? this.today();
    const rows = await queue.currentCalls(this.db, input.bucketId, day);
    await this.audit(caller, 'calling.calling', input.bucketId, {
      details: { checkInDate: day, results: rows.length },
    });
    return { bucketId: input.bucketId, checkInDate: day, calls: rows.map((v) => presentQueueExam(v, grant.masked)) };
  }

  /** GET queue-exams/missed */
  async missed(caller: CallingCaller, input: MissedInput): Promise<MissedList> {
    const grant = await this.access.require(caller, input.bucketId, CALLING_ACTIONS);
    const day = input.checkInDate ?? this.today();
    const rows = await queue.missedExams(this.db, input.bucketId, day, input.limit);
    await this.audit(caller, 'calling.missed', input.bucketId, { details: { checkInDate: day, results: rows.length } });
    return { items: rows.map((v) => presentQueueExam(v, grant.masked)) };
  }

  private async groupOff(bucketId: string): Promise<boolean> {
    const groupId = await types.groupOfBucket(this.db, bucketId);
    return !groupId || (await groupsWithFlagOff(this.db, [groupId], this.access.flag)).size > 0;
  }
}

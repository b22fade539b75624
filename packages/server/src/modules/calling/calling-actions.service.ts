import {
  CALLING_CALL,
  nextState,
  planResort,
  type QueueAction,
  type QueueActionResult,
  type QueueExam,
  type QueueStatus,
} from '@yyp/contracts';
import type { QueueExamRow } from '../../db/schema.js';
import { errors } from '../../platform/errors.js';
import type { CallingCaller, CallingGrant } from './calling.access.js';
import { presentQueueExam, roomOf } from './calling.presenter.js';
import * as queue from './calling-queue.store.js';
import { QueueBase } from './calling-queue.service.js';
import * as types from './calling-types.store.js';

interface ActionInput {
  action: QueueAction;
  room: string;
  targetQueueTypeId?: string | undefined;
}

/**
 * One queue exam's actions (POST queue-exams/{id}/action, contracts calling-rules.ts's machine)
 * and resort (POST queue-exams/{id}/resort). Each runs under its queue's lock (and the target
 * queue's for a move, the two taken in id order).
 */
export class CallingActionsService extends QueueBase {
  async act(caller: CallingCaller, id: string, input: ActionInput): Promise<QueueActionResult> {
    const { row: found, grant } = await this.found(caller, id);
    const target = input.action === 'move' ? await this.moveTarget(found, input.targetQueueTypeId!) : undefined;
    const now = this.clock.now();
    const { row, movedTo } = await this.db.transaction(async (tx) => {
      const ids = [found.queueTypeId, ...(target ? [target.id] : [])].sort();
      for (const queueTypeId of ids) await queue.lockQueue(tx, queueTypeId);
      const current = await queue.findQueueExam(tx, id);
      if (!current) throw errors.notFound('Queue exam');
      const status = current.status as QueueStatus;
      const next = nextState(status, input.action);
      if (!next) throw errors.conflict(`A ${status} queue exam cannot take ${input.action}`);
      if (input.action === 'call' || input.action === 'recall') {
        const queueType = await types.findQueueType(tx, current.queueTypeId);
        const row = await queue.updateQueueExam(tx, id, {
          status: next,
          room: roomOf(input.room || (input.action === 'recall' ? current.room : ''), queueType!),
          calledAt: now,
          calledCount: current.calledCount + 1,
          calledBy: caller.account.id,
          updated: now,
        });
        return { row, movedTo: undefined };
      }
      if (input.action === 'move') {
        const row = await queue.updateQueueExam(tx, id, { status: next, finishedAt: now, updated: now });
        const scheduled = { id: current.scheduledExamId, bucketId: current.bucketId, urgent: current.urgent };
        const moved = await this.enqueue(tx, target!, scheduled, current.checkInDate);
        await queue.updateQueueExam(tx, id, { movedToId: moved.row.id });
        return { row, movedTo: moved.row };
      }
      const finished = next === 'done' ? { finishedAt: now } : {};
      const row = await queue.updateQueueExam(tx, id, { status: next, ...finished, updated: now });
      return { row, movedTo: undefined };
    });
    await this.audit(caller, `calling.${input.action}`, row.bucketId, {
      targetId: row.id,
      details: {
        queueNo: row.queueNo,
        ...(movedTo ? { movedToId: movedTo.id, queueTypeId: movedTo.queueTypeId } : {}),
      },
    });
    if (input.action === 'call' || input.action === 'recall') return this.called(row, grant);
    await this.changed(row.bucketId, row.checkInDate, row.id);
    const [exam] = await this.views([movedTo?.id ?? row.id], grant.masked);
    return { queueExam: exam ?? null, call: null };
  }

  /** Moves a waiting exam to the place of the waiting exam numbered targetQueueNo; answers that queue's day. */
  async resort(caller: CallingCaller, id: string, targetQueueNo: number): Promise<QueueExam[]> {
    const { row: found, grant } = await this.found(caller, id);
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await queue.lockQueue(tx, found.queueTypeId);
      const current = await queue.findQueueExam(tx, id);
      if (!current) throw errors.notFound('Queue exam');
      if (current.status !== 'waiting') throw errors.conflict(`A ${current.status} queue exam keeps its number`);
      const plan = planResort(
        await queue.waitingSlots(tx, current.queueTypeId, current.checkInDate),
        id,
        targetQueueNo,
      );
      if (!plan) throw errors.validation('targetQueueNo is not the number of a waiting patient of this queue');
      await queue.renumber(tx, plan, now);
    });
    await this.audit(caller, 'calling.resort', found.bucketId, { targetId: id, details: { targetQueueNo } });
    await this.changed(found.bucketId, found.checkInDate, id);
    const { rows } = await queue.queryQueue(
      this.db,
      { bucketId: found.bucketId, day: found.checkInDate, queueTypeId: found.queueTypeId, statuses: [], q: '' },
      { skip: 0, limit: 10_000 },
    );
    return rows.map((v) => presentQueueExam(v, grant.masked));
  }

  /** The queue exam, with calling_call and the group's switch checked in its organization. */
  private async found(caller: CallingCaller, id: string): Promise<{ row: QueueExamRow; grant: CallingGrant }> {
    const row = await queue.findQueueExam(this.db, id);
    if (!row) throw errors.notFound('Queue exam');
    return { row, grant: await this.access.require(caller, row.bucketId, [CALLING_CALL]) };
  }

  private async moveTarget(row: QueueExamRow, targetQueueTypeId: string) {
    const target = await types.findQueueType(this.db, targetQueueTypeId);
    if (!target || target.bucketId !== row.bucketId) throw errors.notFound('Queue type');
    if (target.id === row.queueTypeId) throw errors.validation('The exam is in this queue already');
    return target;
  }
}

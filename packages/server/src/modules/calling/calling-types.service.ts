import crypto from 'node:crypto';
import {
  CALLING_ACTIONS,
  CALLING_MANAGE,
  DEFAULT_CALLING_SETTINGS,
  hospitalDate,
  MAX_QUEUE_TYPES_PER_BUCKET,
  queueTopic,
  type CallingBucket,
  type CallingSettings,
  type QueueType,
  type QueueTypeAdd,
  type QueueTypeInput,
} from '@yyp/contracts';
import type { AccountRow } from '../../db/schema.js';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { findGroup } from '../groups/index.js';
import { bucketsByIds } from '../organizations/index.js';
import { CallingAccess, type CallingCaller } from './calling.access.js';
import type { QueuePublisher } from './calling-live.js';
import { presentQueueType } from './calling.presenter.js';
import * as store from './calling-types.store.js';

type Added = Required<Omit<QueueTypeAdd, 'bucketId'>> & { bucketId: string };
type Input = Required<QueueTypeInput>;

/**
 * The organization's call queues and calling settings (spec 000 §2 organization settings "call
 * queues"): read by whoever calls or manages the queue, changed with calling_manage_queue.
 */
export class CallingTypesService {
  private readonly access: CallingAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly publish: QueuePublisher,
  ) {
    this.access = new CallingAccess(db);
  }

  /** GET calling-buckets */
  async buckets(account: AccountRow): Promise<CallingBucket[]> {
    const found = await this.access.bucketsWith(account, CALLING_ACTIONS);
    const rows = await bucketsByIds(
      this.db,
      found.map((f) => f.bucket.id),
    );
    const groupNames = new Map<string, string>();
    for (const groupId of new Set(rows.map((r) => r.groupId))) {
      groupNames.set(groupId, (await findGroup(this.db, groupId))?.displayName ?? '');
    }
    const held = new Map(found.map((f) => [f.bucket.id, f.actions]));
    return rows.map((b) => ({
      id: b.id,
      name: b.name,
      groupId: b.groupId,
      groupName: groupNames.get(b.groupId) ?? '',
      actions: [...(held.get(b.id) ?? [])].filter((a) => (CALLING_ACTIONS as string[]).includes(a)).sort(),
    }));
  }

  /** GET buckets/{id}/queue-types */
  async list(caller: CallingCaller, bucketId: string): Promise<QueueType[]> {
    await this.access.require(caller, bucketId, CALLING_ACTIONS);
    return (await store.queueTypesOf(this.db, bucketId)).map(presentQueueType);
  }

  /** POST queue-types/add */
  async add(caller: CallingCaller, input: Added): Promise<QueueType> {
    await this.access.require(caller, input.bucketId, [CALLING_MANAGE]);
    if ((await store.countQueueTypes(this.db, input.bucketId)) >= MAX_QUEUE_TYPES_PER_BUCKET) {
      throw errors.validation(`at most ${MAX_QUEUE_TYPES_PER_BUCKET} queue types per organization`);
    }
    await this.nameFree(input.bucketId, input.displayName);
    const now = this.clock.now();
    const row = await store.insertQueueType(this.db, {
      id: crypto.randomUUID(),
      bucketId: input.bucketId,
      displayName: input.displayName,
      modality: input.modality.toUpperCase(),
      roomName: input.roomName,
      urgentFirst: input.urgentFirst,
      created: now,
      updated: now,
    });
    await this.audit(caller, 'calling.queue_type.add', row.bucketId, row.id, { displayName: row.displayName });
    await this.changed(row.bucketId);
    return presentQueueType(row);
  }

  /** POST queue-types/{id}/update (the route checked calling_manage_queue there) */
  async update(caller: CallingCaller, id: string, input: Input): Promise<QueueType> {
    const row = await this.found(caller, id);
    await this.nameFree(row.bucketId, input.displayName, id);
    const updated = await store.updateQueueType(this.db, id, {
      displayName: input.displayName,
      modality: input.modality.toUpperCase(),
      roomName: input.roomName,
      urgentFirst: input.urgentFirst,
      updated: this.clock.now(),
    });
    if (!updated) throw errors.notFound('Queue type');
    await this.audit(caller, 'calling.queue_type.update', row.bucketId, id, { displayName: input.displayName });
    await this.changed(row.bucketId);
    return presentQueueType(updated);
  }

  /** DELETE queue-types/{id}/delete: refused while patients of today wait, are called or missed there. */
  async remove(caller: CallingCaller, id: string): Promise<void> {
    const row = await this.found(caller, id);
    if ((await store.openExamsOf(this.db, id, hospitalDate(this.clock.now()))) > 0) {
      throw errors.conflict('The queue still holds patients of today who are not done');
    }
    await store.deleteQueueType(this.db, id);
    await this.audit(caller, 'calling.queue_type.delete', row.bucketId, id, { displayName: row.displayName });
    await this.changed(row.bucketId);
  }

  /** GET buckets/{id}/calling-settings */
  async settings(caller: CallingCaller, bucketId: string): Promise<CallingSettings> {
    await this.access.require(caller, bucketId, CALLING_ACTIONS);
    return settingsOf(this.db, bucketId);
  }

  /** PUT buckets/{id}/calling-settings (the route checked calling_manage_queue there) */
  async saveSettings(caller: CallingCaller, bucketId: string, input: CallingSettings): Promise<CallingSettings> {
    await this.access.require(caller, bucketId, [CALLING_MANAGE]);
    await store.saveSettings(this.db, {
      bucketId,
      ...input,
      updatedBy: caller.account.id,
      updated: this.clock.now(),
    });
    await this.audit(caller, 'calling.settings.update', bucketId, bucketId, { ...input });
    return settingsOf(this.db, bucketId);
  }

  /** The queue type, with the group's switch checked (the route checked the action). */
  private async found(caller: CallingCaller, id: string) {
    const row = await store.findQueueType(this.db, id);
    if (!row) throw errors.notFound('Queue type');
    await this.access.require(caller, row.bucketId, [CALLING_MANAGE]);
    return row;
  }

  private async nameFree(bucketId: string, displayName: string, exceptId?: string): Promise<void> {
    const other = await store.queueTypeNamed(this.db, bucketId, displayName);
    if (other && other.id !== exceptId) {
      throw new AppError('NameNotAvailable', 'Another queue of the organization has this name');
    }
  }

  private audit(caller: CallingCaller, action: string, bucketId: string, targetId: string, details: object) {
    return writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, {
        action,
        category: 'operation',
        targetType: action.startsWith('calling.settings') ? 'bucket' : 'queue_type',
        targetId,
        bucketId,
        details: details as Record<string, unknown>,
      }),
    );
  }

  private changed(bucketId: string): Promise<void> {
    return this.publish(queueTopic(bucketId), {
      type: 'queue.changed',
      bucketId,
      checkInDate: hospitalDate(this.clock.now()),
    });
  }
}

/** The organization's settings, the defaults until an admin saves some. */
export async function settingsOf(db: Db, bucketId: string): Promise<CallingSettings> {
  return (await store.findSettings(db, bucketId)) ?? DEFAULT_CALLING_SETTINGS;
}

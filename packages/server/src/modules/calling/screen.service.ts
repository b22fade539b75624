import crypto from 'node:crypto';
import {
  CALLING_MANAGE,
  hospitalDate,
  MAX_SCREEN_TOKENS_PER_BUCKET,
  MISSED_LIST_DEFAULT,
  SCREEN_NEXT_COUNT,
  type IssuedScreenToken,
  type ScreenQueue,
  type ScreenToken,
} from '@yyp/contracts';
import { groupsWithFlagOff } from '../../platform/access.js';
import { actorAudit, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { AppError, errors } from '../../platform/errors.js';
import { findBucket } from '../organizations/index.js';
import { CallingAccess, type CallingCaller } from './calling.access.js';
import { SCREEN_SCHEME } from './calling-live.js';
import { presentCall, presentScreenPatient } from './calling.presenter.js';
import * as queue from './calling-queue.store.js';
import { settingsOf } from './calling-types.service.js';
import { forecastWaits } from './calling-wait.js';
import * as types from './calling-types.store.js';
import * as store from './screen-tokens.store.js';

const present = (row: store.ScreenTokenView): ScreenToken => ({
  id: row.id,
  bucketId: row.bucketId,
  label: row.label,
  createdByName: row.createdByName,
  created: row.created.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

const screenRefused = () => new AppError('Unauthenticated', 'The screen token is unknown or revoked');

/** The token of an `Authorization: Screen <token>` header, '' when the header is another scheme or none. */
export function screenTokenOf(header: string | undefined): string {
  const match = new RegExp(`^${SCREEN_SCHEME}\\s+(\\S+)\\s*$`, 'i').exec(header ?? '');
  return match ? match[1]! : '';
}

/**
 * Waiting-room screens: their tokens (issued per organization by whoever manages its queue,
 * shown once, revocable) and what a screen reads with one (GET screen/queue: names masked).
 */
export class ScreenService {
  private readonly access: CallingAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.access = new CallingAccess(db);
  }

  /** GET buckets/{id}/screen-tokens */
  async list(caller: CallingCaller, bucketId: string): Promise<ScreenToken[]> {
    await this.access.require(caller, bucketId, [CALLING_MANAGE]);
    return (await store.screenTokensOf(this.db, bucketId)).map(present);
  }

  /** POST buckets/{id}/screen-tokens: the token is in this answer only. */
  async issue(caller: CallingCaller, bucketId: string, label: string): Promise<IssuedScreenToken> {
    await this.access.require(caller, bucketId, [CALLING_MANAGE]);
    if ((await store.countLiveScreenTokens(this.db, bucketId)) >= MAX_SCREEN_TOKENS_PER_BUCKET) {
      throw errors.validation(
        `at most ${MAX_SCREEN_TOKENS_PER_BUCKET} screen tokens per organization; revoke one first`,
      );
    }
    const token = `yyps_${crypto.randomBytes(32).toString('base64url')}`;
    const id = crypto.randomUUID();
    await store.insertScreenToken(this.db, {
      id,
      bucketId,
      tokenHash: store.hashScreenToken(token),
      label,
      createdBy: caller.account.id,
      created: this.clock.now(),
    });
    await this.audit(caller, 'calling.screen_token.issue', bucketId, id, label);
    return { screenToken: present((await store.findScreenToken(this.db, id))!), token };
  }

  /** POST screen-tokens/{id}/revoke (the route checked calling_manage_queue there) */
  async revoke(caller: CallingCaller, id: string): Promise<ScreenToken> {
    const row = await store.findScreenToken(this.db, id);
    if (!row) throw errors.notFound('Screen token');
    await this.access.require(caller, row.bucketId, [CALLING_MANAGE]);
    await store.revokeScreenToken(this.db, id, this.clock.now());
    await this.audit(caller, 'calling.screen_token.revoke', row.bucketId, id, row.label);
    return present((await store.findScreenToken(this.db, id))!);
  }

  /** GET screen/queue with `Authorization: Screen <token>`: 401 for an unknown or revoked token. */
  async screenQueue(token: string): Promise<ScreenQueue> {
    const found = await store.verifyScreenToken(this.db, token, this.clock.now());
    if (!found) throw screenRefused();
    const bucket = await findBucket(this.db, found.bucketId);
    if (!bucket) throw screenRefused();
    if ((await groupsWithFlagOff(this.db, [bucket.groupId], 'enableCalling')).size > 0) {
      throw errors.forbidden('enableCalling');
    }
    const now = this.clock.now();
    const day = hospitalDate(now);
    const [queueTypes, waiting, calls, missed, settings] = await Promise.all([
      types.queueTypesOf(this.db, bucket.id),
      queue.waitingExams(this.db, bucket.id, day),
      queue.currentCalls(this.db, bucket.id, day),
      queue.missedExams(this.db, bucket.id, day, MISSED_LIST_DEFAULT),
      settingsOf(this.db, bucket.id),
    ]);
    const forecast = await forecastWaits(
      this.db,
      bucket.id,
      queueTypes.map((q) => q.id),
      now,
    );
    const queueWait = new Map(forecast.queues.map((p) => [p.queueTypeId, p.predictedWaitMinutes]));
    return {
      bucketId: bucket.id,
      bucketName: bucket.name,
      checkInDate: day,
      queues: queueTypes.map((q) => {
        const mine = waiting.filter((w) => w.queueTypeId === q.id);
        return {
          queueTypeId: q.id,
          displayName: q.displayName,
          roomName: q.roomName,
          next: mine.slice(0, SCREEN_NEXT_COUNT).map((w) => ({
            ...presentScreenPatient(w),
            predictedWaitMinutes: forecast.places.get(w.id) ?? null,
          })),
          waitingCount: mine.length,
          predictedWaitMinutes: queueWait.get(q.id) ?? null,
        };
      }),
      calls: calls.map(presentScreenPatient),
      missed: missed.map(presentScreenPatient),
      announcements: Object.fromEntries(calls.map((c) => [c.id, presentCall(c, settings).text])),
    };
  }

  private audit(caller: CallingCaller, action: string, bucketId: string, id: string, label: string): Promise<void> {
    return writeAudit(
      this.db,
      caller.ctx,
      actorAudit(caller.account, {
        action,
        category: 'security',
        targetType: 'screen_token',
        targetId: id,
        bucketId,
        details: { label },
      }),
    );
  }
}

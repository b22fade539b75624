// The face of the calling module (patient calling, issue 23): what app.ts and other modules may
// use. Everything else in this folder (its stores above all) is private to it.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { CallingActionsService } from './calling-actions.service.js';
import { queuePublisher, type LivePublish } from './calling-live.js';
import { CallingQueueService } from './calling-queue.service.js';
import type { CallingServices } from './calling.routes.js';
import { CallingTypesService } from './calling-types.service.js';
import { ScreenService } from './screen.service.js';

export { callingRoutes, type CallingServices } from './calling.routes.js';
export { callingLive, SCREEN_SCHEME, type LivePublish } from './calling-live.js';
export { ownerOfQueueExam, ownerOfQueueType, ownerOfScreenToken } from './calling.owners.js';
export { verifyScreenToken } from './screen-tokens.store.js';
export { CallingActionsService, CallingQueueService, CallingTypesService, ScreenService };

/** The calling services, publishing their queue events on `live` (none: no events). */
export function callingServices(db: Db, clock: Clock, live?: LivePublish, log?: FastifyBaseLogger): CallingServices {
  const publish = queuePublisher(live, log);
  return {
    types: new CallingTypesService(db, clock, publish),
    queue: new CallingQueueService(db, clock, publish),
    actions: new CallingActionsService(db, clock, publish),
    screens: new ScreenService(db, clock),
  };
}

/**
 * The registry's arrival hook (RegistryService.onArrival): the arrived exam checks into its
 * modality's queue. A failure is logged and never fails the arrival.
 */
export function checkInOnArrival(queue: CallingQueueService, log?: FastifyBaseLogger) {
  return async (arrived: { bucketId: string; scheduledExam: { id: string } }): Promise<void> => {
    try {
      await queue.onArrival(arrived);
    } catch (err) {
      log?.error({ err, scheduledExamId: arrived.scheduledExam.id }, 'queue check-in on arrival failed');
    }
  };
}

/**
 * The registry's undone-arrival hook (RegistryService.onArrivalUndone): a cancelled arrival
 * leaves today's queue. A failure is logged and never fails the desk's change.
 */
export function leaveQueueOnArrivalUndone(queue: CallingQueueService, log?: FastifyBaseLogger) {
  return async (undone: { scheduledExamId: string }): Promise<void> => {
    try {
      await queue.onArrivalUndone(undone);
    } catch (err) {
      log?.error({ err, scheduledExamId: undone.scheduledExamId }, 'leaving the queue on a cancelled arrival failed');
    }
  };
}

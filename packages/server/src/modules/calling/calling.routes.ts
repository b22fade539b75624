import { callingCalls, callingSettingsCalls, screenCalls, screenTokenCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute, definePublicCallRoute } from '../../platform/call-route.js';
import type { Db } from '../../platform/db.js';
import { ownerFrom, type RawInput } from '../../platform/route.js';
import type { CallingActionsService } from './calling-actions.service.js';
import { ownerOfQueueExam, ownerOfQueueType, ownerOfScreenToken } from './calling.owners.js';
import type { CallingQueueService } from './calling-queue.service.js';
import type { CallingTypesService } from './calling-types.service.js';
import { screenTokenOf, type ScreenService } from './screen.service.js';

export interface CallingServices {
  types: CallingTypesService;
  queue: CallingQueueService;
  actions: CallingActionsService;
  screens: ScreenService;
}

/**
 * Patient calling's calls (contracts calling-calls.ts). A call that names its organization in the
 * body or the query (or may be made with either calling action) is 'account' and its service
 * checks the actions there; a call on a row names its owner here. Every service also refuses a
 * group that turned calling off. GET screen/queue is public: the screen token is its credential.
 */
export function callingRoutes(app: FastifyInstance, db: Db, s: CallingServices): void {
  const caller = ({ account, request }: { account: AccountRow; request: FastifyRequest }) => ({
    account,
    ctx: auditContext(request),
  });
  const ofBucket = ({ params }: RawInput) => params.bucketId;
  const manage = { action: 'calling_manage_queue', owner: ofBucket } as const;

  defineCallRoute(app, callingCalls.buckets, {
    summary: 'The organizations where the caller calls patients or manages the queue',
    auth: 'account',
    handler: ({ account }) => s.types.buckets(account),
  });
  defineCallRoute(app, callingCalls.queueTypes, {
    summary: "The organization's call queues",
    auth: 'account',
    handler: (input) => s.types.list(caller(input), input.params.bucketId),
  });
  defineCallRoute(app, callingCalls.addQueueType, {
    summary: 'Add a call queue',
    auth: 'account',
    handler: (input) => s.types.add(caller(input), input.body),
  });
  defineCallRoute(app, callingCalls.updateQueueType, {
    summary: 'Change a call queue',
    auth: { action: 'calling_manage_queue', owner: ownerFrom('id', ownerOfQueueType, db) },
    handler: (input) => s.types.update(caller(input), input.params.id, input.body),
  });
  defineCallRoute(app, callingCalls.deleteQueueType, {
    summary: 'Delete a call queue (none of its patients of today still open)',
    auth: { action: 'calling_manage_queue', owner: ownerFrom('id', ownerOfQueueType, db) },
    handler: (input) => s.types.remove(caller(input), input.params.id),
  });
  defineCallRoute(app, callingCalls.query, {
    summary: "An organization's queue of a day",
    auth: 'account',
    handler: (input) => s.queue.query(caller(input), input.body),
  });
  defineCallRoute(app, callingCalls.checkIn, {
    summary: 'Check an arrived exam into a queue of today',
    auth: 'account',
    handler: (input) => s.queue.checkIn(caller(input), input.body),
  });
  defineCallRoute(app, callingCalls.action, {
    summary: 'Call, call again, pass, return, finish or move a queue exam',
    auth: { action: 'calling_call', owner: ownerFrom('id', ownerOfQueueExam, db) },
    handler: (input) => s.actions.act(caller(input), input.params.id, input.body),
  });
  defineCallRoute(app, callingCalls.resort, {
    summary: 'Move a waiting patient to another waiting number',
    auth: { action: 'calling_call', owner: ownerFrom('id', ownerOfQueueExam, db) },
    handler: (input) => s.actions.resort(caller(input), input.params.id, input.body.targetQueueNo),
  });
  defineCallRoute(app, callingCalls.callNext, {
    summary: 'Call the next waiting patient of a queue',
    auth: 'account',
    handler: (input) => s.queue.callNext(caller(input), input.body),
  });
  defineCallRoute(app, callingCalls.calling, {
    summary: 'The current call of each room',
    auth: 'account',
    handler: (input) => s.queue.calling(caller(input), input.query),
  });
  defineCallRoute(app, callingCalls.missed, {
    summary: 'The missed patients of a day',
    auth: 'account',
    handler: (input) => s.queue.missed(caller(input), input.query),
  });
  defineCallRoute(app, callingSettingsCalls.get, {
    summary: "The organization's calling settings",
    auth: 'account',
    handler: (input) => s.types.settings(caller(input), input.params.bucketId),
  });
  defineCallRoute(app, callingSettingsCalls.update, {
    summary: "Change the organization's calling settings",
    auth: manage,
    handler: (input) => s.types.saveSettings(caller(input), input.params.bucketId, input.body),
  });
  defineCallRoute(app, screenTokenCalls.list, {
    summary: "The organization's screen tokens",
    auth: manage,
    handler: (input) => s.screens.list(caller(input), input.params.bucketId),
  });
  defineCallRoute(app, screenTokenCalls.issue, {
    summary: 'Issue a screen token (shown once)',
    auth: manage,
    handler: (input) => s.screens.issue(caller(input), input.params.bucketId, input.body.label),
  });
  defineCallRoute(app, screenTokenCalls.revoke, {
    summary: 'Revoke a screen token',
    auth: { action: 'calling_manage_queue', owner: ownerFrom('id', ownerOfScreenToken, db) },
    handler: (input) => s.screens.revoke(caller(input), input.params.id),
  });
  definePublicCallRoute(app, screenCalls.queue, {
    summary: "A waiting-room screen's view of its organization's queue (Authorization: Screen <token>)",
    handler: ({ request }) => s.screens.screenQueue(screenTokenOf(request.headers.authorization)),
  });
}

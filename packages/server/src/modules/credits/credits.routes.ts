import { creditCalls } from '@yyp/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import { auditContext } from '../../platform/audit.js';
import { defineCallRoute } from '../../platform/call-route.js';
import { idempotencyKeyOf } from '../../platform/idempotency.js';
import type { RawInput } from '../../platform/route.js';
import type { CreditsService } from './credits.service.js';
import { planRoutes } from './plans.routes.js';
import type { PlansService } from './plans.service.js';
import { sendXlsx } from '../../platform/xlsx.js';

/**
 * Group credits (contracts creditCalls). Calls on a group name it in the query, so the route checks
 * membership before the body is read; billing view and the group's enableCredit flag are the
 * service's (credits.access.ts). credits/charge is the payments module's. The plans' routes too
 * (plans.routes.ts).
 */
export function creditRoutes(app: FastifyInstance, credits: CreditsService, plans: PlansService): void {
  planRoutes(app, plans);
  const caller = ({ account, request }: { account: AccountRow; request: FastifyRequest }) => ({
    account,
    ctx: auditContext(request),
  });
  const groupOfQuery = ({ query }: RawInput) => (typeof query.groupId === 'string' ? query.groupId : undefined);

  defineCallRoute(app, creditCalls.groupCredit, {
    summary: "A group's credit balance in fen (group admins and members with an order action)",
    auth: { power: 'group_read', group: groupOfQuery },
    handler: (input) => credits.groupCredit(caller(input), input.query.groupId),
  });
  defineCallRoute(app, creditCalls.bucketCredit, {
    summary: "The organization's group credit balance, for paying an order from it",
    auth: { action: 'bucket_read', owner: ({ params }) => params.bucketId },
    handler: (input) => credits.bucketCredit(caller(input), input.params.bucketId),
  });
  defineCallRoute(app, creditCalls.createToken, {
    summary:
      "A short-lived single-use bearer for credits/charge's Charge-Authorization (an order's price or an amount)",
    auth: 'account',
    handler: (input) => credits.createToken(caller(input), input.body),
  });
  defineCallRoute(app, creditCalls.topUp, {
    summary: "An offline transfer into a group's balance, recorded by a platform admin (Idempotency-Key)",
    auth: 'platformAdmin',
    handler: (input) => credits.topUp(caller(input), idempotencyKeyOf(input.request), input.body),
  });
  defineCallRoute(app, creditCalls.pageQuery, {
    summary: "A page of the group's credit statement (date range, kinds, currency)",
    auth: { power: 'group_read', group: groupOfQuery },
    handler: (input) => credits.page(caller(input), input.query.groupId, input.body),
  });
  defineCallRoute(app, creditCalls.pageQuerySum, {
    summary: "The group's credit statement summed per kind and currency",
    auth: { power: 'group_read', group: groupOfQuery },
    handler: (input) => credits.sums(caller(input), input.query.groupId, input.body.filters),
  });
  defineCallRoute(app, creditCalls.exportExcel, {
    summary: "The group's credit statement as .xlsx (at most 5,000 lines)",
    auth: { power: 'group_read', group: groupOfQuery },
    handler: async (input) =>
      sendXlsx(input.reply, await credits.exportLines(caller(input), input.query.groupId, input.body)),
  });
  defineCallRoute(app, creditCalls.exportExcelSum, {
    summary: "The group's credit statement sums as .xlsx",
    auth: { power: 'group_read', group: groupOfQuery },
    handler: async (input) =>
      sendXlsx(input.reply, await credits.exportSums(caller(input), input.query.groupId, input.body)),
  });
}

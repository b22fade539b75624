import { planCalls } from '@yyp/contracts';
import type { FastifyInstance } from 'fastify';
import { defineCallRoute } from '../../platform/call-route.js';
import type { RawInput } from '../../platform/route.js';
import type { PlansService } from './plans.service.js';

/** Plans of private organizations (contracts planCalls); the organization or group is in the query. */
export function planRoutes(app: FastifyInstance, plans: PlansService): void {
  const fromQuery = (key: 'bucketId' | 'groupId') => (input: RawInput) =>
    typeof input.query[key] === 'string' ? input.query[key] : undefined;

  defineCallRoute(app, planCalls.available, {
    summary: "The organization's plan while it can receive uploads (empty when used up or expired)",
    auth: { action: 'bucket_read', owner: fromQuery('bucketId') },
    handler: ({ bucket }) => plans.available(bucket.id),
  });
  defineCallRoute(app, planCalls.check, {
    summary: 'Whether the organization can receive uploads now, and why not',
    auth: { action: 'bucket_read', owner: fromQuery('bucketId') },
    handler: ({ bucket }) => plans.check(bucket.id),
  });
  defineCallRoute(app, planCalls.dried, {
    summary: 'Private organizations the caller belongs to or administers whose quota is used up or plan expired',
    auth: 'account',
    handler: ({ account }) => plans.dried(account),
  });
  defineCallRoute(app, planCalls.groupAvailable, {
    summary: "The group's organizations that can receive uploads now, with their plans",
    auth: { power: 'group_read', group: fromQuery('groupId') },
    handler: ({ groupId }) => plans.groupAvailable(groupId),
  });
  defineCallRoute(app, planCalls.mySubscriptions, {
    summary: 'The plans of the private organizations the caller is a member of',
    auth: 'account',
    handler: ({ account }) => plans.mine(account),
  });
  defineCallRoute(app, planCalls.packages, {
    summary: 'The plans a private organization may take (set by a platform admin)',
    auth: 'account',
    handler: () => plans.packages(),
  });
}

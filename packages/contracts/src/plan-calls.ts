import { z } from 'zod';
import { defineCall } from './call.js';
import {
  planCheckSchema,
  planBucketQuerySchema,
  planGroupQuerySchema,
  planListSchema,
  planPackageSchema,
} from './plan.js';

/**
 * Plans of private organizations (spec 001 §7 "Charging, requests and payments": Plans; "Accounts":
 * user-subscriptions/mine; packages/query). The server's routes are modules/credits/plans.routes.ts.
 */
export const planCalls = {
  /** the organization's plan while it can receive uploads (empty when it cannot) */
  available: defineCall({
    method: 'GET',
    path: 'plans/available',
    query: planBucketQuerySchema,
    answer: planListSchema,
  }),
  check: defineCall({ method: 'GET', path: 'plans/check', query: planBucketQuerySchema, answer: planCheckSchema }),
  /** private organizations the caller can see whose quota is used up or whose plan expired */
  dried: defineCall({ method: 'GET', path: 'plans/dried', answer: planListSchema }),
  /** the group's organizations that can receive uploads now, with their plans */
  groupAvailable: defineCall({
    method: 'GET',
    path: 'plans/group-available',
    query: planGroupQuerySchema,
    answer: planListSchema,
  }),
  /** the plans of the private organizations the caller belongs to */
  mySubscriptions: defineCall({ method: 'GET', path: 'user-subscriptions/mine', answer: planListSchema }),
  packages: defineCall({ method: 'GET', path: 'packages/query', answer: z.array(planPackageSchema) }),
};

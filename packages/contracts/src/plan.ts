import { z } from 'zod';
import { bucketPlanSchema, PLAN_KINDS } from './archive.js';

/*
 * Plans and subscriptions of private organizations (spec 000 §3 "Plan: period or one-time, quota,
 * used count, validity, balance"; §5 "Only a private bucket with remaining quota and valid
 * subscription can receive uploads"; spec 001 §7 Plans, user-subscriptions/mine, packages/query).
 * Built on the organization's plan (archive.ts bucketPlanSchema, GET buckets/{id}/plan); the rule is
 * the archive's (uploadBlock). "Dried": private organizations whose quota is used up or whose plan
 * expired (or that have none).
 */

const id = z.string().min(1).max(64);

/** An organization's plan with whose it is and what is left. */
export const planStatusSchema = bucketPlanSchema.extend({
  bucketId: z.string(),
  bucketName: z.string(),
  groupId: z.string(),
  /** studies left; null: unlimited (or a public organization, which needs no plan) */
  remaining: z.number().int().nullable(),
  /** it can receive uploads now (blocked is null) */
  available: z.boolean(),
});
export type PlanStatus = z.infer<typeof planStatusSchema>;
export const planListSchema = z.array(planStatusSchema);

export const planBucketQuerySchema = z.object({ bucketId: id });
export const planGroupQuerySchema = z.object({ groupId: id });

/** GET plans/check?bucketId: whether the organization may receive uploads now, and why not. */
export const planCheckSchema = planStatusSchema.pick({
  bucketId: true,
  available: true,
  blocked: true,
  remaining: true,
  expiresAt: true,
});
export type PlanCheck = z.infer<typeof planCheckSchema>;

/**
 * GET packages/query: the plans a private organization may take. A platform admin sets one on the
 * organization (PUT buckets/{id}/plan) after the agreed transfer, so no price is listed here.
 */
export const planPackageSchema = z.object({
  id: z.string(),
  kind: z.enum(PLAN_KINDS),
  /** studies; null: unlimited */
  quota: z.number().int().nullable(),
  /** days of validity; null: until used up (one-time) */
  validityDays: z.number().int().nullable(),
});
export type PlanPackage = z.infer<typeof planPackageSchema>;

export const PLAN_PACKAGES: readonly PlanPackage[] = [
  { id: 'period-1000-1y', kind: 'period', quota: 1000, validityDays: 365 },
  { id: 'period-5000-1y', kind: 'period', quota: 5000, validityDays: 365 },
  { id: 'period-unlimited-1y', kind: 'period', quota: null, validityDays: 365 },
  { id: 'one-time-100', kind: 'oneTime', quota: 100, validityDays: null },
];

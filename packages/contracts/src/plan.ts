import { z } from 'zod';
import { bucketPlanSchema, PLAN_KINDS } from './archive.js';
import { currencySchema, fenSchema } from './money.js';

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
 * GET packages/query: the plans a private organization may take, with their prices. The prices are
 * constants here (PLAN_PACKAGES), the same for every organization; a platform admin may still set a
 * plan by hand (PUT buckets/{id}/plan) after an agreed transfer. An organization's admin buys one with
 * POST packages/buy (WeChat Native) or from the group's balance (credits/create-token + credits/charge).
 */
export const planPackageSchema = z.object({
  id: z.string(),
  kind: z.enum(PLAN_KINDS),
  /** studies; null: unlimited */
  quota: z.number().int().nullable(),
  /** days of validity; null: until used up (one-time) */
  validityDays: z.number().int().nullable(),
  priceFen: fenSchema,
  currency: currencySchema,
});
export type PlanPackage = z.infer<typeof planPackageSchema>;

export const PLAN_PACKAGES: readonly PlanPackage[] = [
  { id: 'period-1000-1y', kind: 'period', quota: 1000, validityDays: 365, priceFen: 300_000, currency: 'CNY' },
  { id: 'period-5000-1y', kind: 'period', quota: 5000, validityDays: 365, priceFen: 1_200_000, currency: 'CNY' },
  { id: 'period-unlimited-1y', kind: 'period', quota: null, validityDays: 365, priceFen: 3_000_000, currency: 'CNY' },
  { id: 'one-time-100', kind: 'oneTime', quota: 100, validityDays: null, priceFen: 50_000, currency: 'CNY' },
];

export const planPackageById = (packageId: string): PlanPackage | undefined =>
  PLAN_PACKAGES.find((p) => p.id === packageId);

/** POST packages/buy: a package for a private organization, paid by WeChat Native (a charge). */
export const planBuySchema = z.object({ bucketId: id, packageId: z.string().min(1).max(64) }).strict();
export type PlanBuy = z.infer<typeof planBuySchema>;

/** The plan fields of an organization (buckets' plan_kind, plan_quota, plan_used, plan_expires_at). */
export interface PlanFields {
  kind: PlanKind | null;
  quota: number | null;
  used: number;
  expiresAt: Date | null;
}
type PlanKind = (typeof PLAN_KINDS)[number];

/**
 * The organization's plan once a bought package is applied (on the payment's settlement, once).
 * "Valid" is a plan that has not expired (its quota may be used up); what is left of it is kept:
 * - period: valid from the current period plan's end (from now when there is none or it expired,
 *   or the current plan is one-time), for validityDays; quota: what is left + the package's;
 * - one-time: on a valid plan the package's quota is added to what is left (kind and end unchanged);
 *   otherwise a one-time plan of the package's quota, without end.
 * Unlimited (null) stays unlimited. The used count is kept (quota counts from it).
 */
export function planAfterPurchase(
  cur: PlanFields,
  pkg: Pick<PlanPackage, 'kind' | 'quota' | 'validityDays'>,
  now: Date,
): Omit<PlanFields, 'used'> {
  const valid = cur.kind !== null && (cur.expiresAt === null || cur.expiresAt.getTime() > now.getTime());
  const left = !valid ? 0 : cur.quota === null ? null : Math.max(0, cur.quota - cur.used);
  const quota = pkg.quota === null || left === null ? null : cur.used + left + pkg.quota;
  if (pkg.kind === 'period') {
    const from = valid && cur.kind === 'period' && cur.expiresAt ? cur.expiresAt : now;
    const expiresAt = new Date(from.getTime() + (pkg.validityDays ?? 0) * 86_400_000);
    return { kind: 'period', quota, expiresAt };
  }
  if (valid) return { kind: cur.kind, quota, expiresAt: cur.expiresAt };
  return { kind: 'oneTime', quota: pkg.quota === null ? null : cur.used + pkg.quota, expiresAt: null };
}

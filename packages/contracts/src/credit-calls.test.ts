import { describe, expect, it } from 'vitest';
import { callKey } from './call.js';
import { creditCalls } from './credit-calls.js';
import { createCreditTokenSchema, creditPageQuerySchema, creditTopUpSchema } from './credit.js';
import { planCalls } from './plan-calls.js';
import { PLAN_PACKAGES, planPackageSchema } from './plan.js';

describe('the credits and plans calls', () => {
  it('are the Credits and Plans calls of spec 001 §7 (credits/charge is payments), a top-up and the bucket credit', () => {
    expect(Object.values(creditCalls).map(callKey)).toEqual([
      'GET credits/group-credit',
      'GET buckets/:bucketId/credit',
      'POST credits/create-token',
      'POST credits/top-up',
      'POST credits/page-query',
      'POST credits/page-query-sum',
      'POST credits/export-excel',
      'POST credits/export-excel-sum',
    ]);
    expect(Object.values(planCalls).map(callKey)).toEqual([
      'GET plans/available',
      'GET plans/check',
      'GET plans/dried',
      'GET plans/group-available',
      'GET user-subscriptions/mine',
      'GET packages/query',
    ]);
  });

  it('takes an order or an amount of an organization for a credit token, never both nor neither', () => {
    expect(createCreditTokenSchema.parse({ orderId: 'o1' })).toEqual({ orderId: 'o1' });
    expect(createCreditTokenSchema.parse({ bucketId: 'b1', amountFen: 5 })).toEqual({
      bucketId: 'b1',
      amountFen: 5,
      currency: 'CNY',
    });
    for (const bad of [{}, { orderId: 'o1', amountFen: 5 }, { bucketId: 'b1', amountFen: 0 }, { bucketId: 'b1' }]) {
      expect(createCreditTokenSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('takes positive whole fen for a top-up and pages of at most 100', () => {
    expect(creditTopUpSchema.parse({ groupId: 'g', amountFen: 1 })).toEqual({
      groupId: 'g',
      amountFen: 1,
      currency: 'CNY',
      memo: '',
    });
    for (const amountFen of [0, -1, 0.5, 1_000_000_001]) {
      expect(creditTopUpSchema.safeParse({ groupId: 'g', amountFen }).success).toBe(false);
    }
    expect(creditPageQuerySchema.parse({})).toEqual({ filters: {}, limit: 10, skip: 0 });
    expect(creditPageQuerySchema.safeParse({ limit: 101 }).success).toBe(false);
    expect(creditPageQuerySchema.safeParse({ filters: { from: 'yesterday' } }).success).toBe(false);
  });

  it('lists plan packages of unique ids, each a valid package', () => {
    expect(new Set(PLAN_PACKAGES.map((p) => p.id)).size).toBe(PLAN_PACKAGES.length);
    for (const p of PLAN_PACKAGES) expect(planPackageSchema.parse(p)).toEqual(p);
  });
});

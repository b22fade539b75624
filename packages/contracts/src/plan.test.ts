import { describe, expect, it } from 'vitest';
import { PLAN_PACKAGES, planAfterPurchase, planPackageById, type PlanFields } from './plan.js';

const now = new Date('2026-11-27T12:00:00Z');
const day = 86_400_000;
const at = (days: number) => new Date(now.getTime() + days * day);
const period1000 = planPackageById('period-1000-1y')!;
const unlimited = planPackageById('period-unlimited-1y')!;
const oneTime = planPackageById('one-time-100')!;

describe('plan packages', () => {
  it('each has a positive price in fen and a currency', () => {
    for (const p of PLAN_PACKAGES) {
      expect(Number.isSafeInteger(p.priceFen) && p.priceFen > 0, p.id).toBe(true);
      expect(p.currency).toBe('CNY');
    }
    expect(planPackageById('nope')).toBeUndefined();
  });
});

describe('planAfterPurchase', () => {
  const none: PlanFields = { kind: null, quota: null, used: 7, expiresAt: null };

  it('a period package without a plan: a year from now, its quota counted from the used studies', () => {
    expect(planAfterPurchase(none, period1000, now)).toEqual({ kind: 'period', quota: 1007, expiresAt: at(365) });
  });

  it('a period package on an expired plan starts now and keeps nothing of it', () => {
    const expired: PlanFields = { kind: 'period', quota: 100, used: 40, expiresAt: at(-1) };
    expect(planAfterPurchase(expired, period1000, now)).toEqual({ kind: 'period', quota: 1040, expiresAt: at(365) });
  });

  it('a period package on a valid period plan runs from its end and adds to what is left', () => {
    const valid: PlanFields = { kind: 'period', quota: 1000, used: 900, expiresAt: at(30) };
    expect(planAfterPurchase(valid, period1000, now)).toEqual({ kind: 'period', quota: 2000, expiresAt: at(395) });
  });

  it('a used-up but unexpired plan keeps its end; unlimited stays unlimited', () => {
    const full: PlanFields = { kind: 'period', quota: 10, used: 12, expiresAt: at(10) };
    expect(planAfterPurchase(full, period1000, now)).toEqual({ kind: 'period', quota: 1012, expiresAt: at(375) });
    expect(planAfterPurchase(full, unlimited, now)).toEqual({ kind: 'period', quota: null, expiresAt: at(375) });
    const free: PlanFields = { kind: 'period', quota: null, used: 3, expiresAt: at(10) };
    expect(planAfterPurchase(free, period1000, now).quota).toBeNull();
  });

  it('a one-time package adds its quota to a valid plan, else becomes a one-time plan without end', () => {
    const valid: PlanFields = { kind: 'period', quota: 1000, used: 900, expiresAt: at(30) };
    expect(planAfterPurchase(valid, oneTime, now)).toEqual({ kind: 'period', quota: 1100, expiresAt: at(30) });
    const once: PlanFields = { kind: 'oneTime', quota: 100, used: 100, expiresAt: null };
    expect(planAfterPurchase(once, oneTime, now)).toEqual({ kind: 'oneTime', quota: 200, expiresAt: null });
    expect(planAfterPurchase(none, oneTime, now)).toEqual({ kind: 'oneTime', quota: 107, expiresAt: null });
    const expired: PlanFields = { kind: 'period', quota: 100, used: 40, expiresAt: at(-1) };
    expect(planAfterPurchase(expired, oneTime, now)).toEqual({ kind: 'oneTime', quota: 140, expiresAt: null });
  });

  it('a one-time plan bought again later in a period: the period starts now', () => {
    const once: PlanFields = { kind: 'oneTime', quota: 100, used: 20, expiresAt: null };
    expect(planAfterPurchase(once, period1000, now)).toEqual({ kind: 'period', quota: 1100, expiresAt: at(365) });
  });
});

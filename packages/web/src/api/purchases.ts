import type { ChargeCreated, OwnCharges, OwnChargesQuery, PlanCheck, PlanPackage } from '@yyp/contracts';
import { chargeCalls, planCalls, purchaseCalls } from '@yyp/contracts';
import { callApi } from './call';

/**
 * Purchases that are not orders (issue 24, /settings/billing; contracts payment-calls.ts
 * purchaseCalls): a WeChat top-up of a group's balance and a plan package for a private
 * organization. Each answers a charge (id + charge token) paid like an order's: its QR and status
 * are charge/{id}/* (api/billing.ts fetchChargeQr, fetchChargeStatus, confirmChargePaid).
 */

export function weixinTopUp(groupId: string, amountFen: number): Promise<ChargeCreated> {
  return callApi(purchaseCalls.weixinTopUp, { body: { groupId, amountFen } });
}

export function buyPackage(bucketId: string, packageId: string): Promise<ChargeCreated> {
  return callApi(purchaseCalls.buyPackage, { body: { bucketId, packageId } });
}

/** GET packages/query: the plan packages with their prices. */
export function fetchPackages(signal?: AbortSignal): Promise<PlanPackage[]> {
  return callApi(planCalls.packages, {}, { signal });
}

export function fetchPlanCheck(bucketId: string, signal?: AbortSignal): Promise<PlanCheck> {
  return callApi(planCalls.check, { query: { bucketId } }, { signal });
}

/** GET charge/request: the caller's own charges, newest first. */
export function fetchOwnCharges(query: OwnChargesQuery, signal?: AbortSignal): Promise<OwnCharges> {
  return callApi(chargeCalls.mine, { query }, { signal });
}

import type {
  BucketCredit,
  CreditPage,
  CreditPageQuery,
  CreditToken,
  CreditTopUp,
  CreditTopUpResult,
  GroupCredit,
} from '@yyp/contracts';
import { creditCalls, IDEMPOTENCY_HEADER } from '@yyp/contracts';
import { callApi } from './call';

/** Group credits (issue 24; contracts credit-calls.ts): balance, the single-use charge bearer, the statement. */

export function fetchGroupCredit(groupId: string, signal?: AbortSignal): Promise<GroupCredit> {
  return callApi(creditCalls.groupCredit, { query: { groupId } }, { signal });
}

export function fetchBucketCredit(bucketId: string, signal?: AbortSignal): Promise<BucketCredit> {
  return callApi(creditCalls.bucketCredit, { params: { bucketId } }, { signal });
}

/** credits/create-token for an order: the bearer credits/charge takes in Charge-Authorization. */
export function createCreditToken(orderId: string): Promise<CreditToken> {
  return callApi(creditCalls.createToken, { body: { orderId } });
}

export function queryCreditLines(groupId: string, body: CreditPageQuery, signal?: AbortSignal): Promise<CreditPage> {
  return callApi(creditCalls.pageQuery, { query: { groupId }, body }, { signal });
}

/** A top-up recorded by a platform admin (an offline transfer); one Idempotency-Key per attempt. */
export function topUpCredit(body: CreditTopUp, idempotencyKey: string): Promise<CreditTopUpResult> {
  return callApi(creditCalls.topUp, { body }, { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } });
}

import { apiRequest } from './client';
import type { AccountActionResult, AuditPage, AuditQuery, RealmPage } from './contractTypes';

/** Account administration (security admins) and the operation log (auditors), spec 001 §7. */

const account = (accountId: string) => `accounts/${encodeURIComponent(accountId)}`;

export function queryRealmAccounts(
  groupId: string,
  body: { q?: string; skip?: number; limit?: number },
  signal?: AbortSignal,
): Promise<RealmPage> {
  return apiRequest<RealmPage>('accounts/query-in-realm', { method: 'POST', query: { groupId }, body, signal });
}

/** 0 enables, 1 disables; disabling ends every session of that account. */
export function setAccountStatus(accountId: string, status: 0 | 1): Promise<{ id: string; disabled: number }> {
  return apiRequest<{ id: string; disabled: number }>(`${account(accountId)}/status`, {
    method: 'POST',
    body: { status },
  });
}

export function unlockAccount(accountId: string): Promise<AccountActionResult> {
  return apiRequest<AccountActionResult>(`${account(accountId)}/actions/unlock`, { method: 'POST' });
}

/** Answers a one-time password to hand over; its owner must replace it at the next login. */
export function resetAccountPassword(accountId: string): Promise<AccountActionResult> {
  return apiRequest<AccountActionResult>(`${account(accountId)}/actions/reset-password`, { method: 'POST' });
}

export function queryAuditLogs(groupId: string, body: AuditQuery, signal?: AbortSignal): Promise<AuditPage> {
  return apiRequest<AuditPage>('domains/audit-logs', { method: 'POST', query: { groupId }, body, signal });
}

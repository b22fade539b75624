import { adminCalls, smsAdminCalls, type SmsAccountRequest, type SmsStatus } from '@yyp/contracts';
import { callApi } from './call';
import type { PlatformGroupPage } from '@yyp/contracts';
import type { AccountActionResult, AuditPage, AuditQuery, RealmPage } from './contractTypes';

/** The body of POST admin/groups/page-query. */
export interface PlatformGroupQuery {
  q?: string;
  skip?: number;
  limit?: number;
}

/** Account administration (security admins) and the operation log (auditors), spec 001 §7 (adminCalls). */

export function queryRealmAccounts(
  groupId: string,
  body: { q?: string; skip?: number; limit?: number },
  signal?: AbortSignal,
): Promise<RealmPage> {
  return callApi(adminCalls.realm, { query: { groupId }, body }, { signal });
}

/** 0 enables, 1 disables; disabling ends every session of that account. */
export function setAccountStatus(accountId: string, status: 0 | 1): Promise<{ id: string; disabled: number }> {
  return callApi(adminCalls.accountStatus, { params: { accountId }, body: { status } });
}

export function unlockAccount(accountId: string): Promise<AccountActionResult> {
  return callApi(adminCalls.accountAction, { params: { accountId, action: 'unlock' } });
}

/** Answers a one-time password to hand over; its owner must replace it at the next login. */
export function resetAccountPassword(accountId: string): Promise<AccountActionResult> {
  return callApi(adminCalls.accountAction, { params: { accountId, action: 'reset-password' } });
}

export function queryAuditLogs(groupId: string, body: AuditQuery, signal?: AbortSignal): Promise<AuditPage> {
  return callApi(adminCalls.auditLogs, { query: { groupId }, body }, { signal });
}

/** The whole platform's operation log (platform admin). */
export function queryPlatformAuditLogs(body: AuditQuery, signal?: AbortSignal): Promise<AuditPage> {
  return callApi(adminCalls.platformAuditLogs, { body }, { signal });
}

/** Every group of the platform (platform admin). */
export function queryPlatformGroups(body: PlatformGroupQuery, signal?: AbortSignal): Promise<PlatformGroupPage> {
  return callApi(adminCalls.platformGroups, { body }, { signal });
}

/** GET admin/sms: the SMS service in effect (platform admin; never the secret). */
export function getSmsStatus(signal?: AbortSignal): Promise<SmsStatus> {
  return callApi(smsAdminCalls.status, {}, { signal });
}

/** POST admin/sms/test: a test message to this number. */
export function sendSmsTest(mobile: string): Promise<void> {
  return callApi(smsAdminCalls.test, { body: { mobile } });
}

/** PUT admin/sms: the platform's own SMS account, or no codes, in place of the environment's. */
export function saveSmsAccount(body: SmsAccountRequest): Promise<SmsStatus> {
  return callApi(smsAdminCalls.save, { body });
}

/** DELETE admin/sms: back to the SMS service of the server's environment. */
export function resetSmsAccount(): Promise<SmsStatus> {
  return callApi(smsAdminCalls.reset, {});
}

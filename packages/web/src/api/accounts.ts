import {
  accountCalls,
  type AccountSuggestion,
  type BindMobileCodeRequest,
  type BindMobileRequest,
  type ChangePasswordRequest,
  type LoginRequest,
  type MaskedMobile,
  type MyOrganization,
  type PasswordResetRequest,
  type PermissionEntry,
  type RegisterRequest,
  type TokenInfo,
  type UpdateMeRequest,
  type UpdatePasswordRequest,
  type User,
} from '@yyp/contracts';
import { callApi } from './call';

/** Calls of spec 001 §7 "Authentication and accounts", made from their contract entries (accountCalls). */

export function login(body: LoginRequest): Promise<TokenInfo> {
  return callApi(accountCalls.login, { body });
}

export function register(body: RegisterRequest): Promise<TokenInfo> {
  return callApi(accountCalls.register, { body });
}

export function fetchMe(signal?: AbortSignal): Promise<User> {
  return callApi(accountCalls.me, {}, { signal });
}

export function updateMe(body: UpdateMeRequest): Promise<User> {
  return callApi(accountCalls.updateMe, { body });
}

/** Logout must not keep the user waiting on an unreachable server. */
const LOGOUT_TIMEOUT_MS = 3000;

/**
 * Ends the session on the server: the token is refused from then on, on every instance. It goes
 * as an anonymous call with its own header, so a token the server already refused ends quietly.
 */
export async function logout(accessToken: string): Promise<void> {
  await callApi(
    accountCalls.logout,
    {},
    { anonymous: true, headers: { Authorization: `Bearer ${accessToken}` }, timeoutMs: LOGOUT_TIMEOUT_MS },
  );
}

/** Answers a new token: the old one stops working once the password changed. */
export function changePassword(body: ChangePasswordRequest): Promise<TokenInfo> {
  return callApi(accountCalls.changePassword, { body });
}

/** The password-expired path; public, the old password proves the caller. */
export function updatePassword(body: UpdatePasswordRequest): Promise<TokenInfo> {
  return callApi(accountCalls.updatePassword, { body });
}

export function fetchMyPermissions(signal?: AbortSignal): Promise<PermissionEntry[]> {
  return callApi(accountCalls.permissions, {}, { signal });
}

export function fetchMyOrganizations(signal?: AbortSignal): Promise<MyOrganization[]> {
  return callApi(accountCalls.organizations, {}, { signal });
}

export function fetchMaskedMobile(username: string): Promise<MaskedMobile> {
  return callApi(accountCalls.maskedMobile, { params: { name: username } });
}

export async function sendResetPasswordCode(username: string): Promise<void> {
  await callApi(accountCalls.sendResetCode, { params: { name: username } });
}

export async function resetPassword(username: string, body: PasswordResetRequest): Promise<void> {
  await callApi(accountCalls.resetPassword, { params: { name: username }, body });
}

/** Colleagues by username prefix or name; accounts outside the caller's groups only by exact username. */
export function fetchAccountSuggestions(q: string, signal?: AbortSignal): Promise<AccountSuggestion[]> {
  return callApi(accountCalls.suggestions, { query: { q } }, { signal });
}

/** Sends a verification code to the number to bind (204). */
export function sendBindMobileCode(body: BindMobileCodeRequest): Promise<void> {
  return callApi(accountCalls.sendBindMobileCode, { body });
}

/** Binds the number the code was sent to; answers the user as now. */
export function bindMobile(body: BindMobileRequest): Promise<User> {
  return callApi(accountCalls.bindMobile, { body });
}

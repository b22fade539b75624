import type {
  AccountSuggestion,
  ChangePasswordRequest,
  LoginRequest,
  MaskedMobile,
  MyOrganization,
  PasswordResetRequest,
  PermissionEntry,
  RegisterRequest,
  TokenInfo,
  UpdateMeRequest,
  UpdatePasswordRequest,
  User,
} from '@yyp/contracts';
import { apiRequest } from './client';

/** Calls of spec 001 §7 "Authentication and accounts", typed from the contracts. */

export function login(body: LoginRequest): Promise<TokenInfo> {
  return apiRequest<TokenInfo>('accounts/login-in', { method: 'POST', body });
}

export function register(body: RegisterRequest): Promise<TokenInfo> {
  return apiRequest<TokenInfo>('accounts', { method: 'POST', body });
}

export function fetchMe(signal?: AbortSignal): Promise<User> {
  return apiRequest<User>('accounts/me', { signal });
}

export function updateMe(body: UpdateMeRequest): Promise<User> {
  return apiRequest<User>('accounts/me', { method: 'PATCH', body });
}

/** Logout must not keep the user waiting on an unreachable server. */
const LOGOUT_TIMEOUT_MS = 3000;

/**
 * Ends the session on the server: the token is refused from then on, on every instance. It goes
 * as an anonymous call with its own header, so a token the server already refused ends quietly.
 */
export function logout(accessToken: string): Promise<void> {
  return apiRequest<void>('accounts/logout', {
    method: 'POST',
    anonymous: true,
    headers: { Authorization: `Bearer ${accessToken}` },
    timeoutMs: LOGOUT_TIMEOUT_MS,
  });
}

/** Answers a new token: the old one stops working once the password changed. */
export function changePassword(body: ChangePasswordRequest): Promise<TokenInfo> {
  return apiRequest<TokenInfo>('accounts/change-password', { method: 'POST', body });
}

/** The password-expired path; public, the old password proves the caller. */
export function updatePassword(body: UpdatePasswordRequest): Promise<TokenInfo> {
  return apiRequest<TokenInfo>('accounts/update-password', { method: 'POST', body });
}

export function fetchMyPermissions(signal?: AbortSignal): Promise<PermissionEntry[]> {
  return apiRequest<PermissionEntry[]>('accounts/me/permissions', { signal });
}

export function fetchMyOrganizations(signal?: AbortSignal): Promise<MyOrganization[]> {
  return apiRequest<MyOrganization[]>('accounts/me/organizations', { signal });
}

export function fetchMaskedMobile(username: string): Promise<MaskedMobile> {
  return apiRequest<MaskedMobile>(`accounts/${encodeURIComponent(username)}/mobile`);
}

export function sendResetPasswordCode(username: string): Promise<void> {
  return apiRequest<void>(`accounts/${encodeURIComponent(username)}/code/reset-password`, { method: 'POST' });
}

export function resetPassword(username: string, body: PasswordResetRequest): Promise<void> {
  return apiRequest<void>(`accounts/${encodeURIComponent(username)}/password/reset`, { method: 'POST', body });
}

/** Colleagues by username prefix or name; accounts outside the caller's groups only by exact username. */
export function fetchAccountSuggestions(q: string, signal?: AbortSignal): Promise<AccountSuggestion[]> {
  return apiRequest<AccountSuggestion[]>('accounts/suggestions', { query: { q }, signal });
}

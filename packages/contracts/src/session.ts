/**
 * Session rules of spec 001 §8 shared by the web client and tests.
 * Paths are relative to the API base, without a leading slash or query.
 */
export const TOKENLESS_PATHS: readonly string[] = [
  'accounts',
  'accounts/login',
  'domain',
  'share/report',
  'accounts/auth',
  'anonymous/report',
  'orders/publish-reports',
  'publishers/co-exams',
  'accounts/login-in',
  'publishers/find-co-exams',
  'auth/token',
  'auth/wx/callback',
  'auth/wx/bind',
  'auth/wx/register',
];

/** Tokenless paths that are so for reading only: the domain configuration is public, its change (PUT by a platform admin) is not. */
const TOKENLESS_FOR_READS: readonly string[] = ['domain'];

/** True when a call to `path` (with this method) should carry the stored bearer token. */
export function shouldAttachToken(path: string, body?: unknown, method = 'GET'): boolean {
  const bare = path.replace(/^\/+/, '').split('?')[0]!.replace(/\/+$/, '');
  if (TOKENLESS_PATHS.includes(bare)) return TOKENLESS_FOR_READS.includes(bare) && method.toUpperCase() !== 'GET';
  if (typeof body === 'object' && body !== null && 'token' in body) return false;
  return true;
}

/** Authenticated only if a token exists and its expiry (seconds) has not passed. */
export function isSessionValid(
  token: { accessToken?: string | null; expires?: number | null } | null | undefined,
  nowSeconds: number,
): boolean {
  if (!token?.accessToken) return false;
  if (typeof token.expires !== 'number') return false;
  return token.expires > nowSeconds;
}

/** Whether the user has been idle longer than the domain allows (0 = never). */
export function isInactive(lastActivityMs: number, nowMs: number, maxInactiveMinutes: number): boolean {
  if (!maxInactiveMinutes || maxInactiveMinutes <= 0) return false;
  return nowMs - lastActivityMs >= maxInactiveMinutes * 60_000;
}

/** Public pages on which a 401 does nothing further and the expiry dialog stays hidden. */
export const EXPIRY_DIALOG_SUPPRESSED_ROUTES: readonly string[] = [
  '/login',
  '/default-login',
  '/forget-password',
  '/register',
  '/loginCallback',
  '/change-password',
];

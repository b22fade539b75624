import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './errors';

/** Retry only what may succeed on a second try: network trouble and 5xx, never a 4xx. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) {
    return false;
  }
  if (!isApiError(error)) {
    return false;
  }
  return error.code === 'NetworkError' || error.status >= 500;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

export const queryKeys = {
  domain: ['domain'] as const,
  me: ['accounts', 'me'] as const,
  permissions: ['accounts', 'me', 'permissions'] as const,
  organizations: ['accounts', 'me', 'organizations'] as const,
};

/**
 * Drop everything cached for the signed-in user. The public domain configuration stays, so the
 * login page keeps its branding while the user signs out.
 */
export function clearUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.domain[0] });
}

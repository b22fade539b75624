import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TokenInfo } from '@yyp/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { fetchMe, fetchMyOrganizations } from '../../api/accounts';
import { clearUserData, queryKeys } from '../../api/queryClient';
import { sessionStore } from '../../api/sessionStore';
import { DEFAULT_LANDING } from '../../shared/session/guards';

/** Where the platform admin works when no organization of theirs has a study list to show. */
const PLATFORM_ADMIN_LANDING = '/settings/admin';

/**
 * The default landing of this user: the study list, but the platform's administration for a
 * platform admin who belongs to no organization (the demo `admin` would otherwise land on an
 * empty list). The answers stay cached for the shell.
 */
async function landingOf(queryClient: QueryClient): Promise<string> {
  try {
    const me = await queryClient.fetchQuery({ queryKey: queryKeys.me, queryFn: ({ signal }) => fetchMe(signal) });
    if (!me.isPlatformAdmin) return DEFAULT_LANDING;
    const organizations = await queryClient.fetchQuery({
      queryKey: queryKeys.organizations,
      queryFn: ({ signal }) => fetchMyOrganizations(signal),
    });
    return organizations.length === 0 ? PLATFORM_ADMIN_LANDING : DEFAULT_LANDING;
  } catch {
    return DEFAULT_LANDING;
  }
}

/** Store the new session, forget the previous user's cached data and go on to `target`. */
export function useCompleteSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (username: string, token: TokenInfo, target: string) => {
      clearUserData(queryClient);
      sessionStore.signIn(username, token);
      const next = target === DEFAULT_LANDING ? await landingOf(queryClient) : target;
      await navigate(next, { replace: true });
    },
    [queryClient, navigate],
  );
}

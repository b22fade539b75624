import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { logout } from '../../api/accounts';
import { clearUserData } from '../../api/queryClient';
import { sessionStore } from '../../api/sessionStore';
import { loginRedirectPath } from '../../shared/session/guards';
import { forgetAccountPending } from '../../shared/upload/pendingUploads';

export type LogoutReason = 'user' | 'inactive';

/**
 * Logout ends the session on the server first (best effort: an unreachable server or a token it
 * already refused changes nothing), then clears all state: stored token and user, the charge
 * token, unfinished uploads and the query cache. After an inactivity logout the login page offers
 * to come back to where the user was.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const here = location.pathname + location.search;
  return useCallback(
    async (reason: LogoutReason = 'user') => {
      const token = sessionStore.getAccessToken();
      if (token) {
        await logout(token).catch(() => undefined);
      }
      sessionStore.signOut(reason);
      forgetAccountPending();
      clearUserData(queryClient);
      await navigate(reason === 'inactive' ? loginRedirectPath(here) : '/login', { replace: true });
    },
    [queryClient, navigate, here],
  );
}

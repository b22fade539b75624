import { useQueryClient } from '@tanstack/react-query';
import type { TokenInfo } from '@yyp/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { clearUserData } from '../../api/queryClient';
import { sessionStore } from '../../api/sessionStore';

/** Store the new session, forget the previous user's cached data and go on to `target`. */
export function useCompleteSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (username: string, token: TokenInfo, target: string) => {
      clearUserData(queryClient);
      sessionStore.signIn(username, token);
      await navigate(target, { replace: true });
    },
    [queryClient, navigate],
  );
}

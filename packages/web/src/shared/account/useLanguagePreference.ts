import { useQueryClient } from '@tanstack/react-query';
import { isSessionValid, type Language, type User } from '@yyp/contracts';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { updateMe } from '../../api/accounts';
import { queryKeys } from '../../api/queryClient';
import { nowSeconds, sessionStore } from '../../api/sessionStore';
import { currentLanguage, setLanguage } from '../../i18n';

/**
 * The current language and a switch for it. The choice is stored in this browser and, when
 * signed in, saved as the user's `language` preference (PATCH accounts/me).
 */
export function useLanguagePreference() {
  useTranslation(); // re-render when the language changes
  const queryClient = useQueryClient();
  const language = currentLanguage();

  const changeLanguage = useCallback(
    async (next: Language) => {
      await setLanguage(next);
      if (!isSessionValid(sessionStore.getState().session, nowSeconds())) {
        return;
      }
      const me = queryClient.getQueryData<User>(queryKeys.me);
      try {
        const user = await updateMe({ preferences: { ...me?.preferences, language: next } });
        queryClient.setQueryData(queryKeys.me, user);
      } catch {
        // The interface already switched; saving the preference is best effort.
      }
    },
    [queryClient],
  );

  return { language, changeLanguage };
}

/**
 * When a user's profile arrives, adopt the language saved in their preferences, once per user so
 * a later switch in this session is not undone by a stale profile.
 */
export function useApplySavedLanguage(user: User | undefined): void {
  const appliedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!user || appliedFor.current === user.id) {
      return;
    }
    appliedFor.current = user.id;
    const saved = user.preferences.language;
    if (saved && saved !== currentLanguage()) {
      void setLanguage(saved);
    }
  }, [user]);
}

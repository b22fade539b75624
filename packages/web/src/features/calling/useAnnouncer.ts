import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSpeech } from '../../api/calling';
import { sessionStore } from '../../api/sessionStore';
import { useNotify } from '../../shared/notify/useNotify';
import { currentLanguage } from '../../i18n';
import { createAnnouncer, createAudioPlayer, webSpeech, type Announcer } from './announcer';

/**
 * An announcer while the page is mounted: the server's audio (sent with `authorization()`), the
 * browser's speech when the server has none; on unmount the audio stops and waiting calls drop.
 * `onError` hears a failed announcement.
 */
export function useAnnouncer(authorization: () => string | null, onError?: (error: unknown) => void) {
  const auth = useRef(authorization);
  const failed = useRef(onError);
  const current = useRef<Announcer | null>(null);
  useEffect(() => {
    auth.current = authorization;
    failed.current = onError;
  });
  useEffect(() => {
    const player = createAudioPlayer();
    const announcer = createAnnouncer({
      render: (text, lang) => fetchSpeech(text, lang, auth.current()),
      play: (blob) => player.play(blob),
      speak: webSpeech(),
      onError: (error) => failed.current?.(error),
    });
    current.current = announcer;
    return () => {
      current.current = null;
      announcer.dispose();
      player.dispose();
    };
  }, []);
  return useMemo(() => ({ say: (text: string) => current.current?.announce(text, currentLanguage()) }), []);
}

/** The signed-in desk's announcer (/calling, the settings' preview): the session's token, a toast when one fails. */
export function useDeskAnnouncer() {
  const { t } = useTranslation();
  const notify = useNotify();
  return useAnnouncer(
    () => {
      const token = sessionStore.getAccessToken();
      return token ? `Bearer ${token}` : null;
    },
    () => notify.info(t('calling.sound.failed')),
  );
}

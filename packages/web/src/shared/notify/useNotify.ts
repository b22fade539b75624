import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import { isTokenError } from '../../api/errors';

/** Bottom toasts (3 s, spec 001 §8) for call results; token errors are left to the session dialog. */
export function useNotify() {
  const { message } = App.useApp();
  const { t } = useTranslation();
  return useMemo(
    () => ({
      error(error: unknown): void {
        if (isTokenError(error)) {
          return;
        }
        const text = errorMessage(t, error);
        // Keyed by its text: the same failure repeated refreshes one toast instead of stacking.
        void message.error({ content: text, key: `error:${text}` });
      },
      success(text: string): void {
        void message.success(text);
      },
      info(text: string): void {
        void message.info(text);
      },
    }),
    [message, t],
  );
}

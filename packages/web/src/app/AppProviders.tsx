import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TOAST_SECONDS } from '@yyp/contracts';
import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n';
import { antdLocaleFor } from '../i18n/language';
import { useReducedMotion } from '../ui/useReducedMotion';
import { cspNonce } from './csp';

const theme: ThemeConfig = {
  token: {
    colorPrimary: '#1664ff',
    borderRadius: 6,
    // The 'YYP Tibetan …' faces (global.css) apply to Tibetan letters only, scaled to match.
    fontFamily:
      "'YYP Tibetan Noto', 'YYP Tibetan TMU', 'YYP Tibetan Himalaya', -apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', Jomolhari, 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: { headerBg: '#0b1f3a', headerHeight: 56, headerPadding: '0 24px', bodyBg: '#f3f5f9' },
    Menu: { darkItemBg: '#0b1f3a', darkPopupBg: '#0b1f3a', darkItemSelectedBg: '#1664ff' },
  },
};

/** Ant Design's style elements carry the page's nonce (the server's Content-Security-Policy). */
const csp = cspNonce ? { nonce: cspNonce } : {};

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/**
 * Query cache, Ant Design theme and locale (following the interface language), toasts. Ant Design's
 * motion is off when the system asks for reduced motion.
 */
export function AppProviders({ queryClient, children }: AppProvidersProps) {
  useTranslation(); // re-render on language change so the Ant Design locale follows
  const language = currentLanguage();
  const reducedMotion = useReducedMotion();
  const themed = useMemo<ThemeConfig>(
    () => (reducedMotion ? { ...theme, token: { ...theme.token, motion: false } } : theme),
    [reducedMotion],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={antdLocaleFor(language)} theme={themed} csp={csp}>
        <AntApp message={{ duration: TOAST_SECONDS, maxCount: 3 }} className="yyp-app">
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}

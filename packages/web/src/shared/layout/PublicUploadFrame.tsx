import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../ui/BrandMark';
import { LanguageSwitch } from '../../ui/LanguageSwitch';
import { useLanguagePreference } from '../account/useLanguagePreference';
import { useDomain } from '../domain/useDomain';

/** Frame of the public upload page: branding and language only, no way into the app. */
export function PublicUploadFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { domain } = useDomain();
  const { language, changeLanguage } = useLanguagePreference();
  const productName = domain.displayName || t('app.defaultName');

  return (
    <div className="yyp-public-upload">
      <header className="yyp-public-upload__top">
        <BrandMark name={productName} logo={domain.logo || undefined} size={28} />
        <LanguageSwitch value={language} onChange={(next) => void changeLanguage(next)} tone="inverse" />
      </header>
      <main className="yyp-public-upload__main">{children}</main>
    </div>
  );
}

import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../ui/BrandMark';
import { FooterHtml } from '../../ui/FooterHtml';
import { LanguageSwitch } from '../../ui/LanguageSwitch';
import { useLanguagePreference } from '../../shared/account/useLanguagePreference';
import { useDomain } from '../../shared/domain/useDomain';

interface AuthLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Links under the card body (register, back to login). */
  footer?: ReactNode;
}

/** Frame of the public account pages: branding, language switch and one centered card. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  const { t } = useTranslation();
  const { domain } = useDomain();
  const { language, changeLanguage } = useLanguagePreference();
  const productName = domain.displayName || t('app.defaultName');

  function handleLanguageChange(next: typeof language) {
    void changeLanguage(next);
  }

  return (
    <div
      className="yyp-auth"
      style={domain.bgImgUrl ? { backgroundImage: `url(${JSON.stringify(domain.bgImgUrl)})` } : undefined}
    >
      <header className="yyp-auth__top">
        <BrandMark name={productName} logo={domain.logo || undefined} />
        <LanguageSwitch value={language} onChange={handleLanguageChange} />
      </header>
      <main className="yyp-auth__main">
        <section className="yyp-auth__intro" aria-hidden="true">
          <div className="yyp-auth__intro-name">{productName}</div>
          <div className="yyp-auth__intro-tagline">{t('app.tagline')}</div>
        </section>
        <Card className="yyp-auth__card" variant="borderless">
          <Typography.Title level={3} className="yyp-auth__title">
            {title}
          </Typography.Title>
          {subtitle && (
            <Typography.Paragraph type="secondary" className="yyp-auth__subtitle">
              {subtitle}
            </Typography.Paragraph>
          )}
          {children}
          {footer && <div className="yyp-auth__card-footer">{footer}</div>}
        </Card>
      </main>
      <footer className="yyp-auth__footer">
        {domain.footerHtml.trim() ? (
          <FooterHtml html={domain.footerHtml} />
        ) : domain.company ? (
          `© ${domain.company}`
        ) : null}
      </footer>
    </div>
  );
}

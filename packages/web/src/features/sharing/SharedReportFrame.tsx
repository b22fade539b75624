import { EyeOutlined, PrinterOutlined } from '@ant-design/icons';
import { VIEWER_WINDOW, type SharedReport } from '@yyp/contracts';
import { Button, Result, Space, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../ui/BrandMark';
import { LanguageSwitch } from '../../ui/LanguageSwitch';
import { useLanguagePreference } from '../../shared/account/useLanguagePreference';
import { useDomain } from '../../shared/domain/useDomain';
import { formatTime } from '../../shared/format/dates';
import { SharedReportView } from './SharedReportView';
import './sharing.css';

/** Opens a shared report's images in the viewer's own window. */
export function openSharedImages(view: SharedReport): Window | null {
  if (!view.viewerPath) {
    return null;
  }
  return window.open(
    view.viewerPath.url,
    `yyp-viewer-${view.examId}`,
    `width=${VIEWER_WINDOW.width},height=${VIEWER_WINDOW.height}`,
  );
}

/**
 * The frame of a page a link opens: branding and language, no way into the app. It asks the
 * browser not to send the page's address on and not to index it (the server says so too).
 */
export function SharedReportFrame({ children }: { children: ReactNode }) {
  const { domain } = useDomain();
  const { t } = useTranslation();
  const { language, changeLanguage } = useLanguagePreference();
  return (
    <div className="yyp-shared-page">
      <meta name="referrer" content="no-referrer" />
      <meta name="robots" content="noindex, nofollow" />
      <header className="yyp-shared-page__top">
        <BrandMark name={domain.displayName || t('app.defaultName')} logo={domain.logo || undefined} size={26} />
        <LanguageSwitch value={language} onChange={(next) => void changeLanguage(next)} />
      </header>
      <main className="yyp-shared-page__main">{children}</main>
    </div>
  );
}

/** The report with its tools above (open images, print) and what the link says below. */
export function SharedReportBody({ view, children }: { view: SharedReport; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="yyp-shared-page__tools">
        <Space wrap>
          {view.viewerPath && (
            <Button type="primary" icon={<EyeOutlined />} onClick={() => openSharedImages(view)}>
              {t('sharing.page.openImages')}
            </Button>
          )}
          <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
            {t('sharing.page.print')}
          </Button>
        </Space>
        {view.expiresAt && (
          <Typography.Text type="secondary">
            {t('sharing.page.validUntil', { time: formatTime(view.expiresAt) })}
          </Typography.Text>
        )}
      </div>
      <SharedReportView view={view} />
      {children}
    </>
  );
}

export function SharedReportLoading() {
  const { t } = useTranslation();
  return (
    <div className="yyp-shared-page__loading">
      <Spin />
      <Typography.Text type="secondary">{t('sharing.page.loading')}</Typography.Text>
    </div>
  );
}

export function SharedReportProblem({ title, hint, extra }: { title: string; hint: string; extra?: ReactNode }) {
  return <Result status="warning" title={title} subTitle={hint} extra={extra} className="yyp-shared-page__problem" />;
}

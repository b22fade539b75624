import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Centered spinner for a page or route chunk that is still loading. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={fullScreen ? 'yyp-spinner yyp-spinner--full' : 'yyp-spinner'} role="status">
      <Spin size="large" description={t('app.loading')} />
    </div>
  );
}

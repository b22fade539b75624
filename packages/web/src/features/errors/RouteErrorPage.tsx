import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage } from './NotFoundPage';

/** Error boundary of the route tree: a failed chunk load or an unexpected render error. */
export function RouteErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  // The cause stays in the browser console for support; the page shows no technical detail.
  useEffect(() => {
    console.error(error);
  }, [error]);
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundPage />;
  }

  function handleReload() {
    window.location.reload();
  }

  return (
    <div className="yyp-status-page">
      <Result
        status="error"
        title={t('errorPage.title')}
        subTitle={t('errorPage.description')}
        extra={
          <Button type="primary" onClick={handleReload}>
            {t('errorPage.reload')}
          </Button>
        }
      />
    </div>
  );
}

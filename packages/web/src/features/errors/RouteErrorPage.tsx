import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage } from './NotFoundPage';
import { StatusPage } from './StatusPage';

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
  return (
    <StatusPage
      status="error"
      title={t('errorPage.title')}
      description={t('errorPage.description')}
      actionLabel={t('errorPage.reload')}
      onAction={() => window.location.reload()}
    />
  );
}

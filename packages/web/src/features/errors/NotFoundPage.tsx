import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StatusPage } from './StatusPage';

/** /404 and every unknown path. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <StatusPage
      status="404"
      title={t('notFound.title')}
      description={t('notFound.description')}
      actionLabel={t('common.backToHome')}
      onAction={() => void navigate('/')}
    />
  );
}

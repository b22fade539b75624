import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { StatusPage } from './StatusPage';

/** /401 */
export function UnauthorizedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <StatusPage
      status="403"
      title={t('unauthorized.title')}
      description={t('unauthorized.description')}
      actionLabel={t('unauthorized.login')}
      onAction={() => void navigate('/login')}
    />
  );
}

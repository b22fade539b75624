import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** /404 and every unknown path. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  function handleBackHome() {
    void navigate('/');
  }

  return (
    <div className="yyp-status-page">
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.description')}
        extra={
          <Button type="primary" onClick={handleBackHome}>
            {t('common.backToHome')}
          </Button>
        }
      />
    </div>
  );
}

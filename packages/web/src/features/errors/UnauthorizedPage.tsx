import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** /401 */
export function UnauthorizedPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  function handleLogin() {
    void navigate('/login');
  }

  return (
    <div className="yyp-status-page">
      <Result
        status="403"
        title={t('unauthorized.title')}
        subTitle={t('unauthorized.description')}
        extra={
          <Button type="primary" onClick={handleLogin}>
            {t('unauthorized.login')}
          </Button>
        }
      />
    </div>
  );
}

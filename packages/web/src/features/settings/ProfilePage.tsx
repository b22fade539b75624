import { Alert, Button, Col, Row, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../ui/PageHeading';
import { useMe } from '../../shared/account/useMe';
import { useDomain } from '../../shared/domain/useDomain';
import { ChangePasswordCard } from './ChangePasswordCard';
import { MyPermissionsCard } from './MyPermissionsCard';
import { ProfileForm } from './ProfileForm';

/** /settings/profile: the user's own details, password and (read-only) permissions. */
export function ProfilePage() {
  const { t } = useTranslation();
  const me = useMe();
  const { domain } = useDomain();

  function handleRetry() {
    void me.refetch();
  }

  return (
    <div className="yyp-page">
      <PageHeading title={t('settings.profileTitle')} description={t('settings.profileDescription')} />
      {me.isError && !me.data && (
        <Alert
          type="error"
          showIcon
          title={t('settings.loadFailed')}
          action={<Button onClick={handleRetry}>{t('settings.retry')}</Button>}
        />
      )}
      {me.isPending && <Skeleton active paragraph={{ rows: 6 }} />}
      {me.data && (
        <Row gutter={[24, 24]}>
          <Col xs={24} xl={14}>
            <ProfileForm user={me.data} />
          </Col>
          <Col xs={24} xl={10}>
            <ChangePasswordCard user={me.data} strong={domain.requireStrongPwd} />
          </Col>
          <Col span={24}>
            <MyPermissionsCard />
          </Col>
        </Row>
      )}
    </div>
  );
}

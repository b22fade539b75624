import { ClockCircleOutlined } from '@ant-design/icons';
import { Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { sessionStore } from '../../api/sessionStore';
import { useSessionState } from '../../shared/session/useSessionState';
import { useDomain } from '../../shared/domain/useDomain';

/**
 * Shown after the inactivity logout (spec 001 §8): a relogin button, or for single sign-on a
 * close-page button with a hint to close the tab by hand when the browser refuses.
 */
export function InactivityNotice() {
  const { t } = useTranslation();
  const { inactiveLogout } = useSessionState();
  const { domain } = useDomain();
  const sso = inactiveLogout?.loginType === 'sso';
  const minutes = domain.maxInactiveMinutes;

  function handleRelogin() {
    sessionStore.dismissInactiveLogout();
  }

  function handleClosePage() {
    window.close();
  }

  const footer = sso ? (
    <Button type="primary" onClick={handleClosePage}>
      {t('session.closePage')}
    </Button>
  ) : (
    <Button type="primary" onClick={handleRelogin}>
      {t('session.relogin')}
    </Button>
  );

  return (
    <Modal
      open={inactiveLogout !== null}
      title={
        <span className="yyp-modal-title-icon">
          <ClockCircleOutlined /> {t('session.inactiveTitle')}
        </span>
      }
      closable={!sso}
      onCancel={handleRelogin}
      mask={{ closable: false }}
      footer={footer}
    >
      <Typography.Paragraph>
        {minutes > 0 ? t('session.inactiveDescription', { minutes }) : t('session.inactiveDescriptionGeneric')}
      </Typography.Paragraph>
      {sso && <Typography.Paragraph type="secondary">{t('session.closeHint')}</Typography.Paragraph>}
    </Modal>
  );
}

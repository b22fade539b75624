import { WechatOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { startWxLogin } from '../../api/wxLogin';
import { useNotify } from '../../shared/notify/useNotify';

/**
 * The login page's WeChat button (issue 27, spec 001 "Sign in ... by WeChat"): one click starts a
 * WeChat login (GET accounts/auth?type=wx) and leaves for WeChat's QR-code page.
 */
export function WxLoginButton({ redirect, disabled }: { redirect: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [starting, setStarting] = useState(false);

  async function handleClick() {
    setStarting(true);
    try {
      window.location.assign(await startWxLogin(redirect));
    } catch (error) {
      setStarting(false);
      notify.error(error);
    }
  }

  return (
    <Button
      block
      size="large"
      icon={<WechatOutlined style={{ color: '#07c160' }} />}
      aria-label={t('wx.signInLabel')}
      loading={starting}
      disabled={disabled && !starting}
      onClick={() => void handleClick()}
      style={{ marginBottom: 8 }}
    >
      {t('wx.signIn')}
    </Button>
  );
}

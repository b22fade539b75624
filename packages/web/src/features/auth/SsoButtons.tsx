import { LoginOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Divider } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchLoginOptions, fetchLoginUrl, startSso } from '../../api/sso';
import { useNotify } from '../../shared/notify/useNotify';
import { lastSsoGroup } from './ssoMemory';
import { WxLoginButton } from './WxLoginButton';

/**
 * The login page's "Sign in with <hospital>" buttons (issue 27): one click starts the group's
 * OpenID Connect sign-in (GET accounts/auth?type=sso&groupId) and leaves for the provider. With
 * `autoStart` (/login?sso=<groupId>, what GET login-url answers) that provider starts at once. The
 * provider this browser signed in with last is offered first while login-url still names it. WeChat
 * login, when the site offers it, comes first (WxLoginButton).
 */
export function SsoButtons({ redirect, autoStart }: { redirect: string; autoStart: string | null }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [starting, setStarting] = useState<string | null>(null);
  const options = useQuery({
    queryKey: ['sso', 'providers'],
    queryFn: ({ signal }) => fetchLoginOptions(signal),
    retry: false,
    staleTime: 60_000,
  });
  const remembered = lastSsoGroup();
  const again = useQuery({
    queryKey: ['sso', 'login-url', remembered],
    queryFn: () => fetchLoginUrl(remembered!),
    enabled: remembered !== null,
    retry: false,
  });
  const autoStarted = useRef(false);

  async function start(groupId: string) {
    setStarting(groupId);
    try {
      window.location.assign(await startSso(groupId, redirect));
    } catch (error) {
      setStarting(null);
      notify.error(error);
    }
  }

  useEffect(() => {
    if (!autoStart || autoStarted.current) return;
    autoStarted.current = true;
    void start(autoStart);
    // once per page: the login page's own ?sso
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoStart]);

  const list = options.data?.providers ?? [];
  const wx = options.data?.wx ?? false;
  if (list.length === 0 && !wx) return null;
  const first = again.data && remembered ? remembered : null;
  const ordered = first ? [...list].sort((a, b) => Number(b.groupId === first) - Number(a.groupId === first)) : list;
  return (
    <div className="yyp-auth__sso" aria-label={t('sso.providersLabel')}>
      <Divider plain>{t('sso.or')}</Divider>
      {wx && <WxLoginButton redirect={redirect} disabled={starting !== null} />}
      {ordered.map((p) => (
        <Button
          key={p.groupId}
          block
          size="large"
          icon={<LoginOutlined />}
          type={p.groupId === first ? 'primary' : 'default'}
          ghost={p.groupId === first}
          loading={starting === p.groupId}
          disabled={starting !== null && starting !== p.groupId}
          onClick={() => void start(p.groupId)}
          style={{ marginBottom: 8 }}
        >
          {t('sso.signInWith', { label: p.label })}
        </Button>
      ))}
    </div>
  );
}

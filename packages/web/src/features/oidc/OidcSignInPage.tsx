import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Result, Space, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { decideOidcInteraction, fetchOidcInteraction } from '../../api/oidcProvider';
import { useMe } from '../../shared/account/useMe';

/**
 * /oidc/sign-in?interaction (issue 28 item 11): a viewer (OHIF) asked yyp's OpenID Connect provider
 * to sign its user in. The route needs a yyp session (a signed-out visitor signs in first and comes
 * back here); the user allows or cancels, and the browser goes back to the viewer with a code bound
 * to this session, or with access_denied. A consent given from this session is remembered while
 * the viewer's grant lives.
 */
export function OidcSignInPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const interaction = params.get('interaction') ?? '';
  const me = useMe();
  const request = useQuery({
    queryKey: ['oidc-interaction', interaction],
    queryFn: ({ signal }) => fetchOidcInteraction(interaction, signal),
    enabled: interaction !== '',
    retry: false,
  });
  const decide = useMutation({
    mutationFn: (decision: 'allow' | 'deny') => decideOidcInteraction({ interaction, decision }),
    onSuccess: (redirectTo) => window.location.assign(redirectTo),
  });

  // Allowed from this yyp session before (OHIF signs in anew on every page load): go on without asking.
  const remembered = request.data?.remembered === true;
  const { isIdle, mutate } = decide;
  useEffect(() => {
    if (remembered && isIdle) mutate('allow');
  }, [remembered, isIdle, mutate]);

  const handleAllow = () => decide.mutate('allow');
  const handleDeny = () => decide.mutate('deny');

  if (interaction === '' || request.isError || decide.isError) {
    return <Result status="warning" title={t('oidcSignIn.title')} subTitle={t('oidcSignIn.invalid')} />;
  }
  if (!request.data || !me.data) {
    return <Spin fullscreen tip={t('oidcSignIn.loading')} />;
  }
  if (decide.isSuccess || decide.isPending || remembered) {
    return <Spin fullscreen tip={t('oidcSignIn.redirecting')} />;
  }
  return (
    <Result
      status="info"
      title={t('oidcSignIn.title')}
      subTitle={
        <Space direction="vertical">
          <Typography.Text>
            {t('oidcSignIn.prompt', {
              client: request.data.clientName,
              origin: request.data.redirectOrigin,
              user: me.data.username,
            })}
          </Typography.Text>
          <Typography.Text type="secondary">{t('oidcSignIn.scope')}</Typography.Text>
        </Space>
      }
      extra={[
        <Button key="allow" type="primary" onClick={handleAllow} data-testid="oidc-allow">
          {t('oidcSignIn.allow')}
        </Button>,
        <Button key="deny" onClick={handleDeny}>
          {t('oidcSignIn.deny')}
        </Button>,
      ]}
    />
  );
}

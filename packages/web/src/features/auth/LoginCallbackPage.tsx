import type { SsoTokenInfo } from '@yyp/contracts';
import { Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/errorMessage';
import { finishSso } from '../../api/sso';
import { safeRedirectTarget } from '../../shared/session/guards';
import { AuthLayout } from './AuthLayout';
import { rememberSsoGroup } from './ssoMemory';
import { useCompleteSignIn } from './useCompleteSignIn';
import { WxLoginCallback } from './WxLoginCallback';

/**
 * A code and state finish once: the exchange runs once per page load even when React mounts the
 * page twice (StrictMode), and its answer is shared.
 */
const exchanges = new Map<string, Promise<SsoTokenInfo>>();
function finishOnce(query: { code: string; state: string; iss?: string }): Promise<SsoTokenInfo> {
  let running = exchanges.get(query.state);
  if (!running) {
    running = finishSso(query);
    exchanges.set(query.state, running);
  }
  return running;
}

/**
 * /loginCallback?code&state (spec 000 §2): where the group's OpenID Connect provider sends the browser
 * back. GET auth/token finishes the sign-in (once) and the session starts as any other
 * (useCompleteSignIn), then the page the sign-in was started from opens. A refusal says why.
 */
export function LoginCallbackPage() {
  const [params] = useSearchParams();
  // WeChat sends the browser back to /loginCallback?source=wx (issue 27; spec 001 GET auth/wx/callback).
  if (params.get('source') === 'wx') return <WxLoginCallback code={params.get('code')} state={params.get('state')} />;
  return <SsoCallback params={params} />;
}

function SsoCallback({ params }: { params: URLSearchParams }) {
  const { t } = useTranslation();
  const completeSignIn = useCompleteSignIn();
  const code = params.get('code');
  const state = params.get('state');
  const iss = params.get('iss');
  const providerError = params.get('error');
  const [problem, setProblem] = useState<string | null>(
    providerError ? t('sso.denied') : !code || !state ? t('sso.missing') : null,
  );

  useEffect(() => {
    if (!code || !state || providerError) return;
    finishOnce({ code, state, ...(iss ? { iss } : {}) })
      .then(async (token) => {
        rememberSsoGroup(token.groupId);
        await completeSignIn(token.username, token, safeRedirectTarget(token.redirect));
      })
      .catch((error: unknown) => setProblem(errorMessage(t, error)));
    // One exchange per code and state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, state]);

  return (
    <AuthLayout title={t('sso.callbackTitle')}>
      {problem ? (
        <Result
          status="warning"
          title={t('sso.failedTitle')}
          subTitle={problem}
          extra={<Link to="/login">{t('sso.toLogin')}</Link>}
        />
      ) : (
        <div style={{ textAlign: 'center', padding: '32px 0' }} role="status">
          <Spin />
          <div style={{ marginTop: 12 }}>{t('sso.working')}</div>
        </div>
      )}
    </AuthLayout>
  );
}

import { WechatOutlined } from '@ant-design/icons';
import type { WxCallbackAnswer } from '@yyp/contracts';
import { Avatar, Result, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../api/errorMessage';
import { finishWxLogin } from '../../api/wxLogin';
import { safeRedirectTarget } from '../../shared/session/guards';
import { AuthLayout } from './AuthLayout';
import { useCompleteSignIn } from './useCompleteSignIn';
import { WxBindForm } from './WxBindForm';

/** A code and state finish once, even when React mounts the page twice (StrictMode). */
const exchanges = new Map<string, Promise<WxCallbackAnswer>>();
function finishOnce(query: { code: string; state: string }): Promise<WxCallbackAnswer> {
  let running = exchanges.get(query.state);
  if (!running) {
    running = finishWxLogin(query);
    exchanges.set(query.state, running);
  }
  return running;
}

type Bind = Extract<WxCallbackAnswer, { status: 'bind' }>;

/**
 * /loginCallback?source=wx&code&state: where WeChat sends the browser back after the scan. GET
 * auth/wx/callback finishes the login (once): a linked WeChat signs in at once; an unlinked one gets
 * the card that links it to an account (or creates one), then signs in the same way.
 */
export function WxLoginCallback({ code, state }: { code: string | null; state: string | null }) {
  const { t } = useTranslation();
  const completeSignIn = useCompleteSignIn();
  const [problem, setProblem] = useState<string | null>(!code || !state ? t('sso.missing') : null);
  const [bind, setBind] = useState<Bind | null>(null);

  useEffect(() => {
    if (!code || !state) return;
    finishOnce({ code, state })
      .then(async (answer) => {
        if (answer.status === 'bind') return setBind(answer);
        await completeSignIn(answer.username, answer.token, safeRedirectTarget(answer.redirect));
      })
      .catch((error: unknown) => setProblem(errorMessage(t, error)));
    // One exchange per code and state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, state]);

  if (bind && !problem) {
    return (
      <AuthLayout title={t('wx.bindTitle')}>
        <Space align="center" style={{ marginBottom: 12 }}>
          <Avatar src={bind.headimgurl || undefined} icon={<WechatOutlined />} alt="" />
          <Typography.Text>{t('wx.bindIntro', { nickname: bind.nickname })}</Typography.Text>
        </Space>
        <WxBindForm ticket={bind.ticket} canRegister={bind.canRegister} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('wx.callbackTitle')}>
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

import { LockOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest } from '@yyp/contracts';
import { Button, Form, Input, Modal, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { login } from '../../api/accounts';
import { errorMessage } from '../../api/errorMessage';
import { isApiError } from '../../api/errors';
import { isPublicPath } from '../../api/expiry';
import { clearUserData } from '../../api/queryClient';
import { sessionStore } from '../../api/sessionStore';
import { loginRedirectPath } from '../../shared/session/guards';
import { useSessionState } from '../../shared/session/useSessionState';

/** Network trouble is reported as such; anything else the server refused is "verification failed". */
function verificationProblem(t: TFunction, error: unknown): string {
  if (isApiError(error) && (error.status === 0 || error.status >= 500)) {
    return errorMessage(t, error);
  }
  return t('session.verificationFailed');
}

/**
 * The login-expired dialog of spec 001 §8 for password logins: the user re-enters the password of
 * the stored username; on success the new token is stored, the dialog closes and the page reloads
 * its data in place.
 */
export function LoginExpiredModal() {
  const { t } = useTranslation();
  const { expiryDialogOpen, session } = useSessionState();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const verify = useMutation({ mutationFn: (body: LoginRequest) => login(body) });
  const username = session?.username ?? '';
  const open = expiryDialogOpen && Boolean(username) && !isPublicPath(location.pathname, location.search);

  function resetForm() {
    setPassword('');
    setProblem(null);
  }

  async function handleVerify() {
    if (!password) {
      setProblem(t('common.requiredFields'));
      return;
    }
    try {
      const token = await verify.mutateAsync({ username, password });
      sessionStore.signIn(username, token);
      resetForm();
      await queryClient.invalidateQueries();
    } catch (error) {
      setProblem(verificationProblem(t, error));
    }
  }

  async function handleSwitchAccount() {
    const here = location.pathname + location.search;
    resetForm();
    sessionStore.signOut();
    clearUserData(queryClient);
    await navigate(loginRedirectPath(here), { replace: true });
  }

  function handlePasswordChange(event: ChangeEvent<HTMLInputElement>) {
    setPassword(event.target.value);
    if (problem) {
      setProblem(null);
    }
  }

  return (
    <Modal
      open={open}
      title={t('session.expiredTitle')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      footer={[
        <Button key="switch" onClick={handleSwitchAccount}>
          {t('session.switchAccount')}
        </Button>,
        <Button key="verify" type="primary" loading={verify.isPending} onClick={handleVerify}>
          {t('session.verify')}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{t('session.expiredDescription', { username })}</Typography.Paragraph>
      <Form layout="vertical" onFinish={handleVerify}>
        <Form.Item
          label={t('fields.password')}
          htmlFor="yyp-relogin-password"
          validateStatus={problem ? 'error' : undefined}
          help={problem ?? undefined}
          required
        >
          <Input.Password
            id="yyp-relogin-password"
            prefix={<LockOutlined />}
            value={password}
            onChange={handlePasswordChange}
            onPressEnter={handleVerify}
            autoComplete="current-password"
            autoFocus
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

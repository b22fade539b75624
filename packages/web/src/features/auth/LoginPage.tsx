import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { normalizeUsername, type LoginRequest } from '@yyp/contracts';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { login } from '../../api/accounts';
import { hasCode } from '../../api/errors';
import { safeRedirectTarget } from '../../shared/session/guards';
import { useNotify } from '../../shared/notify/useNotify';
import { useDomain } from '../../shared/domain/useDomain';
import { AuthLayout } from './AuthLayout';
import { requiredRule } from '../../shared/forms/formRules';
import { useCompleteSignIn } from './useCompleteSignIn';
import { SsoButtons } from './SsoButtons';

interface LoginValues {
  username: string;
  password: string;
}

/** /login and /default-login: username and password sign-in, then back to ?redirect (default /studies). */
export function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginValues>();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const notify = useNotify();
  const { domain } = useDomain();
  const completeSignIn = useCompleteSignIn();
  const loginMutation = useMutation({ mutationFn: (body: LoginRequest) => login(body) });
  const target = safeRedirectTarget(searchParams.get('redirect'));

  async function handleFinish(values: LoginValues) {
    const username = normalizeUsername(values.username);
    try {
      const token = await loginMutation.mutateAsync({ username, password: values.password });
      await completeSignIn(username, token, target);
    } catch (error) {
      if (hasCode(error, 'PasswordExpired')) {
        notify.info(t('errors.PasswordExpired'));
        const query = new URLSearchParams({ username, redirect: target });
        await navigate(`/change-password?${query.toString()}`);
        return;
      }
      form.setFieldValue('password', '');
      notify.error(error);
    }
  }

  const footer = domain.allowRegistration ? (
    <span>
      {t('login.noAccount')} <Link to="/register">{t('login.register')}</Link>
    </span>
  ) : null;

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')} footer={footer}>
      <Form<LoginValues> form={form} layout="vertical" size="large" requiredMark={false} onFinish={handleFinish}>
        <Form.Item name="username" rules={[requiredRule(t, t('fields.username'))]}>
          <Input
            prefix={<UserOutlined />}
            placeholder={t('login.usernamePlaceholder')}
            aria-label={t('fields.username')}
            autoComplete="username"
            autoFocus
          />
        </Form.Item>
        <Form.Item
          name="password"
          rules={[{ required: true, message: t('common.required', { field: t('fields.password') }) }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('login.passwordPlaceholder')}
            aria-label={t('fields.password')}
            autoComplete="current-password"
          />
        </Form.Item>
        <div className="yyp-auth__row-end">
          <Link to="/forget-password">{t('login.forgotPassword')}</Link>
        </div>
        <Form.Item className="yyp-auth__submit">
          <Button type="primary" htmlType="submit" block loading={loginMutation.isPending}>
            {t('login.submit')}
          </Button>
        </Form.Item>
      </Form>
      <SsoButtons redirect={target} autoStart={searchParams.get('sso')} />
    </AuthLayout>
  );
}

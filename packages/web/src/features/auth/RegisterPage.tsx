import { useMutation } from '@tanstack/react-query';
import { normalizeUsername, type RegisterRequest } from '@yyp/contracts';
import { Button, Checkbox, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { register } from '../../api/accounts';
import { DEFAULT_LANDING } from '../../shared/session/guards';
import { useNotify } from '../../shared/notify/useNotify';
import { PageSpinner } from '../../ui/PageSpinner';
import { useDomain } from '../../shared/domain/useDomain';
import { AuthLayout } from './AuthLayout';
import { NewPasswordFields } from '../../shared/forms/PasswordFields';
import { useCompleteSignIn } from './useCompleteSignIn';
import { UsernameField, NameField } from '../../shared/forms/AccountFields';
import { showOnField } from '../../shared/forms/fieldRefusal';

interface RegisterValues {
  username: string;
  name: string;
  password: string;
  confirm: string;
  acceptTerms: boolean;
}

/** /register: only when the domain allows registration, otherwise /404 (spec 000 §2). */
export function RegisterPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<RegisterValues>();
  const notify = useNotify();
  const { domain, isLoading } = useDomain();
  const completeSignIn = useCompleteSignIn();
  const registerMutation = useMutation({ mutationFn: (body: RegisterRequest) => register(body) });

  if (isLoading) {
    return <PageSpinner fullScreen />;
  }
  if (!domain.allowRegistration) {
    return <Navigate to="/404" replace />;
  }
  const strong = domain.requireStrongPwd;

  async function handleFinish(values: RegisterValues) {
    const username = normalizeUsername(values.username);
    try {
      const token = await registerMutation.mutateAsync({
        username,
        name: values.name.trim(),
        password: values.password,
      });
      notify.success(t('register.success'));
      await completeSignIn(username, token, DEFAULT_LANDING);
    } catch (error) {
      const fields = { UsernameTaken: 'username', PasswordTooSimple: 'password' };
      if (!showOnField(form, t, error, fields, strong)) notify.error(error);
    }
  }

  const footer = (
    <span>
      {t('register.haveAccount')} <Link to="/login">{t('register.login')}</Link>
    </span>
  );

  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')} footer={footer}>
      <Form<RegisterValues> form={form} layout="vertical" requiredMark={false} onFinish={handleFinish}>
        <UsernameField autoFocus />
        <NameField />
        <NewPasswordFields
          name="password"
          label={t('fields.password')}
          confirmLabel={t('fields.confirmPassword')}
          strong={strong}
        />
        <Form.Item
          name="acceptTerms"
          valuePropName="checked"
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                if (value !== true) {
                  throw new Error(t('validation.termsRequired'));
                }
              },
            },
          ]}
        >
          <Checkbox>{t('register.acceptTerms')}</Checkbox>
        </Form.Item>
        <Form.Item className="yyp-auth__submit">
          <Button type="primary" htmlType="submit" size="large" block loading={registerMutation.isPending}>
            {t('register.submit')}
          </Button>
        </Form.Item>
      </Form>
    </AuthLayout>
  );
}

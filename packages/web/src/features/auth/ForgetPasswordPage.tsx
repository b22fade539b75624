import { useMutation } from '@tanstack/react-query';
import { normalizeUsername, type PasswordResetRequest } from '@yyp/contracts';
import { Alert, Button, Form, Input, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fetchMaskedMobile, resetPassword, sendResetPasswordCode } from '../../api/accounts';
import { errorMessage } from '../../api/errorMessage';
import { hasCode } from '../../api/errors';
import { useNotify } from '../../shared/notify/useNotify';
import { useDomain } from '../../shared/domain/useDomain';
import { AuthLayout } from './AuthLayout';
import { requiredRule } from '../../shared/forms/formRules';
import { NewPasswordFields } from '../../shared/forms/PasswordFields';
import { UsernameField } from '../../shared/forms/AccountFields';

type Step = 'account' | 'verify' | 'reset';
const STEP_INDEX: Record<Step, number> = { account: 0, verify: 1, reset: 2 };

interface AccountValues {
  username: string;
}

interface ResetValues {
  code: string;
  password: string;
  confirm: string;
}

/**
 * /forget-password: username → masked mobile → SMS code → new password. When the site has no
 * SMS service the server answers ServiceNotConfigured, shown as a lasting notice, not a toast.
 */
export function ForgetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const { domain } = useDomain();
  const [step, setStep] = useState<Step>('account');
  const [username, setUsername] = useState('');
  const [mobile, setMobile] = useState<string | null>(null);
  const [serviceProblem, setServiceProblem] = useState<string | null>(null);

  const lookUp = useMutation({ mutationFn: (name: string) => fetchMaskedMobile(name) });
  const sendCode = useMutation({ mutationFn: (name: string) => sendResetPasswordCode(name) });
  const reset = useMutation({
    mutationFn: (body: PasswordResetRequest) => resetPassword(username, body),
  });

  async function handleLookUp(values: AccountValues) {
    const name = normalizeUsername(values.username);
    try {
      const answer = await lookUp.mutateAsync(name);
      setUsername(name);
      setMobile(answer.mobile);
      setServiceProblem(null);
      setStep('verify');
    } catch (error) {
      notify.error(error);
    }
  }

  async function handleSendCode() {
    try {
      await sendCode.mutateAsync(username);
      notify.success(t('forgot.codeSent'));
      setStep('reset');
    } catch (error) {
      if (hasCode(error, 'ServiceNotConfigured')) {
        setServiceProblem(errorMessage(t, error));
        return;
      }
      notify.error(error);
    }
  }

  async function handleReset(values: ResetValues) {
    try {
      await reset.mutateAsync({ code: values.code.trim(), password: values.password });
      notify.success(t('forgot.success'));
      await navigate('/login', { replace: true });
    } catch (error) {
      notify.error(error);
    }
  }

  function handleBack() {
    setServiceProblem(null);
    setStep('account');
  }

  const strong = domain.requireStrongPwd;

  return (
    <AuthLayout
      title={t('forgot.title')}
      subtitle={t('forgot.subtitle')}
      footer={<Link to="/login">{t('common.backToLogin')}</Link>}
    >
      <Steps
        size="small"
        current={STEP_INDEX[step]}
        className="yyp-auth__steps"
        items={[
          { title: t('forgot.stepAccount') },
          { title: t('forgot.stepVerify') },
          { title: t('forgot.stepReset') },
        ]}
      />

      {step === 'account' && (
        <Form<AccountValues>
          layout="vertical"
          requiredMark={false}
          onFinish={handleLookUp}
          initialValues={{ username }}
        >
          <UsernameField autoFocus />
          <Button type="primary" htmlType="submit" size="large" block loading={lookUp.isPending}>
            {t('forgot.lookUp')}
          </Button>
        </Form>
      )}

      {step === 'verify' && (
        <div className="yyp-auth__stack">
          {mobile ? (
            <Typography.Paragraph>{t('forgot.sendTo', { mobile })}</Typography.Paragraph>
          ) : (
            <Alert type="warning" showIcon title={t('forgot.noMobile')} />
          )}
          {serviceProblem && (
            <Alert
              type="error"
              showIcon
              role="alert"
              title={t('forgot.serviceUnavailableTitle')}
              description={serviceProblem}
            />
          )}
          <div className="yyp-auth__actions">
            <Button onClick={handleBack}>{t('common.back')}</Button>
            <Button type="primary" disabled={!mobile} loading={sendCode.isPending} onClick={handleSendCode}>
              {t('forgot.sendCode')}
            </Button>
          </div>
        </div>
      )}

      {step === 'reset' && (
        <Form<ResetValues> layout="vertical" requiredMark={false} onFinish={handleReset}>
          <Form.Item name="code" label={t('fields.code')} rules={[requiredRule(t, t('fields.code'))]}>
            <Input autoComplete="one-time-code" inputMode="numeric" autoFocus />
          </Form.Item>
          <NewPasswordFields
            name="password"
            label={t('fields.newPassword')}
            confirmLabel={t('fields.confirmNewPassword')}
            strong={strong}
          />
          <Button type="primary" htmlType="submit" size="large" block loading={reset.isPending}>
            {t('forgot.submit')}
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}

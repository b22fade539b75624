import { useMutation } from '@tanstack/react-query';
import { normalizeUsername, type UpdatePasswordRequest } from '@yyp/contracts';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { updatePassword } from '../../api/accounts';
import { safeRedirectTarget } from '../../shared/session/guards';
import { useNotify } from '../../shared/notify/useNotify';
import { useDomain } from '../../shared/domain/useDomain';
import { AuthLayout } from './AuthLayout';
import { ChangePasswordFields } from '../../shared/forms/PasswordFields';
import { useCompleteSignIn } from './useCompleteSignIn';
import { UsernameField } from '../../shared/forms/AccountFields';
import { showOnField } from '../../shared/forms/fieldRefusal';

interface ExpiredPasswordValues {
  username: string;
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/** /change-password?username=: the password-expired path; sets a new password and signs in. */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ExpiredPasswordValues>();
  const [searchParams] = useSearchParams();
  const notify = useNotify();
  const { domain } = useDomain();
  const completeSignIn = useCompleteSignIn();
  const updateMutation = useMutation({ mutationFn: (body: UpdatePasswordRequest) => updatePassword(body) });
  const presetUsername = searchParams.get('username')?.trim() ?? '';
  const target = safeRedirectTarget(searchParams.get('redirect'));
  const strong = domain.requireStrongPwd;

  async function handleFinish(values: ExpiredPasswordValues) {
    const username = normalizeUsername(values.username);
    try {
      const token = await updateMutation.mutateAsync({
        username,
        oldPwd: values.oldPassword,
        newPwd: values.newPassword,
      });
      notify.success(t('expired.success'));
      await completeSignIn(username, token, target);
    } catch (error) {
      const fields = {
        OldPasswordIncorrect: 'oldPassword',
        WrongCredentials: 'oldPassword',
        PasswordTooSimple: 'newPassword',
      };
      if (!showOnField(form, t, error, fields, strong)) notify.error(error);
    }
  }

  return (
    <AuthLayout
      title={t('expired.title')}
      subtitle={t('expired.subtitle')}
      footer={<Link to="/login">{t('common.backToLogin')}</Link>}
    >
      <Form<ExpiredPasswordValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ username: presetUsername }}
        onFinish={handleFinish}
      >
        <UsernameField readOnly={presetUsername !== ''} />
        <ChangePasswordFields strong={strong} autoFocus={presetUsername !== ''} />
        <Form.Item className="yyp-auth__submit">
          <Button type="primary" htmlType="submit" size="large" block loading={updateMutation.isPending}>
            {t('expired.submit')}
          </Button>
        </Form.Item>
      </Form>
    </AuthLayout>
  );
}

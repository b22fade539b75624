import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest, User } from '@yyp/contracts';
import { Alert, Button, Card, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { changePassword } from '../../api/accounts';
import { sessionStore } from '../../api/sessionStore';
import { useNotify } from '../../shared/notify/useNotify';
import { ChangePasswordFields } from '../../shared/forms/PasswordFields';
import { showOnField } from '../../shared/forms/fieldRefusal';

interface PasswordValues {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

interface ChangePasswordCardProps {
  user: User;
  /** domain.requireStrongPwd */
  strong: boolean;
}

/**
 * Change password (POST accounts/change-password). The answer is a new token (the old one stops
 * working), stored at once so this session goes on. Only for password logins.
 */
export function ChangePasswordCard({ user, strong }: ChangePasswordCardProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const notify = useNotify();
  const change = useMutation({ mutationFn: (body: ChangePasswordRequest) => changePassword(body) });

  async function handleFinish(values: PasswordValues) {
    try {
      const token = await change.mutateAsync({ oldPassword: values.oldPassword, newPassword: values.newPassword });
      sessionStore.signIn(user.username, token);
      form.resetFields();
      notify.success(t('settings.passwordChanged'));
    } catch (error) {
      const fields = { OldPasswordIncorrect: 'oldPassword', PasswordTooSimple: 'newPassword' };
      if (!showOnField(form, t, error, fields, strong)) notify.error(error);
    }
  }

  // Single sign-on accounts, and WeChat-only ones (spec 001: "WeChat-login users cannot change their password").
  if (user.loginType !== 'normal' || user.hasPassword === false) {
    return (
      <Card title={t('settings.passwordTitle')} variant="borderless">
        <Alert
          type="info"
          showIcon
          title={user.loginType === 'sso' ? t('settings.passwordNotAllowed') : t('wx.noPassword')}
        />
      </Card>
    );
  }

  return (
    <Card title={t('settings.passwordTitle')} variant="borderless">
      <Typography.Paragraph type="secondary">{t('settings.passwordDescription')}</Typography.Paragraph>
      <Form<PasswordValues> form={form} layout="vertical" onFinish={handleFinish}>
        <ChangePasswordFields strong={strong} />
        <Button type="primary" htmlType="submit" loading={change.isPending}>
          {t('settings.passwordTitle')}
        </Button>
      </Form>
    </Card>
  );
}

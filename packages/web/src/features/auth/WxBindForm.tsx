import { useMutation } from '@tanstack/react-query';
import { normalizeUsername, type WxSignedIn } from '@yyp/contracts';
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bindWx, registerWx } from '../../api/wxLogin';
import { NameField, UsernameField } from '../../shared/forms/AccountFields';
import { showOnField } from '../../shared/forms/fieldRefusal';
import { useNotify } from '../../shared/notify/useNotify';
import { safeRedirectTarget } from '../../shared/session/guards';
import { useCompleteSignIn } from './useCompleteSignIn';

interface Values {
  username: string;
  password?: string;
  name?: string;
}

/**
 * The card's form on /loginCallback?source=wx for a WeChat linked to no account: the username and
 * password of an existing account (POST auth/wx/bind, checked as a login is), or, where the domain
 * lets people register (canRegister), a new account without a password (POST auth/wx/register).
 * Either signs in the way every sign-in ends (useCompleteSignIn).
 */
export function WxBindForm({ ticket, canRegister }: { ticket: string; canRegister: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<Values>();
  const [creating, setCreating] = useState(false);
  const completeSignIn = useCompleteSignIn();
  const submit = useMutation({
    mutationFn: (values: Values): Promise<WxSignedIn> => {
      const username = normalizeUsername(values.username);
      return creating
        ? registerWx({ ticket, username, name: values.name ?? '' })
        : bindWx({ ticket, username, password: values.password ?? '' });
    },
  });

  async function handleFinish(values: Values) {
    try {
      const signedIn = await submit.mutateAsync(values);
      await completeSignIn(signedIn.username, signedIn.token, safeRedirectTarget(signedIn.redirect));
    } catch (error) {
      const fields = { WrongCredentials: 'password', UsernameTaken: 'username' };
      if (!showOnField(form, t, error, fields, false)) notify.error(error);
    }
  }

  return (
    <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={handleFinish}>
      {creating && <Typography.Paragraph type="secondary">{t('wx.registerIntro')}</Typography.Paragraph>}
      <UsernameField autoFocus autoComplete={creating ? 'off' : 'username'} />
      {creating ? (
        <NameField />
      ) : (
        <Form.Item
          name="password"
          label={t('fields.password')}
          rules={[{ required: true, message: t('common.required', { field: t('fields.password') }) }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
      )}
      <Form.Item className="yyp-auth__submit">
        <Button type="primary" htmlType="submit" block size="large" loading={submit.isPending}>
          {creating ? t('wx.registerSubmit') : t('wx.bindSubmit')}
        </Button>
      </Form.Item>
      {canRegister && (
        <Button type="link" block onClick={() => setCreating(!creating)}>
          {creating ? t('wx.bindToggle') : t('wx.registerToggle')}
        </Button>
      )}
    </Form>
  );
}

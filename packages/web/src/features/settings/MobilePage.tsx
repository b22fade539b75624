import { MobileOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bindableMobileSchema, SMS_CODE_LENGTH, type User } from '@yyp/contracts';
import { Alert, Button, Card, Descriptions, Form, Input, Popconfirm, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bindMobile, sendBindMobileCode } from '../../api/accounts';
import { hasCode } from '../../api/errors';
import { queryKeys } from '../../api/queryClient';
import { useMe, useUpdateMe } from '../../shared/account/useMe';
import { useNotify } from '../../shared/notify/useNotify';
import { PageHeading } from '../../ui/PageHeading';
import { SsoLinkCard } from './SsoLinkCard';
import { WxLinkCard } from './WxLinkCard';

/** Seconds before another code may be asked for (the server sends one a minute per number). */
const RESEND_SECONDS = 60;
const CODE_PATTERN = new RegExp(`^[0-9]{${SMS_CODE_LENGTH}}$`);

interface BindValues {
  mobile: string;
  code: string;
}

/**
 * /settings/mobile (issue 27): the bound number, and binding another with the code sent to it
 * (POST accounts/me/code/bind-mobile, then accounts/me/mobile/bind). Where the site has no SMS
 * service (ServiceNotConfigured) the number is saved without a code, as the server then allows.
 * Below it, the account's WeChat (WxLinkCard) and its groups' single sign-on (SsoLinkCard).
 */
export function MobilePage() {
  const { t } = useTranslation();
  const me = useMe();
  return (
    <div className="yyp-page">
      <PageHeading title={t('mobile.title')} description={t('mobile.description')} />
      {me.isPending && <Skeleton active paragraph={{ rows: 4 }} />}
      {me.data && <MobileCard user={me.data} />}
      {me.data && <WxLinkCard />}
      {me.data && <SsoLinkCard />}
    </div>
  );
}

function MobileCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const updateMe = useUpdateMe();
  const [form] = Form.useForm<BindValues>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [noSms, setNoSms] = useState(false);
  const [resendAt, setResendAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const waiting = Math.max(0, Math.ceil((resendAt - now) / 1000));

  useEffect(() => {
    if (resendAt <= Date.now()) return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [resendAt]);

  const send = useMutation({ mutationFn: (mobile: string) => sendBindMobileCode({ mobile }) });
  const bind = useMutation({
    mutationFn: (values: BindValues) => bindMobile(values),
    onSuccess: (updated) => queryClient.setQueryData(queryKeys.me, updated),
  });

  async function handleSend() {
    let mobile: string;
    try {
      mobile = ((await form.validateFields(['mobile'])) as Pick<BindValues, 'mobile'>).mobile.trim();
    } catch {
      return;
    }
    try {
      await send.mutateAsync(mobile);
      setSentTo(mobile);
      setResendAt(Date.now() + RESEND_SECONDS * 1000);
      setNow(Date.now());
      notify.success(t('mobile.codeSent', { mobile }));
    } catch (error) {
      if (hasCode(error, 'ServiceNotConfigured')) {
        setNoSms(true);
        return;
      }
      notify.error(error);
    }
  }

  async function handleFinish(values: BindValues) {
    const mobile = values.mobile.trim();
    try {
      if (noSms) {
        await updateMe.mutateAsync({ mobile });
        notify.success(t('mobile.saved'));
      } else {
        await bind.mutateAsync({ mobile, code: values.code.trim() });
        notify.success(t('mobile.bound'));
      }
      form.resetFields();
      setSentTo(null);
    } catch (error) {
      notify.error(error);
    }
  }

  async function handleRemove() {
    try {
      await updateMe.mutateAsync({ mobile: null });
      notify.success(t('mobile.removed'));
    } catch (error) {
      notify.error(error);
    }
  }

  const mobileRule = {
    validator: (_: unknown, value: string | undefined) =>
      bindableMobileSchema.safeParse(value ?? '').success
        ? Promise.resolve()
        : Promise.reject(new Error(t('mobile.invalid'))),
  };

  return (
    <Card variant="borderless" className="yyp-form-narrow">
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('mobile.current')}>
          <Space size="middle" wrap>
            <Typography.Text strong={Boolean(user.mobile)} type={user.mobile ? undefined : 'secondary'}>
              <MobileOutlined /> {user.mobile ?? t('mobile.none')}
            </Typography.Text>
            {user.mobile && (
              <Popconfirm title={t('mobile.removeConfirm')} onConfirm={handleRemove}>
                <Button size="small" danger>
                  {t('mobile.remove')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      {noSms && <Alert type="info" showIcon title={t('mobile.noSms')} className="yyp-gap-bottom" />}
      <Form<BindValues> form={form} layout="vertical" requiredMark={false} onFinish={handleFinish}>
        <Form.Item label={t('mobile.newNumber')} extra={t('mobile.numberHint')} required={false}>
          <Space.Compact block>
            <Form.Item name="mobile" noStyle rules={[mobileRule]}>
              <Input
                aria-label={t('mobile.newNumber')}
                autoComplete="tel"
                inputMode="tel"
                maxLength={16}
                onChange={() => setSentTo(null)}
              />
            </Form.Item>
            {!noSms && (
              <Button loading={send.isPending} disabled={waiting > 0} onClick={handleSend}>
                {waiting > 0 ? t('mobile.resendIn', { seconds: waiting }) : t('mobile.sendCode')}
              </Button>
            )}
          </Space.Compact>
        </Form.Item>
        {!noSms && (
          <Form.Item
            name="code"
            label={t('fields.code')}
            extra={t('mobile.codeHint')}
            rules={[{ pattern: CODE_PATTERN, required: true, message: t('mobile.codeInvalid') }]}
          >
            <Input
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={SMS_CODE_LENGTH}
              disabled={sentTo === null}
              autoFocus={sentTo !== null}
            />
          </Form.Item>
        )}
        <Button
          type="primary"
          htmlType="submit"
          disabled={!noSms && sentTo === null}
          loading={bind.isPending || updateMe.isPending}
        >
          {noSms ? t('mobile.save') : t('mobile.submit')}
        </Button>
      </Form>
    </Card>
  );
}

import { EditOutlined, MessageOutlined, RollbackOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bindableMobileSchema, type SmsStatus } from '@yyp/contracts';
import { Alert, Button, Card, Descriptions, Form, Input, Popconfirm, Skeleton, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getSmsStatus, resetSmsAccount, sendSmsTest } from '../../api/admin';
import { useNotify } from '../../shared/notify/useNotify';
import { SmsAccountForm } from './SmsAccountForm';

const MODE_COLORS: Record<SmsStatus['mode'], string> = { off: 'default', dev: 'orange', sim: 'blue', aliyun: 'green' };

/**
 * /settings/admin, SMS (issue 27): the service that sends the verification codes, as the server's
 * environment configures it (docs/sms.md) or as the platform admin set it here (an Alibaba Cloud
 * account of the platform's own, or off; back to the environment's at any time), and a test message.
 */
export function SmsStatusTab() {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<{ mobile: string }>();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const status = useQuery({ queryKey: ['admin', 'sms'], queryFn: ({ signal }) => getSmsStatus(signal) });
  const reset = useMutation({
    mutationFn: () => resetSmsAccount(),
    onSuccess: (next) => {
      queryClient.setQueryData(['admin', 'sms'], next);
      notify.success(t('smsAdmin.resetDone'));
    },
    onError: (error) => notify.error(error),
  });
  const test = useMutation({
    mutationFn: (mobile: string) => sendSmsTest(mobile),
    onSuccess: (_, mobile) => notify.success(t('smsAdmin.testSent', { mobile })),
    onError: (error) => notify.error(error),
  });
  if (!status.data) return <Skeleton active />;
  const s = status.data;
  return (
    <Card
      variant="borderless"
      title={t('smsAdmin.title')}
      extra={
        <Space>
          {s.source === 'platform' && (
            <Popconfirm
              title={t('smsAdmin.resetConfirm')}
              okText={t('smsAdmin.reset')}
              onConfirm={() => reset.mutate()}
            >
              <Button icon={<RollbackOutlined />} loading={reset.isPending}>
                {t('smsAdmin.reset')}
              </Button>
            </Popconfirm>
          )}
          <Button type="primary" icon={<EditOutlined />} onClick={() => setEditing(true)}>
            {t(s.source === 'platform' ? 'smsAdmin.edit' : 'smsAdmin.useOwn')}
          </Button>
        </Space>
      }
    >
      {editing && <SmsAccountForm status={s} open={editing} onClose={() => setEditing(false)} />}
      <div className="yyp-stack">
        <Typography.Text type="secondary">{t('smsAdmin.description')}</Typography.Text>
        {s.secretUnreadable && <Alert type="error" showIcon message={t('smsAdmin.secretUnreadable')} />}
        {s.mode === 'off' && <Alert type="warning" showIcon message={t('smsAdmin.offHint')} />}
        {s.mode === 'dev' && <Alert type="warning" showIcon message={t('smsAdmin.devHint')} />}
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('smsAdmin.mode')}>
            <Tag color={MODE_COLORS[s.mode]}>{t(`smsAdmin.modes.${s.mode}`)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('smsAdmin.source')}>
            {s.source === 'platform'
              ? t('smsAdmin.sourcePlatform', { at: s.updatedAt ? dayjs(s.updatedAt).format('YYYY-MM-DD HH:mm') : '' })
              : t('smsAdmin.sourceEnvironment')}
          </Descriptions.Item>
          {s.endpoint && <Descriptions.Item label={t('smsAdmin.endpoint')}>{s.endpoint}</Descriptions.Item>}
          {s.region && <Descriptions.Item label={t('smsAdmin.region')}>{s.region}</Descriptions.Item>}
          {s.signName && <Descriptions.Item label={t('smsAdmin.signName')}>【{s.signName}】</Descriptions.Item>}
          {s.templates && (
            <>
              <Descriptions.Item label={t('smsAdmin.templateReset')}>
                <Typography.Text code>{s.templates.resetPassword}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t('smsAdmin.templateBind')}>
                <Typography.Text code>{s.templates.bindMobile}</Typography.Text>
              </Descriptions.Item>
            </>
          )}
          {s.accessKeyId && (
            <Descriptions.Item label={t('smsAdmin.accessKeyId')}>
              <Typography.Text code>{s.accessKeyId}</Typography.Text>
            </Descriptions.Item>
          )}
          {s.inboxUrl && (
            <Descriptions.Item label={t('smsAdmin.inbox')}>
              <Typography.Link href={s.inboxUrl} target="_blank" rel="noreferrer">
                {s.inboxUrl}
              </Typography.Link>
            </Descriptions.Item>
          )}
        </Descriptions>
        <Typography.Text type="secondary">
          {t(s.source === 'platform' ? 'smsAdmin.platformHint' : 'smsAdmin.configureHint')}
        </Typography.Text>
        {s.mode !== 'off' && (
          <Form
            form={form}
            layout="inline"
            onFinish={(values) => test.mutate(values.mobile.trim())}
            aria-label={t('smsAdmin.testTitle')}
          >
            <Form.Item
              name="mobile"
              label={t('smsAdmin.testNumber')}
              rules={[
                {
                  validator: (_, value: string | undefined) =>
                    bindableMobileSchema.safeParse(value ?? '').success
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('mobile.invalid'))),
                },
              ]}
            >
              <Input inputMode="tel" autoComplete="off" maxLength={16} />
            </Form.Item>
            <Form.Item>
              <Space>
                <Button htmlType="submit" icon={<MessageOutlined />} loading={test.isPending}>
                  {t('smsAdmin.sendTest')}
                </Button>
              </Space>
            </Form.Item>
          </Form>
        )}
      </div>
    </Card>
  );
}

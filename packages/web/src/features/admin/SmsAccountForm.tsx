import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SMS_FIELD_RULES, SMS_SECRET_MAX, type SmsAccountRequest, type SmsStatus } from '@yyp/contracts';
import { Alert, Form, Input, Modal, Radio } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { saveSmsAccount } from '../../api/admin';
import { useNotify } from '../../shared/notify/useNotify';

const DEFAULT_ENDPOINT = 'https://dysmsapi.aliyuncs.com';
const DEFAULT_REGION = 'cn-hangzhou';
/** The template code of each purpose, and its label. */
const TEMPLATE_FIELDS = [
  ['resetPassword', 'smsAdmin.templateReset'],
  ['bindMobile', 'smsAdmin.templateBind'],
] as const;

interface Values {
  mode: 'aliyun' | 'off';
  accessKeyId: string;
  accessKeySecret?: string;
  signName: string;
  resetPassword: string;
  bindMobile: string;
  region: string;
  endpoint: string;
}

/**
 * The platform's own SMS account (PUT admin/sms): an Alibaba Cloud account in place of the
 * environment's, or no codes at all. The secret is write-only: left empty, the saved one stays
 * (for the same AccessKey ID). Starts from what is in effect.
 */
export function SmsAccountForm({ status, open, onClose }: { status: SmsStatus; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const mode = Form.useWatch('mode', form);
  const savedSecret = status.source === 'platform' && status.mode === 'aliyun' && !status.secretUnreadable;
  const save = useMutation({
    mutationFn: (body: SmsAccountRequest) => saveSmsAccount(body),
    onSuccess: (next) => {
      queryClient.setQueryData(['admin', 'sms'], next);
      notify.success(t('smsAdmin.saved'));
      onClose();
    },
    onError: (error) => notify.error(error),
  });
  const pattern = (regex: RegExp, message: string): Rule[] => [
    { required: true, message: t('smsAdmin.required') },
    { pattern: regex, message },
  ];
  const submit = (v: Values) => {
    if (v.mode === 'off') return save.mutate({ mode: 'off' });
    const secret = v.accessKeySecret?.trim();
    save.mutate({
      mode: 'aliyun',
      accessKeyId: v.accessKeyId.trim(),
      ...(secret ? { accessKeySecret: secret } : {}),
      signName: v.signName.trim(),
      templates: { resetPassword: v.resetPassword.trim(), bindMobile: v.bindMobile.trim() },
      region: v.region.trim(),
      endpoint: v.endpoint.trim(),
    });
  };
  const own = status.source === 'platform';
  return (
    <Modal
      open={open}
      title={t('smsAdmin.accountTitle')}
      okText={t('smsAdmin.save')}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      onCancel={onClose}
      destroyOnHidden
      width={560}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        preserve={false}
        initialValues={{
          mode: own && status.mode === 'off' ? 'off' : 'aliyun',
          accessKeyId: '',
          signName: own ? (status.signName ?? '') : '',
          resetPassword: own ? (status.templates?.resetPassword ?? '') : '',
          bindMobile: own ? (status.templates?.bindMobile ?? '') : '',
          region: (own && status.region) || DEFAULT_REGION,
          endpoint: (own && status.endpoint) || DEFAULT_ENDPOINT,
        }}
      >
        <Form.Item name="mode" label={t('smsAdmin.mode')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'aliyun', label: t('smsAdmin.modes.aliyun') },
              { value: 'off', label: t('smsAdmin.modes.off') },
            ]}
          />
        </Form.Item>
        {mode === 'off' ? (
          <Alert type="warning" showIcon message={t('smsAdmin.offHint')} />
        ) : (
          <>
            <Form.Item
              name="accessKeyId"
              label={t('smsAdmin.accessKeyId')}
              extra={savedSecret ? t('smsAdmin.accessKeyIdAgain', { masked: status.accessKeyId }) : undefined}
              rules={pattern(SMS_FIELD_RULES.accessKeyId, t('smsAdmin.accessKeyIdInvalid'))}
            >
              <Input autoComplete="off" maxLength={64} placeholder="LTAI…" />
            </Form.Item>
            <Form.Item
              name="accessKeySecret"
              label={t('smsAdmin.accessKeySecret')}
              extra={savedSecret ? t('smsAdmin.secretKeep') : undefined}
              rules={[
                { required: !savedSecret, message: t('smsAdmin.required') },
                { pattern: /^\S*$/, message: t('smsAdmin.secretInvalid') },
              ]}
            >
              <Input.Password autoComplete="new-password" maxLength={SMS_SECRET_MAX} />
            </Form.Item>
            <Form.Item
              name="signName"
              label={t('smsAdmin.signName')}
              extra={t('smsAdmin.signNameHint')}
              rules={pattern(SMS_FIELD_RULES.signName, t('smsAdmin.signNameInvalid'))}
            >
              <Input maxLength={32} />
            </Form.Item>
            {TEMPLATE_FIELDS.map(([name, label]) => (
              <Form.Item
                key={name}
                name={name}
                label={t(label)}
                rules={pattern(SMS_FIELD_RULES.template, t('smsAdmin.templateInvalid'))}
              >
                <Input maxLength={16} placeholder="SMS_123456789" />
              </Form.Item>
            ))}
            <Form.Item
              name="region"
              label={t('smsAdmin.region')}
              rules={pattern(SMS_FIELD_RULES.region, t('smsAdmin.regionInvalid'))}
            >
              <Input maxLength={32} />
            </Form.Item>
            <Form.Item
              name="endpoint"
              label={t('smsAdmin.endpoint')}
              extra={t('smsAdmin.endpointHint')}
              rules={[
                { required: true, message: t('smsAdmin.required') },
                { pattern: /^https?:\/\/[^/?#\s]+\/?$/, message: t('smsAdmin.endpointInvalid') },
              ]}
            >
              <Input maxLength={200} />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

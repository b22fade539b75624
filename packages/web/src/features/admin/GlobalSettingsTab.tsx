import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  GLOBAL_CONFIG_KEYS,
  globalConfigCatalogue,
  type GlobalConfigKey,
  type GlobalConfigUpdate,
  type GlobalConfigValues,
} from '@yyp/contracts';
import { Alert, Button, Card, Form, Input, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { updateGlobalConfigs } from '../../api/globalConfigs';
import { GLOBAL_CONFIGS_KEY, useGlobalConfigs } from '../../shared/globalConfigs/useGlobalConfigs';
import { useNotify } from '../../shared/notify/useNotify';

type Values = Record<GlobalConfigKey, string>;

const MAX_LENGTH: Record<GlobalConfigKey, number> = {
  helpUrl: 512,
  supportPhone: 32,
  supportEmail: 254,
  announcement: 500,
};
const INVALID = {
  helpUrl: 'globalSettings.invalidUrl',
  supportPhone: 'globalSettings.invalidPhone',
  supportEmail: 'globalSettings.invalidEmail',
  announcement: 'globalSettings.announcementHint',
} as const satisfies Record<GlobalConfigKey, string>;

/** The keys whose value changed: an emptied field clears its key (null). */
function changes(values: Values, stored: GlobalConfigValues): GlobalConfigUpdate {
  const out: Record<string, string | null> = {};
  for (const key of GLOBAL_CONFIG_KEYS) {
    const next = (values[key] ?? '').trim() || null;
    if (next !== stored[key]) out[key] = next;
  }
  return out as GlobalConfigUpdate;
}

/**
 * The "Global settings" tab of /settings/admin (issue 27): the platform's settings by key
 * (contracts global-config.ts), each checked with its key's rule before it is sent.
 */
export function GlobalSettingsTab() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const stored = useGlobalConfigs();
  const save = useMutation({
    mutationFn: updateGlobalConfigs,
    onSuccess: (values) => queryClient.setQueryData(GLOBAL_CONFIGS_KEY, values),
  });

  useEffect(() => {
    if (stored.data) {
      form.setFieldsValue(Object.fromEntries(GLOBAL_CONFIG_KEYS.map((key) => [key, stored.data[key] ?? ''])) as Values);
    }
  }, [form, stored.data]);

  async function handleFinish(values: Values) {
    if (!stored.data) return;
    const body = changes(values, stored.data);
    if (Object.keys(body).length === 0) {
      notify.success(t('globalSettings.saved'));
      return;
    }
    try {
      await save.mutateAsync(body);
      notify.success(t('globalSettings.saved'));
    } catch (error) {
      notify.error(error);
    }
  }

  const rule = (key: GlobalConfigKey) => ({
    validator: async (_: unknown, value: string | undefined) => {
      const text = (value ?? '').trim();
      if (text === '' || globalConfigCatalogue[key].safeParse(text).success) return;
      throw new Error(t(INVALID[key]));
    },
  });

  if (stored.isError) return <Alert type="error" showIcon message={t('globalSettings.loadFailed')} />;
  return (
    <Card variant="borderless" title={t('globalSettings.tab')} loading={stored.isPending}>
      <Typography.Paragraph type="secondary">{t('globalSettings.description')}</Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" onFinish={handleFinish} style={{ maxWidth: 640 }}>
        <Form.Item
          name="helpUrl"
          label={t('globalSettings.helpUrl')}
          extra={t('globalSettings.helpUrlHint')}
          rules={[rule('helpUrl')]}
        >
          <Input maxLength={MAX_LENGTH.helpUrl} inputMode="url" placeholder="https://" />
        </Form.Item>
        <Form.Item name="supportPhone" label={t('globalSettings.supportPhone')} rules={[rule('supportPhone')]}>
          <Input maxLength={MAX_LENGTH.supportPhone} inputMode="tel" />
        </Form.Item>
        <Form.Item name="supportEmail" label={t('globalSettings.supportEmail')} rules={[rule('supportEmail')]}>
          <Input maxLength={MAX_LENGTH.supportEmail} inputMode="email" />
        </Form.Item>
        <Form.Item
          name="announcement"
          label={t('globalSettings.announcement')}
          extra={t('globalSettings.announcementHint')}
          rules={[rule('announcement')]}
        >
          <Input.TextArea rows={3} maxLength={MAX_LENGTH.announcement} showCount />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('globalSettings.save')}
        </Button>
      </Form>
    </Card>
  );
}

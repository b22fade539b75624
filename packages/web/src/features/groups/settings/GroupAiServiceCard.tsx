import type { Group } from '@yyp/contracts';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../shared/notify/useNotify';
import { useUpdateGroup } from '../../../shared/groups/useGroups';

/**
 * The group's AI service: where POST exams/{id}/ai/task sends studies. Empty: no AI service, and
 * the study list says so instead of sending anything.
 */
export function GroupAiServiceCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ aiServiceUrl: string }>();
  const notify = useNotify();
  const update = useUpdateGroup(group.id);
  const current = group.settings.aiServiceUrl ?? '';

  useEffect(() => {
    form.setFieldsValue({ aiServiceUrl: current });
  }, [form, current]);

  async function handleFinish(values: { aiServiceUrl: string }) {
    try {
      await update.mutateAsync({ settings: { aiServiceUrl: values.aiServiceUrl.trim() } });
      notify.success(t('group.settingsSaved'));
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Card variant="borderless" title={t('group.aiTitle')}>
      <Typography.Paragraph type="secondary">{t('group.aiHint')}</Typography.Paragraph>
      <Form
        name="groupAi"
        form={form}
        layout="vertical"
        initialValues={{ aiServiceUrl: current }}
        onFinish={handleFinish}
      >
        <Form.Item
          name="aiServiceUrl"
          label={t('group.aiUrl')}
          rules={[{ pattern: /^(https?:\/\/\S+)?$/, message: t('group.aiUrlInvalid') }, { max: 512 }]}
        >
          <Input placeholder="https://ai.example.org/analyze" allowClear />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

import type { Group } from '@yyp/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
import { useUpdateGroup } from '../../../shared/groups/useGroups';

interface AiValues {
  aiServiceUrl: string;
}

function toValues(aiServiceUrl: string): AiValues {
  return { aiServiceUrl };
}

/**
 * The group's AI service: where POST exams/{id}/ai/task sends studies. Empty: no AI service, and
 * the study list says so instead of sending anything.
 */
export function GroupAiServiceCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const current = group.settings.aiServiceUrl ?? '';
  const form = useRecordForm(current, toValues);
  const update = useUpdateGroup(group.id);
  const save = useSaveWithNotice(form, t('group.settingsSaved'));

  return (
    <SettingsFormCard<AiValues>
      title={t('group.aiTitle')}
      description={t('group.aiHint')}
      name="groupAi"
      form={form}
      layout="vertical"
      initialValues={toValues(current)}
      onFinish={(values) => save(() => update.mutateAsync({ settings: { aiServiceUrl: values.aiServiceUrl.trim() } }))}
      saving={update.isPending}
    >
      <Form.Item
        name="aiServiceUrl"
        label={t('group.aiUrl')}
        rules={[{ pattern: /^(https?:\/\/\S+)?$/, message: t('group.aiUrlInvalid') }, { max: 512 }]}
      >
        <Input placeholder="https://ai.example.org/analyze" allowClear />
      </Form.Item>
    </SettingsFormCard>
  );
}

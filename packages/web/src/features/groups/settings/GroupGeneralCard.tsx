import type { Group } from '@yyp/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
import { requiredRule } from '../../../shared/forms/formRules';
import { GROUP_NAME_MAX, isGroupNameLength } from '../create/useNameAvailability';
import { useUpdateGroup } from '../../../shared/groups/useGroups';

interface GeneralValues {
  displayName: string;
}

function toValues(displayName: string): GeneralValues {
  return { displayName };
}

/** The group's display name (must stay available among groups). */
export function GroupGeneralCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const form = useRecordForm(group.displayName, toValues);
  const update = useUpdateGroup(group.id);
  const save = useSaveWithNotice(form, t('group.settingsSaved'));

  return (
    <SettingsFormCard<GeneralValues>
      title={t('group.generalTitle')}
      name="groupGeneral"
      form={form}
      layout="vertical"
      initialValues={toValues(group.displayName)}
      onFinish={(values) =>
        save(() => update.mutateAsync({ displayName: values.displayName.trim() }), { NameNotAvailable: 'displayName' })
      }
      saving={update.isPending}
    >
      <Form.Item label={t('group.groupId')}>
        <Input value={group.id} disabled />
      </Form.Item>
      <Form.Item
        name="displayName"
        label={t('group.displayName')}
        rules={[
          requiredRule(t, t('group.displayName')),
          {
            validator: async (_rule, value: unknown) => {
              if (typeof value === 'string' && value.trim() !== '' && !isGroupNameLength(value)) {
                throw new Error(t('groupCreate.nameLength'));
              }
            },
          },
        ]}
      >
        <Input maxLength={GROUP_NAME_MAX + 8} />
      </Form.Item>
    </SettingsFormCard>
  );
}

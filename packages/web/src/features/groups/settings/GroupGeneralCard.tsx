import type { Group } from '@yyp/contracts';
import { Button, Card, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/errorMessage';
import { hasCode } from '../../../api/errors';
import { useNotify } from '../../../shared/notify/useNotify';
import { requiredRule } from '../../../shared/forms/formRules';
import { GROUP_NAME_MAX, isGroupNameLength } from '../create/useNameAvailability';
import { useUpdateGroup } from '../../../shared/groups/useGroups';

interface GeneralValues {
  displayName: string;
}

/** The group's display name (must stay available among groups). */
export function GroupGeneralCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<GeneralValues>();
  const notify = useNotify();
  const update = useUpdateGroup(group.id);

  useEffect(() => {
    form.setFieldsValue({ displayName: group.displayName });
  }, [form, group.displayName]);

  async function handleFinish(values: GeneralValues) {
    try {
      await update.mutateAsync({ displayName: values.displayName.trim() });
      notify.success(t('group.settingsSaved'));
    } catch (error) {
      if (hasCode(error, 'NameNotAvailable')) {
        form.setFields([{ name: 'displayName', errors: [errorMessage(t, error)] }]);
        return;
      }
      notify.error(error);
    }
  }

  return (
    <Card variant="borderless" title={t('group.generalTitle')}>
      <Form<GeneralValues>
        name="groupGeneral"
        form={form}
        layout="vertical"
        initialValues={{ displayName: group.displayName }}
        onFinish={handleFinish}
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
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

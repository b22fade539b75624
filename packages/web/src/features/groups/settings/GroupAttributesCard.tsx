import { GROUP_ATTRIBUTE_KEYS, type Group } from '@yyp/contracts';
import { Button, Card, Form, Input, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupAttributes } from '../../../api/contractTypes';
import { useNotify } from '../../../shared/notify/useNotify';
import { maxLengthRule } from '../../../shared/forms/formRules';
import type { GroupAttributeKey } from '../groupSettings';
import { useUpdateGroup } from '../../../shared/groups/useGroups';

type AttributeValues = Record<GroupAttributeKey, { enabled: boolean; label: string }>;

function toValues(attributes: GroupAttributes): AttributeValues {
  return Object.fromEntries(
    GROUP_ATTRIBUTE_KEYS.map((key) => [
      key,
      { enabled: attributes[key]?.enabled ?? false, label: attributes[key]?.label ?? '' },
    ]),
  ) as AttributeValues;
}

/** The five group attributes (extra report fields): each with an on switch and a custom label. */
export function GroupAttributesCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AttributeValues>();
  const notify = useNotify();
  const update = useUpdateGroup(group.id);

  useEffect(() => {
    form.setFieldsValue(toValues(group.attributes));
  }, [form, group.attributes]);

  async function handleFinish(values: AttributeValues) {
    const attributes = Object.fromEntries(
      GROUP_ATTRIBUTE_KEYS.map((key) => [key, { enabled: values[key].enabled, label: values[key].label.trim() }]),
    ) as GroupAttributes;
    try {
      await update.mutateAsync({ attributes });
      notify.success(t('group.settingsSaved'));
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Card variant="borderless" title={t('group.attributesTitle')}>
      <Typography.Paragraph type="secondary">{t('group.attributesDescription')}</Typography.Paragraph>
      <Form<AttributeValues>
        name="groupAttributes"
        form={form}
        initialValues={toValues(group.attributes)}
        onFinish={handleFinish}
      >
        <table className="yyp-attr-table">
          <thead>
            <tr>
              <th>{t('group.attribute')}</th>
              <th>{t('group.attributeEnabled')}</th>
              <th>{t('group.attributeLabel')}</th>
            </tr>
          </thead>
          <tbody>
            {GROUP_ATTRIBUTE_KEYS.map((key) => (
              <tr key={key}>
                <td>{t(`groupAttributes.${key}`)}</td>
                <td>
                  <Form.Item name={[key, 'enabled']} valuePropName="checked" noStyle>
                    <Switch size="small" aria-label={`${t(`groupAttributes.${key}`)} ${t('group.attributeEnabled')}`} />
                  </Form.Item>
                </td>
                <td>
                  <Form.Item name={[key, 'label']} rules={[maxLengthRule(t, 32)]} className="yyp-attr-table__label">
                    <Input
                      size="small"
                      placeholder={t(`groupAttributes.${key}`)}
                      aria-label={`${t(`groupAttributes.${key}`)} ${t('group.attributeLabel')}`}
                    />
                  </Form.Item>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

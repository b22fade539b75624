import { GROUP_ATTRIBUTE_KEYS, type Group } from '@yyp/contracts';
import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GroupAttributes } from '../../../api/contractTypes';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
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
  const form = useRecordForm(group.attributes, toValues);
  const update = useUpdateGroup(group.id);
  const save = useSaveWithNotice(form, t('group.settingsSaved'));

  async function handleFinish(values: AttributeValues) {
    const attributes = Object.fromEntries(
      GROUP_ATTRIBUTE_KEYS.map((key) => [key, { enabled: values[key].enabled, label: values[key].label.trim() }]),
    ) as GroupAttributes;
    await save(() => update.mutateAsync({ attributes }));
  }

  return (
    <SettingsFormCard<AttributeValues>
      title={t('group.attributesTitle')}
      description={t('group.attributesDescription')}
      name="groupAttributes"
      form={form}
      initialValues={toValues(group.attributes)}
      onFinish={handleFinish}
      saving={update.isPending}
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
    </SettingsFormCard>
  );
}

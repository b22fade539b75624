import { ORG_CODE_PATTERN, type Organization } from '@yyp/contracts';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UpdateOrganizationRequest } from '../../../api/contractTypes';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
import { SwitchField } from '../../../ui/SwitchField';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { useUpdateOrganization } from './useUpdateOrganization';

interface GeneralValues {
  name: string;
  code: string;
  isPrivate: boolean;
  focused: boolean;
  freeEfilm: boolean;
}

function toValues(organization: Organization): GeneralValues {
  return {
    name: organization.name,
    code: organization.code ?? '',
    isPrivate: organization.isPrivate,
    focused: organization.focused,
    freeEfilm: organization.freeEfilm,
  };
}

/** Name, code (bound once, then read-only: spec 000 §5) and the organization's flags. */
export function OrgGeneralCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const form = useRecordForm(organization, toValues);
  const update = useUpdateOrganization(organization.id);
  const save = useSaveWithNotice(form, t('org.saved'));
  const codeBound = organization.code !== null;

  async function handleFinish(values: GeneralValues) {
    const code = values.code.trim();
    const body: UpdateOrganizationRequest = {
      name: values.name.trim(),
      isPrivate: values.isPrivate,
      focused: values.focused,
      freeEfilm: values.freeEfilm,
      ...(!codeBound && code !== '' ? { code } : {}),
    };
    await save(() => update.mutateAsync(body), { CodeTaken: 'code' });
  }

  return (
    <SettingsFormCard<GeneralValues>
      title={t('org.generalTitle')}
      name="orgGeneral"
      form={form}
      layout="vertical"
      initialValues={toValues(organization)}
      onFinish={handleFinish}
      saving={update.isPending}
    >
      <div className="yyp-form-grid">
        <Form.Item name="name" label={t('org.name')} rules={[requiredRule(t, t('org.name')), maxLengthRule(t, 64)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('org.code')}
          extra={codeBound ? t('org.codeLocked') : t('group.orgCodeHint')}
          rules={codeBound ? [] : [{ pattern: ORG_CODE_PATTERN, message: t('group.orgCodeInvalid') }]}
        >
          <Input disabled={codeBound} autoComplete="off" />
        </Form.Item>
      </div>
      <div className="yyp-switch-list">
        <SwitchField name="isPrivate" label={t('org.private')} hint={t('group.privateHint')} />
        <SwitchField name="focused" label={t('org.focused')} hint={t('org.focusedHint')} />
        <SwitchField name="freeEfilm" label={t('org.freeEfilm')} hint={t('org.freeEfilmHint')} />
      </div>
    </SettingsFormCard>
  );
}

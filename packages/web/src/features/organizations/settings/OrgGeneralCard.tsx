import { ORG_CODE_PATTERN, type Organization } from '@yyp/contracts';
import { Button, Card, Form, Input } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { UpdateOrganizationRequest } from '../../../api/contractTypes';
import { errorMessage } from '../../../api/errorMessage';
import { hasCode } from '../../../api/errors';
import { useNotify } from '../../../shared/notify/useNotify';
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
  const [form] = Form.useForm<GeneralValues>();
  const notify = useNotify();
  const update = useUpdateOrganization(organization.id);
  const codeBound = organization.code !== null;

  useEffect(() => {
    form.setFieldsValue(toValues(organization));
  }, [form, organization]);

  async function handleFinish(values: GeneralValues) {
    const code = values.code.trim();
    const body: UpdateOrganizationRequest = {
      name: values.name.trim(),
      isPrivate: values.isPrivate,
      focused: values.focused,
      freeEfilm: values.freeEfilm,
      ...(!codeBound && code !== '' ? { code } : {}),
    };
    try {
      await update.mutateAsync(body);
      notify.success(t('org.saved'));
    } catch (error) {
      if (hasCode(error, 'CodeTaken')) {
        form.setFields([{ name: 'code', errors: [errorMessage(t, error)] }]);
        return;
      }
      notify.error(error);
    }
  }

  return (
    <Card variant="borderless" title={t('org.generalTitle')}>
      <Form<GeneralValues>
        name="orgGeneral"
        form={form}
        layout="vertical"
        initialValues={toValues(organization)}
        onFinish={handleFinish}
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
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

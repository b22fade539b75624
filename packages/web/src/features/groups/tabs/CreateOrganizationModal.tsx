import { useMutation } from '@tanstack/react-query';
import { ORG_CODE_PATTERN, type Organization } from '@yyp/contracts';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModalActions } from '../../../ui/FormModal';
import type { CreateOrganizationRequest } from '../../../api/contractTypes';
import { errorMessage } from '../../../api/errorMessage';
import { hasCode } from '../../../api/errors';
import { createOrganization } from '../../../api/organizations';
import { useNotify } from '../../../shared/notify/useNotify';
import { SwitchField } from '../../../ui/SwitchField';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';

interface OrganizationValues {
  name: string;
  code?: string;
  isPrivate: boolean;
}

interface CreateOrganizationModalProps {
  groupId: string;
  open: boolean;
  onClose: () => void;
  onCreated: (organization: Organization) => void;
}

/** New organization of a group (POST groups/:id/organizations): name, optional code, private flag. */
export function CreateOrganizationModal({ groupId, open, onClose, onCreated }: CreateOrganizationModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<OrganizationValues>();
  const notify = useNotify();
  const create = useMutation({ mutationFn: (body: CreateOrganizationRequest) => createOrganization(groupId, body) });

  async function handleFinish(values: OrganizationValues) {
    const code = values.code?.trim();
    try {
      const organization = await create.mutateAsync({
        name: values.name.trim(),
        ...(code ? { code } : {}),
        isPrivate: values.isPrivate,
      });
      notify.success(t('group.orgCreated', { name: organization.name }));
      form.resetFields();
      onCreated(organization);
      onClose();
    } catch (error) {
      if (hasCode(error, 'CodeTaken')) {
        form.setFields([{ name: 'code', errors: [errorMessage(t, error)] }]);
        return;
      }
      notify.error(error);
    }
  }

  return (
    <Modal open={open} title={t('group.newOrganization')} onCancel={onClose} footer={null} destroyOnHidden>
      <Form<OrganizationValues>
        name="createOrganization"
        form={form}
        layout="vertical"
        initialValues={{ isPrivate: false }}
        onFinish={handleFinish}
        preserve={false}
      >
        <Form.Item
          name="name"
          label={t('group.orgName')}
          rules={[requiredRule(t, t('group.orgName')), maxLengthRule(t, 64)]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('group.orgCode')}
          extra={t('group.orgCodeHint')}
          rules={[{ pattern: ORG_CODE_PATTERN, message: t('group.orgCodeInvalid') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <div className="yyp-switch-list yyp-gap-bottom">
          <SwitchField name="isPrivate" label={t('group.private')} hint={t('group.privateHint')} />
        </div>
        <FormModalActions onCancel={onClose} pending={create.isPending} submitText={t('common.create')} />
      </Form>
    </Modal>
  );
}

import { useMutation } from '@tanstack/react-query';
import type { Group, Organization, OrgAccessLevel } from '@yyp/contracts';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, FormModalActions } from '../../../ui/FormModal';
import { addOrgMembers } from '../../../api/organizations';
import { useNotify } from '../../../shared/notify/useNotify';
import { useAllGroupMembers } from '../../../shared/groups/useGroups';
import { OrgLevelSelect } from '../../../shared/labels/OrgLevelTag';
import { requiredChoiceRule } from '../../../shared/forms/formRules';
import { accountLabel } from '../../../shared/labels/accountOptions';

interface AddMembersValues {
  accountIds: string[];
  accessLevel: OrgAccessLevel;
}

interface AddOrgMembersModalProps {
  group: Group;
  organization: Organization;
  existingIds: string[];
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}

/** Add members of the group to an organization (POST buckets/:id/members) at one level. */
export function AddOrgMembersModal(props: AddOrgMembersModalProps) {
  const { t } = useTranslation();
  const { organization, open, onClose } = props;
  return (
    <FormModal open={open} title={t('org.addMembersTitle', { name: organization.name })} onClose={onClose}>
      <AddOrgMembersForm {...props} />
    </FormModal>
  );
}

function AddOrgMembersForm({ group, organization, existingIds, onClose, onAdded }: AddOrgMembersModalProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const groupMembers = useAllGroupMembers(group.id);
  const add = useMutation({
    mutationFn: (values: AddMembersValues) => addOrgMembers(organization.id, values.accountIds, values.accessLevel),
  });
  const existing = new Set(existingIds);
  const options = (groupMembers.data ?? [])
    .filter((m) => !existing.has(m.accountId))
    .map((m) => ({ value: m.accountId, label: accountLabel(m) }));

  async function handleFinish(values: AddMembersValues) {
    try {
      await add.mutateAsync(values);
      notify.success(t('org.membersAdded', { count: values.accountIds.length }));
      onAdded();
      onClose();
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Form<AddMembersValues>
      name="addOrgMembers"
      layout="vertical"
      initialValues={{ accountIds: [], accessLevel: 'member' }}
      onFinish={handleFinish}
    >
      <Form.Item
        name="accountIds"
        label={t('org.groupMembers')}
        extra={t('org.groupMembersHint')}
        rules={[requiredChoiceRule(t, t('org.groupMembers'))]}
      >
        <Select
          mode="multiple"
          autoFocus
          loading={groupMembers.isPending}
          options={options}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('members.searchPlaceholder')}
        />
      </Form.Item>
      <Form.Item name="accessLevel" label={t('members.accessLevel')}>
        <OrgLevelSelect />
      </Form.Item>
      <FormModalActions onCancel={onClose} pending={add.isPending} submitText={t('common.add')} />
    </Form>
  );
}

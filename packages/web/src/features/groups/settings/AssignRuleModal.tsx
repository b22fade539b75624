import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupMember, Organization } from '@yyp/contracts';
import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModalActions } from '../../../ui/FormModal';
import type { AssignRule, UpsertAssignRuleRequest } from '../../../api/contractTypes';
import { saveAssignRule } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { memberOptions } from '../../../shared/labels/accountOptions';

interface AssignRuleValues {
  name: string;
  bucketIds: string[];
  doctorId?: string;
  modality?: string;
  memberIds: string[];
  priority: number;
}

interface AssignRuleModalProps {
  groupId: string;
  /** null for a new rule */
  rule: AssignRule | null;
  open: boolean;
  organizations: Organization[];
  members: GroupMember[];
  onClose: () => void;
}

function toValues(rule: AssignRule | null): AssignRuleValues {
  return {
    name: rule?.name ?? '',
    bucketIds: rule?.bucketIds ?? [],
    doctorId: rule?.doctorId ?? undefined,
    modality: rule?.modality ?? '',
    memberIds: rule?.memberIds ?? [],
    priority: rule?.priority ?? 0,
  };
}

/** Add or edit an assign rule; organizations and people come from the group itself. */
export function AssignRuleModal({ groupId, rule, open, organizations, members, onClose }: AssignRuleModalProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: UpsertAssignRuleRequest) => saveAssignRule(groupId, rule?.id ?? null, body),
  });
  const memberChoices = memberOptions(members);

  async function handleFinish(values: AssignRuleValues) {
    const modality = values.modality?.trim() ?? '';
    try {
      const saved = await save.mutateAsync({
        name: values.name.trim(),
        bucketIds: values.bucketIds,
        doctorId: values.doctorId ?? null,
        modality: modality === '' ? null : modality,
        memberIds: values.memberIds,
        priority: values.priority,
      });
      notify.success(t('assignRules.saved', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.assignRules(groupId) });
      onClose();
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Modal
      open={open}
      title={rule ? t('assignRules.editTitle') : t('assignRules.newTitle')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Form<AssignRuleValues>
        name="assignRule"
        layout="vertical"
        initialValues={toValues(rule)}
        onFinish={handleFinish}
      >
        <Form.Item
          name="name"
          label={t('assignRules.name')}
          rules={[requiredRule(t, t('assignRules.name')), maxLengthRule(t, 64)]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item name="bucketIds" label={t('assignRules.organizations')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('assignRules.anyOrganization')}
            options={organizations.map((o) => ({ value: o.id, label: o.name }))}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
        <div className="yyp-form-grid">
          <Form.Item name="doctorId" label={t('assignRules.doctor')}>
            <Select allowClear options={memberChoices} showSearch={{ optionFilterProp: 'label' }} />
          </Form.Item>
          <Form.Item name="modality" label={t('assignRules.modality')} rules={[maxLengthRule(t, 16)]}>
            <Input placeholder={t('assignRules.modalityPlaceholder')} />
          </Form.Item>
        </div>
        <Form.Item name="memberIds" label={t('assignRules.members')}>
          <Select mode="multiple" allowClear options={memberChoices} showSearch={{ optionFilterProp: 'label' }} />
        </Form.Item>
        <Form.Item name="priority" label={t('assignRules.priority')}>
          <InputNumber min={0} max={10000} precision={0} />
        </Form.Item>
        <FormModalActions onCancel={onClose} pending={save.isPending} />
      </Form>
    </Modal>
  );
}

import { useMutation } from '@tanstack/react-query';
import type { OrgMember, Role } from '@yyp/contracts';
import { Alert, Form, Input, Select, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/errorMessage';
import { hasCode } from '../../../api/errors';
import { saveRole, setRoleHolders } from '../../../api/organizations';
import { useNotify } from '../../../shared/notify/useNotify';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { FormDrawer } from '../../../ui/FormDrawer';
import { useActionCatalogue } from '../useOrganization';
import { ActionChecklist } from './ActionChecklist';
import { memberOptions } from '../../../shared/labels/accountOptions';

interface RoleValues {
  name: string;
  actions: string[];
  holders: string[];
}

interface RoleEditorDrawerProps {
  bucketId: string;
  /** null: a new role */
  role: Role | null;
  open: boolean;
  readOnly: boolean;
  members: OrgMember[];
  onClose: () => void;
  onSaved: (role: Role) => void;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** Create or edit a role: its name, the catalogue actions it allows, and who holds it. */
export function RoleEditorDrawer(props: RoleEditorDrawerProps) {
  const { t } = useTranslation();
  const { role, open, readOnly, onClose } = props;
  return (
    <FormDrawer
      open={open}
      size={760}
      title={role ? t('roles.editTitle', { name: role.name }) : t('roles.newTitle')}
      name="roleEditor"
      readOnly={readOnly}
      onClose={onClose}
    >
      {(formId) => <RoleEditorForm {...props} formId={formId} />}
    </FormDrawer>
  );
}

function RoleEditorForm({
  bucketId,
  role,
  readOnly,
  members,
  onSaved,
  formId,
}: RoleEditorDrawerProps & { formId: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RoleValues>();
  const notify = useNotify();
  const catalogue = useActionCatalogue();
  const save = useMutation({
    mutationFn: async (values: RoleValues) => {
      const saved = await saveRole(bucketId, role?.id ?? null, { name: values.name.trim(), actions: values.actions });
      // Holders are set apart (PUT roles/:id/mappings), and only when they changed.
      return sameSet(saved.memberIds, values.holders) ? saved : setRoleHolders(saved.id, values.holders);
    },
  });

  async function handleFinish(values: RoleValues) {
    try {
      const saved = await save.mutateAsync(values);
      notify.success(t('roles.saved', { name: saved.name }));
      onSaved(saved);
    } catch (error) {
      if (hasCode(error, 'NameNotAvailable')) {
        form.setFields([{ name: 'name', errors: [errorMessage(t, error)] }]);
        return;
      }
      notify.error(error);
    }
  }

  if (catalogue.isError) {
    return <Alert type="error" showIcon title={errorMessage(t, catalogue.error)} />;
  }
  if (!catalogue.data) {
    return <Skeleton active paragraph={{ rows: 10 }} />;
  }
  const total = catalogue.data.reduce((n, group) => n + group.actions.length, 0);

  return (
    <Form<RoleValues>
      name={formId}
      form={form}
      layout="vertical"
      disabled={readOnly || save.isPending}
      initialValues={{ name: role?.name ?? '', actions: role?.actions ?? [], holders: role?.memberIds ?? [] }}
      onFinish={handleFinish}
    >
      <Form.Item name="name" label={t('roles.name')} rules={[requiredRule(t, t('roles.name')), maxLengthRule(t, 32)]}>
        <Input autoFocus={!readOnly} />
      </Form.Item>
      <Form.Item name="holders" label={t('roles.holders')} extra={t('roles.holdersHint')}>
        <Select
          mode="multiple"
          allowClear
          options={memberOptions(members)}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('roles.noHolders')}
        />
      </Form.Item>
      <Form.Item
        label={
          <span>
            {t('roles.actions')}{' '}
            <Form.Item noStyle shouldUpdate={(a, b) => a.actions !== b.actions}>
              {({ getFieldValue }) => (
                <span className="yyp-muted">
                  ({t('roles.actionCount', { count: (getFieldValue('actions') as string[]).length, total })})
                </span>
              )}
            </Form.Item>
          </span>
        }
        name="actions"
      >
        <ActionChecklist catalogue={catalogue.data} disabled={readOnly} />
      </Form.Item>
    </Form>
  );
}

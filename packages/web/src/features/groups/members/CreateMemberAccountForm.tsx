import { UserAddOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { GROUP_ACCESS_LEVELS, normalizeUsername, type GroupAccessLevel } from '@yyp/contracts';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CreateMemberAccountRequest } from '../../../api/contractTypes';
import { createMemberAccount } from '../../../api/groups';
import { useNotify } from '../../../shared/notify/useNotify';
import { NewPasswordField } from '../../../shared/forms/PasswordFields';
import { useDomain } from '../../../shared/domain/useDomain';
import { GroupLevelSelect } from '../../../shared/labels/GroupLevelTag';
import type { AddedPerson } from './types';
import { UsernameField, NameField } from '../../../shared/forms/AccountFields';
import { showOnField } from '../../../shared/forms/fieldRefusal';

interface CreateAccountValues {
  username: string;
  name: string;
  password: string;
  accessLevel: GroupAccessLevel;
}

interface CreateMemberAccountFormProps {
  groupId: string;
  onAdded: (people: AddedPerson[]) => void;
}

/**
 * Create an account for a colleague straight into the group (POST groups/:id/members/create-account).
 * The initial password follows the domain policy; its owner replaces it at the first login.
 */
export function CreateMemberAccountForm({ groupId, onAdded }: CreateMemberAccountFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CreateAccountValues>();
  const notify = useNotify();
  const { domain } = useDomain();
  const strong = domain.requireStrongPwd;
  const create = useMutation({
    mutationFn: (body: CreateMemberAccountRequest) => createMemberAccount(groupId, body),
  });

  async function handleFinish(values: CreateAccountValues) {
    try {
      const member = await create.mutateAsync({
        username: normalizeUsername(values.username),
        name: values.name.trim(),
        password: values.password,
        accessLevel: values.accessLevel,
      });
      notify.success(t('members.accountCreated', { username: member.username }));
      onAdded([
        {
          accountId: member.accountId,
          username: member.username,
          name: member.name,
          accessLevel: values.accessLevel,
          created: true,
        },
      ]);
      form.resetFields();
    } catch (error) {
      const fields = { UsernameTaken: 'username', PasswordTooSimple: 'password' };
      if (!showOnField(form, t, error, fields, strong)) notify.error(error);
    }
  }

  return (
    <Form<CreateAccountValues>
      name="createMemberAccount"
      form={form}
      layout="vertical"
      initialValues={{ accessLevel: GROUP_ACCESS_LEVELS.member }}
      onFinish={handleFinish}
    >
      <div className="yyp-form-grid yyp-form-grid--2">
        <UsernameField autoComplete="off" />
        <NameField autoComplete="off" />
        <NewPasswordField
          name="password"
          label={t('members.initialPassword')}
          strong={strong}
          hint={t('members.initialPasswordHint')}
        />
        <Form.Item name="accessLevel" label={t('members.accessLevel')}>
          <GroupLevelSelect />
        </Form.Item>
      </div>
      <Button type="primary" htmlType="submit" icon={<UserAddOutlined />} loading={create.isPending}>
        {t('members.createAccount')}
      </Button>
    </Form>
  );
}

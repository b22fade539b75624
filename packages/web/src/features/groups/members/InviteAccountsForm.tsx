import { UserAddOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { GROUP_ACCESS_LEVELS, type GroupAccessLevel } from '@yyp/contracts';
import { Button, Form, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { inviteGroupMembers } from '../../../api/groups';
import { useNotify } from '../../../shared/notify/useNotify';
import { useAccountSuggestions } from '../../../shared/account/useAccountSuggestions';
import { GroupLevelSelect } from '../../../shared/labels/GroupLevelTag';
import type { AddedPerson } from './types';
import { requiredChoiceRule } from '../../../shared/forms/formRules';
import { accountLabel } from '../../../shared/labels/accountOptions';

interface PickedAccount {
  value: string;
  label: string;
  username: string;
  name: string;
}

interface InviteValues {
  accounts: PickedAccount[];
  accessLevel: GroupAccessLevel;
}

interface InviteAccountsFormProps {
  groupId: string;
  onAdded: (people: AddedPerson[]) => void;
}

/** Add existing accounts to a group (POST groups/:id/members/invite), found by account search. */
export function InviteAccountsForm({ groupId, onAdded }: InviteAccountsFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<InviteValues>();
  const notify = useNotify();
  const { setSearch, suggestions, searching } = useAccountSuggestions();
  const invite = useMutation({
    mutationFn: (values: InviteValues) =>
      inviteGroupMembers(
        groupId,
        values.accounts.map((a) => a.value),
        values.accessLevel,
      ),
  });

  const options: PickedAccount[] = suggestions.map((s) => ({
    value: s.id,
    label: accountLabel(s),
    username: s.username,
    name: s.name,
  }));

  async function handleFinish(values: InviteValues) {
    try {
      const { added } = await invite.mutateAsync(values);
      if (added.length === 0) {
        notify.info(t('members.alreadyMembers'));
      } else {
        notify.success(t('members.invited', { count: added.length }));
      }
      const addedIds = new Set(added);
      onAdded(
        values.accounts
          .filter((a) => addedIds.has(a.value))
          .map((a) => ({
            accountId: a.value,
            username: a.username,
            name: a.name,
            accessLevel: values.accessLevel,
            created: false,
          })),
      );
      form.resetFields();
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Form<InviteValues>
      name="inviteAccounts"
      form={form}
      layout="vertical"
      initialValues={{ accounts: [], accessLevel: GROUP_ACCESS_LEVELS.member }}
      onFinish={handleFinish}
    >
      <Form.Item
        name="accounts"
        label={t('members.accounts')}
        extra={t('members.searchHint')}
        rules={[requiredChoiceRule(t, t('members.accounts'))]}
      >
        <Select<PickedAccount[], PickedAccount>
          mode="multiple"
          labelInValue
          showSearch={{ filterOption: false, onSearch: setSearch }}
          placeholder={t('members.searchPlaceholder')}
          options={options}
          notFoundContent={searching ? <Spin size="small" /> : t('members.noMatches')}
          onSelect={() => setSearch('')}
          optionRender={(option) => (
            <span>
              {option.data.name} <span className="yyp-muted">{option.data.username}</span>
            </span>
          )}
        />
      </Form.Item>
      <Form.Item name="accessLevel" label={t('members.accessLevel')}>
        <GroupLevelSelect />
      </Form.Item>
      <Button type="primary" htmlType="submit" icon={<UserAddOutlined />} loading={invite.isPending}>
        {t('members.invite')}
      </Button>
    </Form>
  );
}

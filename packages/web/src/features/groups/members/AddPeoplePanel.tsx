import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { CreateMemberAccountForm } from './CreateMemberAccountForm';
import { InviteAccountsForm } from './InviteAccountsForm';
import type { AddedPerson } from './types';

interface AddPeoplePanelProps {
  groupId: string;
  onAdded: (people: AddedPerson[]) => void;
}

/** The two ways to add people to a group: invite existing accounts, or create one for a colleague. */
export function AddPeoplePanel({ groupId, onAdded }: AddPeoplePanelProps) {
  const { t } = useTranslation();
  return (
    <Tabs
      items={[
        {
          key: 'invite',
          label: t('members.inviteTab'),
          children: <InviteAccountsForm groupId={groupId} onAdded={onAdded} />,
        },
        {
          key: 'create',
          label: t('members.createTab'),
          children: <CreateMemberAccountForm groupId={groupId} onAdded={onAdded} />,
        },
      ]}
    />
  );
}

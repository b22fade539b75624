import type { Group } from '@yyp/contracts';
import { Button, Card, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { GroupLevelTag } from '../../../shared/labels/GroupLevelTag';
import { AddPeoplePanel } from '../members/AddPeoplePanel';
import type { AddedPerson } from '../members/types';

interface InviteMembersStepProps {
  group: Group;
  added: AddedPerson[];
  onAdded: (people: AddedPerson[]) => void;
  onFinish: () => void;
}

/** Step 3 of the wizard: invite colleagues or create their accounts, then on to the group. */
export function InviteMembersStep({ group, added, onAdded, onFinish }: InviteMembersStepProps) {
  const { t } = useTranslation();
  const columns: TableColumnsType<AddedPerson> = [
    { key: 'name', dataIndex: 'name', title: t('fields.name') },
    { key: 'username', dataIndex: 'username', title: t('fields.username') },
    { key: 'level', title: t('members.accessLevel'), render: (_, p) => <GroupLevelTag level={p.accessLevel} /> },
    {
      key: 'how',
      title: '',
      render: (_, p) => (
        <Tag color={p.created ? 'green' : 'blue'}>{p.created ? t('members.createTab') : t('members.invite')}</Tag>
      ),
    },
  ];

  return (
    <div className="yyp-wizard-step">
      <div>
        <Typography.Title level={5}>{t('groupCreate.inviteTitle')}</Typography.Title>
        <Typography.Text type="secondary">{t('groupCreate.inviteDescription')}</Typography.Text>
      </div>
      <Card size="small">
        <AddPeoplePanel groupId={group.id} onAdded={onAdded} />
      </Card>
      <Card size="small" title={t('groupCreate.addedTitle')}>
        <Table<AddedPerson>
          rowKey="accountId"
          size="small"
          columns={columns}
          dataSource={added}
          pagination={false}
          locale={{ emptyText: t('groupCreate.noneAdded') }}
        />
      </Card>
      <div className="yyp-wizard-actions">
        <Button type="primary" onClick={onFinish}>
          {t('groupCreate.finish')}
        </Button>
      </div>
    </div>
  );
}

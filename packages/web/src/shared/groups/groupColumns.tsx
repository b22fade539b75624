import type { Group } from '@yyp/contracts';
import { Card, Table, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import type { TableQuery } from '../../ui/QueryTable';
import { GroupLevelTag } from '../labels/GroupLevelTag';

/** The columns every list of the caller's groups starts with: name (a link), my level, members, organizations. */
export function groupColumns(t: TFunction): TableColumnsType<Group> {
  return [
    {
      key: 'name',
      title: t('group.name'),
      render: (_, group) => <Link to={`/groups/${encodeURIComponent(group.id)}`}>{group.displayName}</Link>,
    },
    { key: 'level', title: t('groups.myLevel'), render: (_, group) => <GroupLevelTag level={group.accessLevel} /> },
    { key: 'members', dataIndex: 'memberCount', title: t('groups.members'), align: 'right' },
    { key: 'organizations', dataIndex: 'organizationCount', title: t('groups.organizations'), align: 'right' },
  ];
}

/** A list of the caller's groups in a card, with the failed-load alert above it. */
export function GroupsTableCard({
  groups,
  columns,
  emptyText,
}: {
  groups: TableQuery<Group>;
  columns: TableColumnsType<Group>;
  emptyText: ReactNode;
}) {
  return (
    <>
      {groups.isError && <LoadFailedAlert error={groups.error} onRetry={() => void groups.refetch()} />}
      <Card variant="borderless">
        <Table<Group>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={groups.data ?? []}
          loading={groups.isPending}
          pagination={false}
          locale={{ emptyText }}
        />
      </Card>
    </>
  );
}

import type { Group } from '@yyp/contracts';
import type { TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
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

import { PlusOutlined, TeamOutlined } from '@ant-design/icons';
import type { Group } from '@yyp/contracts';
import { Button, Empty, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageHeading } from '../../ui/PageHeading';
import { useMe } from '../../shared/account/useMe';
import { groupColumns, GroupsTableCard } from '../../shared/groups/groupColumns';
import { useMyGroups } from '../../shared/groups/useGroups';

/** /groups: the groups the user belongs to, with their level; the way into creating one. */
export function GroupsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const me = useMe();
  const groups = useMyGroups();
  const list = groups.data ?? [];
  const canCreate = Boolean(me.data?.canCreateGroup) && groups.isSuccess && list.length === 0;

  function handleCreate() {
    void navigate('/groups/create');
  }

  const columns: TableColumnsType<Group> = [
    ...groupColumns(t),
    {
      key: 'createdAt',
      title: t('group.createdAt'),
      render: (_, group) => dayjs(group.createdAt).format('YYYY-MM-DD'),
    },
    {
      key: 'open',
      title: t('common.actions'),
      render: (_, group) => <Link to={`/groups/${encodeURIComponent(group.id)}`}>{t('groups.open')}</Link>,
    },
  ];

  const emptyState = (
    <Empty
      image={<TeamOutlined className="yyp-empty-icon" />}
      description={
        <div className="yyp-empty">
          <Typography.Text strong>{t('groups.emptyTitle')}</Typography.Text>
          <Typography.Text type="secondary">
            {me.data?.canCreateGroup ? t('groups.emptyCanCreate') : t('groups.emptyCannotCreate')}
          </Typography.Text>
        </div>
      }
    >
      {me.data?.canCreateGroup && (
        <Button type="primary" icon={<PlusOutlined />} onClick={handleCreate}>
          {t('groups.createGroup')}
        </Button>
      )}
    </Empty>
  );

  return (
    <div className="yyp-page">
      <PageHeading
        title={t('groups.title')}
        description={t('groups.subtitle')}
        extra={
          canCreate && (
            <Button type="primary" icon={<PlusOutlined />} onClick={handleCreate}>
              {t('groups.createGroup')}
            </Button>
          )
        }
      />
      <GroupsTableCard groups={groups} columns={columns} emptyText={groups.isPending ? ' ' : emptyState} />
    </div>
  );
}

import { UserAddOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupAccessLevel, GroupMember } from '@yyp/contracts';
import { Button, Card, Drawer, Input, Popconfirm, Space, Tag, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { removeGroupMember, updateGroupMember } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { fixedPagination, PagedQueryTable } from '../../../ui/QueryTable';
import { useMe } from '../../../shared/account/useMe';
import { GroupLevelSelect, GroupLevelTag } from '../../../shared/labels/GroupLevelTag';
import { isGroupAccessLevel, isGroupAdmin } from '../../../shared/groups/levels';
import { AddPeoplePanel } from '../members/AddPeoplePanel';
import { useGroupMembersPage } from '../../../shared/groups/useGroups';

const PAGE_SIZE = 20;

/** Members of a group with their level; administrators add people, change levels and remove them. */
export function GroupPeopleTab({ group }: { group: Group }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const me = useMe();
  const admin = isGroupAdmin(group);
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const members = useGroupMembersPage(group.id, { q, page, pageSize: PAGE_SIZE });

  const changeLevel = useMutation({
    mutationFn: ({ member, level }: { member: GroupMember; level: GroupAccessLevel }) =>
      updateGroupMember(group.id, member.accountId, level),
  });
  const remove = useMutation({ mutationFn: (member: GroupMember) => removeGroupMember(group.id, member.accountId) });

  function refresh() {
    return queryClient.invalidateQueries({ queryKey: queryKeys.groups });
  }

  async function handleLevelChange(member: GroupMember, level: GroupAccessLevel) {
    try {
      await changeLevel.mutateAsync({ member, level });
      notify.success(t('group.levelChanged', { name: member.name }));
    } catch (error) {
      notify.error(error);
    } finally {
      await refresh();
    }
  }

  async function handleRemove(member: GroupMember) {
    try {
      await remove.mutateAsync(member);
      notify.success(t('group.memberRemoved', { name: member.name }));
      await refresh();
    } catch (error) {
      notify.error(error);
    }
  }

  function handleSearch(value: string) {
    setQ(value.trim());
    setPage(1);
  }

  const columns: TableColumnsType<GroupMember> = [
    {
      key: 'name',
      title: t('group.memberName'),
      render: (_, member) => (
        <Space size={6}>
          {member.name}
          {member.accountId === me.data?.id && <Tag>{t('group.you')}</Tag>}
        </Space>
      ),
    },
    { key: 'username', dataIndex: 'username', title: t('group.username') },
    {
      key: 'level',
      title: t('group.level'),
      width: 220,
      render: (_, member) =>
        admin && isGroupAccessLevel(member.accessLevel) ? (
          <GroupLevelSelect
            size="small"
            value={member.accessLevel}
            aria-label={`${t('group.level')} ${member.name}`}
            onChange={(level) => void handleLevelChange(member, level)}
          />
        ) : (
          <GroupLevelTag level={member.accessLevel} />
        ),
    },
    {
      key: 'status',
      title: t('group.status'),
      render: (_, member) =>
        member.disabled ? <Tag color="red">{t('group.disabled')}</Tag> : <Tag color="green">{t('group.active')}</Tag>,
    },
    { key: 'joined', title: t('group.joinedAt'), render: (_, member) => dayjs(member.joinedAt).format('YYYY-MM-DD') },
    ...(admin
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_: unknown, member: GroupMember) => (
              <Popconfirm
                title={t('group.removeMemberConfirm', { name: member.name })}
                okText={t('common.remove')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => handleRemove(member)}
              >
                <Button type="link" danger size="small">
                  {t('group.removeMember')}
                </Button>
              </Popconfirm>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      variant="borderless"
      title={t('group.tabPeople')}
      extra={
        <Space>
          <Input.Search
            allowClear
            placeholder={t('group.searchMembers')}
            onSearch={handleSearch}
            className="yyp-search"
            aria-label={t('group.searchMembers')}
          />
          {admin && (
            <Button type="primary" icon={<UserAddOutlined />} onClick={() => setAdding(true)}>
              {t('group.addPeople')}
            </Button>
          )}
        </Space>
      }
    >
      <PagedQueryTable<GroupMember>
        query={members}
        rows={members.data?.members}
        rowKey="accountId"
        size="middle"
        columns={columns}
        pagination={fixedPagination(page, PAGE_SIZE, members.data?.count ?? 0, setPage)}
      />
      <Drawer
        open={adding}
        title={t('group.addPeopleTitle', { name: group.displayName })}
        size={560}
        onClose={() => setAdding(false)}
        destroyOnHidden
      >
        <AddPeoplePanel groupId={group.id} onAdded={() => void refresh()} />
      </Drawer>
    </Card>
  );
}

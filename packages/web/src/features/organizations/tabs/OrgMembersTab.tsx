import { UserAddOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, Organization, OrgAccessLevel, OrgMember } from '@yyp/contracts';
import { Alert, Button, Card, Popconfirm, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { removeOrgMember, updateOrgMember } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { QueryTable } from '../../../ui/QueryTable';
import type { OrgAccess } from '../orgAccess';
import { OrgLevelSelect, OrgLevelTag, isOrgAccessLevel } from '../../../shared/labels/OrgLevelTag';
import { useOrgMembers, useRefreshOrganization, useRoles } from '../useOrganization';
import { AddOrgMembersModal } from './AddOrgMembersModal';

interface OrgMembersTabProps {
  group: Group;
  organization: Organization;
  access: OrgAccess;
}

/** Members of an organization with level and roles; managers add group members, change levels, remove. */
export function OrgMembersTab({ group, organization, access }: OrgMembersTabProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const members = useOrgMembers(organization.id);
  const roles = useRoles(organization.id);
  const refreshOrganization = useRefreshOrganization(organization.id);
  const [adding, setAdding] = useState(false);
  const roleName = new Map((roles.data ?? []).map((r) => [r.id, r.name]));

  const changeLevel = useMutation({
    mutationFn: ({ member, level }: { member: OrgMember; level: OrgAccessLevel }) =>
      updateOrgMember(organization.id, member.accountId, level),
  });
  const remove = useMutation({ mutationFn: (member: OrgMember) => removeOrgMember(organization.id, member.accountId) });

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: queryKeys.orgMembers(organization.id) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.roles(organization.id) });
    await refreshOrganization();
  }

  async function handleLevelChange(member: OrgMember, level: OrgAccessLevel) {
    try {
      await changeLevel.mutateAsync({ member, level });
      notify.success(t('org.levelChanged', { name: member.name }));
    } catch (error) {
      notify.error(error);
    } finally {
      await refresh();
    }
  }

  async function handleRemove(member: OrgMember) {
    try {
      await remove.mutateAsync(member);
      notify.success(t('org.memberRemoved', { name: member.name }));
      await refresh();
    } catch (error) {
      notify.error(error);
    }
  }

  const columns: TableColumnsType<OrgMember> = [
    { key: 'name', dataIndex: 'name', title: t('group.memberName') },
    { key: 'username', dataIndex: 'username', title: t('group.username') },
    {
      key: 'level',
      title: t('group.level'),
      width: 200,
      render: (_, member) =>
        access.canManage && isOrgAccessLevel(member.accessLevel) ? (
          <OrgLevelSelect
            size="small"
            value={member.accessLevel}
            aria-label={`${t('group.level')} ${member.name}`}
            onChange={(level) => void handleLevelChange(member, level)}
          />
        ) : (
          <OrgLevelTag level={member.accessLevel} />
        ),
    },
    {
      key: 'roles',
      title: t('org.roles'),
      render: (_, member) =>
        member.roleIds.length === 0
          ? '—'
          : member.roleIds.map((id) => (
              <Tag key={id} color="processing">
                {roleName.get(id) ?? id}
              </Tag>
            )),
    },
    ...(access.canManage
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_: unknown, member: OrgMember) => (
              <Popconfirm
                title={t('org.removeMemberConfirm', { name: member.name })}
                okText={t('common.remove')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => handleRemove(member)}
              >
                <Button type="link" danger size="small">
                  {t('common.remove')}
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
      title={t('org.tabMembers')}
      extra={
        access.canManage && (
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setAdding(true)}>
            {t('org.addMembers')}
          </Button>
        )
      }
    >
      {!access.canManage && <Alert type="info" showIcon title={t('org.manageOnly')} className="yyp-gap-bottom" />}
      <QueryTable<OrgMember>
        query={members}
        rowKey="accountId"
        columns={columns}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
      />
      <AddOrgMembersModal
        group={group}
        organization={organization}
        existingIds={(members.data ?? []).map((m) => m.accountId)}
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={() => void refresh()}
      />
    </Card>
  );
}

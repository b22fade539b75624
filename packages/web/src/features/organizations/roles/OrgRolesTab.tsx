import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { Organization, Role } from '@yyp/contracts';
import { Button, Card, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteRole } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';
import { DeleteByNameModal } from '../../../ui/DeleteByNameModal';
import { QueryTable } from '../../../ui/QueryTable';
import { actionLabel, categoryLabel, groupActionsByCategory } from '../../../shared/labels/actionLabels';
import type { OrgAccess } from '../orgAccess';
import { useOrgMembers, useRefreshOrganization, useRoles } from '../useOrganization';
import { RoleEditorDrawer } from './RoleEditorDrawer';

/** Roles of an organization: the actions each allows and who holds it. */
export function OrgRolesTab({ organization, access }: { organization: Organization; access: OrgAccess }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const roles = useRoles(organization.id);
  const members = useOrgMembers(organization.id);
  const refreshOrganization = useRefreshOrganization(organization.id);
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Role | null>(null);
  const memberName = new Map((members.data ?? []).map((m) => [m.accountId, m.name]));

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: queryKeys.roles(organization.id) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.orgMembers(organization.id) });
    await refreshOrganization();
  }

  async function handleSaved() {
    setEditing(null);
    await refresh();
  }

  const columns: TableColumnsType<Role> = [
    { key: 'name', dataIndex: 'name', title: t('roles.name'), width: 180 },
    {
      key: 'actions',
      title: t('roles.actions'),
      render: (_, role) => (
        <div className="yyp-tag-wrap">
          {groupActionsByCategory(role.actions).map(({ category, actions }) => (
            <Tooltip key={category} title={actions.map((a) => actionLabel(t, a)).join(', ')}>
              <Tag>
                {categoryLabel(t, category)} · {actions.length}
              </Tag>
            </Tooltip>
          ))}
          {role.actions.length === 0 && <Typography.Text type="secondary">—</Typography.Text>}
        </div>
      ),
    },
    {
      key: 'holders',
      title: t('roles.holders'),
      render: (_, role) =>
        role.memberIds.length === 0 ? (
          <Typography.Text type="secondary">{t('roles.noHolders')}</Typography.Text>
        ) : (
          <div className="yyp-tag-wrap">
            {role.memberIds.map((id) => (
              <Tag key={id} color="processing">
                {memberName.get(id) ?? id}
              </Tag>
            ))}
          </div>
        ),
    },
    {
      key: 'ops',
      title: t('common.actions'),
      width: 160,
      render: (_, role) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(role)}>
            {access.canManage ? t('common.edit') : t('groups.open')}
          </Button>
          {access.canManage && (
            <Button type="link" size="small" danger onClick={() => setDeleting(role)}>
              {t('common.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={t('org.tabRoles')}
      extra={
        access.canManage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('roles.newRole')}
          </Button>
        )
      }
    >
      <QueryTable<Role> query={roles} rowKey="id" columns={columns} locale={{ emptyText: t('roles.empty') }} />
      <RoleEditorDrawer
        bucketId={organization.id}
        role={editing === 'new' ? null : editing}
        open={editing !== null}
        readOnly={!access.canManage}
        members={members.data ?? []}
        onClose={() => setEditing(null)}
        onSaved={() => void handleSaved()}
      />
      <DeleteByNameModal<Role>
        row={deleting}
        label={t('roles.deleteRole')}
        description={(name) => t('roles.deleteDescription', { name })}
        remove={(role) => deleteRole(role.id, role.name)}
        deleted={(name) => t('roles.deleted', { name })}
        afterDelete={refresh}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}

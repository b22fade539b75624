import { DeleteOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import type { Group, Organization } from '@yyp/contracts';
import { Button, Card, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteOrganization } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';
import { DeleteByNameModal } from '../../../ui/DeleteByNameModal';
import { QueryTable } from '../../../ui/QueryTable';
import { OrgLevelTag } from '../../../shared/labels/OrgLevelTag';
import { isGroupAdmin } from '../../../shared/groups/levels';
import { useGroupOrganizations } from '../../../shared/groups/useGroups';
import { CreateOrganizationModal } from './CreateOrganizationModal';

/** The organizations of a group; administrators create them and delete them by typing the name. */
export function GroupOrganizationsTab({ group }: { group: Group }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const organizations = useGroupOrganizations(group.id);
  const admin = isGroupAdmin(group);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Organization | null>(null);

  const orgPath = (org: Organization) =>
    `/groups/${encodeURIComponent(group.id)}/organizations/${encodeURIComponent(org.id)}`;

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: queryKeys.groups });
    await queryClient.invalidateQueries({ queryKey: queryKeys.permissions });
  }

  const columns: TableColumnsType<Organization> = [
    {
      key: 'name',
      title: t('group.orgName'),
      render: (_, org) => (
        <Space size={6}>
          <Link to={orgPath(org)}>{org.name}</Link>
          {org.isPrivate && <LockOutlined className="yyp-muted" aria-label={t('group.private')} />}
        </Space>
      ),
    },
    {
      key: 'code',
      title: t('group.orgCode'),
      render: (_, org) => (org.code ? <code>{org.code}</code> : <Typography.Text type="secondary">—</Typography.Text>),
    },
    {
      key: 'visibility',
      title: t('org.visibility'),
      render: (_, org) =>
        org.isPrivate ? <Tag color="orange">{t('group.private')}</Tag> : <Tag>{t('group.public')}</Tag>,
    },
    { key: 'members', dataIndex: 'memberCount', title: t('group.memberCount'), align: 'right' },
    {
      key: 'level',
      title: t('group.myOrgLevel'),
      render: (_, org) =>
        org.accessLevel ? (
          <OrgLevelTag level={org.accessLevel} />
        ) : (
          <Typography.Text type="secondary">{t('group.notMember')}</Typography.Text>
        ),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, org) => (
        <Space size={4}>
          <Link to={orgPath(org)}>{t('groups.open')}</Link>
          {admin && (
            <Button
              type="link"
              danger
              size="small"
              icon={<DeleteOutlined />}
              onClick={() => setDeleting(org)}
              aria-label={`${t('common.delete')} ${org.name}`}
            >
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
      title={t('group.tabOrganizations')}
      extra={
        admin && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('group.newOrganization')}
          </Button>
        )
      }
    >
      <QueryTable<Organization>
        query={organizations}
        rowKey="id"
        columns={columns}
        locale={{ emptyText: t('group.noOrganizations') }}
      />
      <CreateOrganizationModal
        groupId={group.id}
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={() => void refresh()}
      />
      <DeleteByNameModal<Organization>
        row={deleting}
        label={t('group.deleteOrganization')}
        description={(name) => t('group.deleteOrganizationDescription', { name })}
        remove={(org) => deleteOrganization(org.id, org.name)}
        deleted={(name) => t('group.orgDeleted', { name })}
        afterDelete={refresh}
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}

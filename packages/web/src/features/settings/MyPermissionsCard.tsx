import { useQuery } from '@tanstack/react-query';
import type { PermissionEntry } from '@yyp/contracts';
import { Card, Empty, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchMyOrganizations } from '../../api/accounts';
import { queryKeys } from '../../api/queryClient';
import { usePermissionsQuery } from '../../shared/permissions/permissions';
import { QueryTable } from '../../ui/QueryTable';
import { useMyGroups } from '../../shared/groups/useGroups';
import { actionLabel, categoryLabel, groupActionsByCategory } from '../../shared/labels/actionLabels';
import { OrgLevelTag } from '../../shared/labels/OrgLevelTag';

/**
 * Read-only: what the user may do in each organization (GET accounts/me/permissions), by level and
 * translated actions. It is asked again on every visit, so a changed role shows after a reload.
 */
export function MyPermissionsCard() {
  const { t } = useTranslation();
  const permissions = usePermissionsQuery({ fresh: true });
  const organizations = useQuery({
    queryKey: queryKeys.organizations,
    queryFn: ({ signal }) => fetchMyOrganizations(signal),
    staleTime: 0,
  });
  const groups = useMyGroups();
  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));
  const groupName = new Map((groups.data ?? []).map((g) => [g.id, g.displayName]));

  const columns: TableColumnsType<PermissionEntry> = [
    {
      key: 'organization',
      title: t('permissions.organization'),
      width: 200,
      render: (_, entry) => (
        <div>
          <Typography.Text strong>{orgName.get(entry.bucketId) ?? entry.bucketId}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{groupName.get(entry.groupId) ?? entry.groupId}</Typography.Text>
        </div>
      ),
    },
    {
      key: 'level',
      title: t('permissions.level'),
      width: 140,
      render: (_, entry) => <OrgLevelTag level={entry.accessLevel} />,
    },
    {
      key: 'actions',
      title: t('permissions.actions'),
      render: (_, entry) =>
        entry.actions.length === 0 ? (
          <Typography.Text type="secondary">{t('permissions.noActions')}</Typography.Text>
        ) : (
          <dl className="yyp-permission-list">
            {groupActionsByCategory(entry.actions).map(({ category, actions }) => (
              <div key={category} className="yyp-permission-list__row">
                <dt>{categoryLabel(t, category)}</dt>
                <dd>
                  {actions.map((action) => (
                    <Tag key={action} title={action}>
                      {actionLabel(t, action)}
                    </Tag>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        ),
    },
  ];

  return (
    <Card variant="borderless" title={t('permissions.title')}>
      <Typography.Paragraph type="secondary">{t('permissions.description')}</Typography.Paragraph>
      <QueryTable<PermissionEntry>
        query={permissions}
        rowKey="bucketId"
        size="small"
        columns={columns}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('permissions.empty')} /> }}
        aria-label={t('permissions.title')}
      />
    </Card>
  );
}

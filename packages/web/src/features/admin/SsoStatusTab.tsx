import { useQuery } from '@tanstack/react-query';
import type { SsoStatusRow } from '@yyp/contracts';
import { Card, Table, Tag, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { fetchSsoStatus } from '../../api/sso';

/**
 * The "Single sign-on" tab of /settings/admin (issue 27): every group's OpenID Connect provider, on
 * or off, whether it creates accounts, and its use (GET admin/sso-providers). Each group's admins
 * configure their provider in the group's settings.
 */
export function SsoStatusTab() {
  const { t } = useTranslation();
  const status = useQuery({ queryKey: ['admin', 'sso-providers'], queryFn: ({ signal }) => fetchSsoStatus(signal) });
  const columns: TableColumnsType<SsoStatusRow> = [
    { key: 'group', title: t('sso.admin.group'), render: (_, r) => r.groupName },
    { key: 'label', title: t('sso.admin.label'), render: (_, r) => r.label },
    {
      key: 'issuer',
      title: t('sso.admin.issuer'),
      render: (_, r) => <Typography.Text code>{r.issuer}</Typography.Text>,
    },
    {
      key: 'status',
      title: t('sso.admin.status'),
      render: (_, r) => (
        <>
          {r.enabled ? <Tag color="green">{t('sso.admin.enabled')}</Tag> : <Tag>{t('sso.admin.disabled')}</Tag>}
          {r.allowCreate && <Tag color="blue">{t('sso.admin.creates')}</Tag>}
        </>
      ),
    },
    { key: 'identities', title: t('sso.admin.identities'), align: 'right', render: (_, r) => r.identities },
    {
      key: 'last',
      title: t('sso.admin.lastLogin'),
      render: (_, r) => (r.lastLoginAt ? dayjs(r.lastLoginAt).format('YYYY-MM-DD HH:mm') : t('sso.admin.never')),
    },
  ];
  return (
    <Card variant="borderless" title={t('sso.admin.tab')}>
      <Typography.Paragraph type="secondary">{t('sso.admin.description')}</Typography.Paragraph>
      <Table<SsoStatusRow>
        rowKey="groupId"
        size="small"
        loading={status.isLoading}
        dataSource={status.data ?? []}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('sso.admin.empty') }}
      />
    </Card>
  );
}

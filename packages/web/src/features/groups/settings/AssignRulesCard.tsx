import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AssignRule } from '../../../api/contractTypes';
import { deleteAssignRule } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../app/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { useAllGroupMembers, useAssignRules, useGroupOrganizations } from '../useGroups';
import { AssignRuleModal } from './AssignRuleModal';

/** Assign rules of a group: which organizations' exams go to which doctor and members. */
export function AssignRulesCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const rules = useAssignRules(groupId);
  const organizations = useGroupOrganizations(groupId);
  const members = useAllGroupMembers(groupId);
  const [editing, setEditing] = useState<AssignRule | 'new' | null>(null);
  const remove = useMutation({ mutationFn: (rule: AssignRule) => deleteAssignRule(groupId, rule.id) });

  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));
  const memberName = new Map((members.data ?? []).map((m) => [m.accountId, m.name]));

  async function handleDelete(rule: AssignRule) {
    try {
      await remove.mutateAsync(rule);
      notify.success(t('assignRules.deleted', { name: rule.name }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.assignRules(groupId) });
    } catch (error) {
      notify.error(error);
    }
  }

  const columns: TableColumnsType<AssignRule> = [
    { key: 'name', dataIndex: 'name', title: t('assignRules.name') },
    {
      key: 'organizations',
      title: t('assignRules.organizations'),
      render: (_, rule) =>
        rule.bucketIds.length === 0 ? (
          <Typography.Text type="secondary">{t('assignRules.anyOrganization')}</Typography.Text>
        ) : (
          rule.bucketIds.map((id) => <Tag key={id}>{orgName.get(id) ?? id}</Tag>)
        ),
    },
    {
      key: 'doctor',
      title: t('assignRules.doctor'),
      render: (_, rule) => (rule.doctorId ? (memberName.get(rule.doctorId) ?? rule.doctorId) : '—'),
    },
    {
      key: 'modality',
      title: t('assignRules.modality'),
      render: (_, rule) => rule.modality ?? <Typography.Text type="secondary">{t('assignRules.any')}</Typography.Text>,
    },
    {
      key: 'members',
      title: t('assignRules.members'),
      render: (_, rule) => rule.memberIds.map((id) => <Tag key={id}>{memberName.get(id) ?? id}</Tag>),
    },
    { key: 'priority', dataIndex: 'priority', title: t('assignRules.priority'), align: 'right' },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, rule) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(rule)}>
            {t('common.edit')}
          </Button>
          <Popconfirm
            title={t('assignRules.deleteConfirm', { name: rule.name })}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => handleDelete(rule)}
          >
            <Button type="link" size="small" danger>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={t('assignRules.title')}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('assignRules.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('assignRules.description')}</Typography.Paragraph>
      {rules.isError && <LoadFailedAlert error={rules.error} onRetry={() => void rules.refetch()} />}
      <Table<AssignRule>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rules.data ?? []}
        loading={rules.isPending}
        pagination={false}
        locale={{ emptyText: t('assignRules.empty') }}
      />
      <AssignRuleModal
        groupId={groupId}
        rule={editing === 'new' ? null : editing}
        open={editing !== null}
        organizations={organizations.data ?? []}
        members={members.data ?? []}
        onClose={() => setEditing(null)}
      />
    </Card>
  );
}

import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ColorRule } from '../../../api/contractTypes';
import { deleteColorRule } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../app/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { isColorMatchField } from '../groupSettings';
import { useColorRules, useGroupOrganizations } from '../useGroups';
import { ColorRuleModal } from './ColorRuleModal';

/** Color rules of the exam list; a lower priority number wins. */
export function ColorRulesCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const rules = useColorRules(groupId);
  const organizations = useGroupOrganizations(groupId);
  const [editing, setEditing] = useState<ColorRule | 'new' | null>(null);
  const remove = useMutation({ mutationFn: (rule: ColorRule) => deleteColorRule(groupId, rule.id) });
  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));
  const sorted = [...(rules.data ?? [])].sort((a, b) => a.priority - b.priority || a.index - b.index);

  async function handleDelete(rule: ColorRule) {
    try {
      await remove.mutateAsync(rule);
      notify.success(t('colorRules.deleted', { name: rule.name }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.colorRules(groupId) });
    } catch (error) {
      notify.error(error);
    }
  }

  const columns: TableColumnsType<ColorRule> = [
    {
      key: 'sample',
      title: t('colorRules.sample'),
      width: 120,
      render: (_, rule) => (
        <span className="yyp-color-sample" style={{ color: rule.foreColor, background: rule.backgroundColor }}>
          {rule.name}
        </span>
      ),
    },
    { key: 'name', dataIndex: 'name', title: t('colorRules.name') },
    {
      key: 'field',
      title: t('colorRules.matchField'),
      render: (_, rule) =>
        isColorMatchField(rule.matchField) ? t(`colorMatchFields.${rule.matchField}`) : rule.matchField,
    },
    {
      key: 'value',
      title: t('colorRules.value'),
      render: (_, rule) => (rule.matchField === 'bucketId' ? (orgName.get(rule.value) ?? rule.value) : rule.value),
    },
    { key: 'priority', dataIndex: 'priority', title: t('colorRules.priority'), align: 'right' },
    { key: 'index', dataIndex: 'index', title: t('colorRules.index'), align: 'right' },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, rule) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(rule)}>
            {t('common.edit')}
          </Button>
          <Popconfirm
            title={t('colorRules.deleteConfirm', { name: rule.name })}
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
      title={t('colorRules.title')}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('colorRules.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('colorRules.description')}</Typography.Paragraph>
      {rules.isError && <LoadFailedAlert error={rules.error} onRetry={() => void rules.refetch()} />}
      <Table<ColorRule>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={sorted}
        loading={rules.isPending}
        pagination={false}
        locale={{ emptyText: t('colorRules.empty') }}
      />
      <ColorRuleModal
        groupId={groupId}
        rule={editing === 'new' ? null : editing}
        open={editing !== null}
        organizations={organizations.data ?? []}
        onClose={() => setEditing(null)}
      />
    </Card>
  );
}

import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReportStatus, ReportTableColor } from '@yyp/contracts';
import { Button, Card, Popconfirm, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteReportTableColor } from '../../../api/reportSafety';
import { useNotify } from '../../../app/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { ReportStatusTag } from '../../reports/ReportStatusTag';
import { useStudyLabels } from '../../studies/labels';
import { studyKeys } from '../../studies/useStudies';
import { ReportTableColorModal } from './ReportTableColorModal';
import { isReportColorField, reportTableColorsKey, useReportTableColors } from './useReportTableColors';

/**
 * Report table colours (spec 001 §7 report-table-color): the colours of the report status in the
 * study list and the worklist; the first matching colour, lower priority first, wins.
 */
export function ReportTableColorsCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const labels = useStudyLabels();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const colors = useReportTableColors(groupId);
  const [editing, setEditing] = useState<ReportTableColor | 'new' | null>(null);
  const remove = useMutation({ mutationFn: (color: ReportTableColor) => deleteReportTableColor(color.id) });

  async function handleDelete(color: ReportTableColor) {
    try {
      await remove.mutateAsync(color);
      notify.success(t('reportColors.deleted', { name: color.name }));
      await queryClient.invalidateQueries({ queryKey: reportTableColorsKey(groupId) });
      await queryClient.invalidateQueries({ queryKey: studyKeys.all, refetchType: 'none' });
    } catch (error) {
      notify.error(error);
    }
  }

  function matches(color: ReportTableColor): string {
    if (color.field === 'status') {
      return `${t('reportColors.fields.status')} = ${labels.status(color.value)}`;
    }
    const field = isReportColorField(color.field) ? t(`reportColors.fields.${color.field}`) : color.field;
    const flag =
      color.value === 'true' || color.value === 'false' ? t(`reportColors.flag.${color.value}`) : color.value;
    return `${field} = ${flag}`;
  }

  const columns: TableColumnsType<ReportTableColor> = [
    {
      key: 'sample',
      title: t('reportColors.sample'),
      width: 120,
      render: (_, color) => (
        <ReportStatusTag
          status={color.field === 'status' ? (color.value as ReportStatus) : 'corrected'}
          reportColor={color}
        />
      ),
    },
    { key: 'name', dataIndex: 'name', title: t('reportColors.name') },
    { key: 'matches', title: t('reportColors.matches'), render: (_, color) => matches(color) },
    { key: 'priority', dataIndex: 'priority', title: t('reportColors.priority'), align: 'right' },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, color) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(color)}>
            {t('common.edit')}
          </Button>
          <Popconfirm
            title={t('reportColors.deleteConfirm', { name: color.name })}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => handleDelete(color)}
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
      title={t('reportColors.title')}
      data-testid="report-colors-card"
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('reportColors.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('reportColors.description')}</Typography.Paragraph>
      {colors.isError && <LoadFailedAlert error={colors.error} onRetry={() => void colors.refetch()} />}
      <Table<ReportTableColor>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={colors.data?.items ?? []}
        loading={colors.isPending}
        pagination={false}
        locale={{ emptyText: t('reportColors.empty') }}
      />
      <ReportTableColorModal
        groupId={groupId}
        color={editing === 'new' ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
    </Card>
  );
}

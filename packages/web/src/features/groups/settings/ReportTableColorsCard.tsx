import { useQueryClient } from '@tanstack/react-query';
import type { ReportStatus, ReportTableColor } from '@yyp/contracts';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { deleteReportTableColor } from '../../../api/reportSafety';
import { ReportStatusTag } from '../../../shared/labels/ReportStatusTag';
import { useStudyLabels } from '../../../shared/labels/studyLabels';
import { studyKeys } from '../../../shared/queries/studyQueries';
import { RuleTableCard } from '../../../shared/rules/RuleTableCard';
import { ReportTableColorModal } from './ReportTableColorModal';
import { isReportColorField, reportTableColorsKey, useReportTableColors } from './useReportTableColors';
import { ruleTableTexts } from './ruleTableTexts';

/**
 * Report table colours (spec 001 §7 report-table-color): the colours of the report status in the
 * study list and the worklist; the first matching colour, lower priority first, wins.
 */
export function ReportTableColorsCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const labels = useStudyLabels();
  const queryClient = useQueryClient();
  const colors = useReportTableColors(groupId);

  async function afterDelete() {
    await queryClient.invalidateQueries({ queryKey: reportTableColorsKey(groupId) });
    await queryClient.invalidateQueries({ queryKey: studyKeys.all, refetchType: 'none' });
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
  ];

  return (
    <RuleTableCard<ReportTableColor>
      texts={ruleTableTexts(t, 'reportColors')}
      testId="report-colors-card"
      columns={columns}
      rows={colors.data?.items ?? []}
      query={colors}
      remove={(color) => deleteReportTableColor(color.id)}
      afterDelete={afterDelete}
      editor={({ rule, open, onClose }) => (
        <ReportTableColorModal groupId={groupId} color={rule} open={open} onClose={onClose} />
      )}
    />
  );
}

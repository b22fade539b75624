import type { ReportStatus } from '@yyp/contracts';
import { Tag } from 'antd';
import { useStudyLabels } from '../studies/labels';

/** The colour of each report status, in the study list and the editor alike. */
export const REPORT_STATUS_COLOR: Record<ReportStatus, string> = {
  none: 'default',
  locked: 'processing',
  partial: 'gold',
  final: 'blue',
  hold: 'red',
  cancelled: 'volcano',
  advised: 'purple',
  printed: 'cyan',
  corrected: 'green',
  preliminary: 'orange',
};

/** A report status as the study list names and colours it. */
export function ReportStatusTag({ status }: { status: ReportStatus }) {
  const labels = useStudyLabels();
  return (
    <Tag color={REPORT_STATUS_COLOR[status]} data-testid="report-status">
      {labels.status(status)}
    </Tag>
  );
}

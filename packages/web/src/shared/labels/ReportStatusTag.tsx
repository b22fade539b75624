import type { ReportColor, ReportStatus } from '@yyp/contracts';
import { Tag } from 'antd';
import type { CSSProperties } from 'react';
import { useStudyLabels } from './studyLabels';

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

/** A group's report table colour as a tag's style; '' keeps that part of the default look. */
export function reportColorStyle(color: ReportColor | null | undefined): CSSProperties | undefined {
  if (!color || (!color.color && !color.background)) {
    return undefined;
  }
  return {
    ...(color.color ? { color: color.color } : {}),
    ...(color.background ? { background: color.background, borderColor: color.background } : {}),
  };
}

/**
 * A report status as the study list names and colours it: in the group's report table colour
 * (reportColor, from the server) when one matches, otherwise in the status's own colour.
 */
export function ReportStatusTag({ status, reportColor }: { status: ReportStatus; reportColor?: ReportColor | null }) {
  const labels = useStudyLabels();
  const style = reportColorStyle(reportColor);
  return (
    <Tag
      color={style ? undefined : REPORT_STATUS_COLOR[status]}
      style={style}
      data-testid="report-status"
      data-report-color={style ? 'group' : undefined}
    >
      {labels.status(status)}
    </Tag>
  );
}

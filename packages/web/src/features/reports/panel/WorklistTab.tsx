import type { WorklistItem } from '@yyp/contracts';
import { Empty, List, Tag, Typography } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { useStudyLabels } from '../../../shared/labels/studyLabels';
import { ReportStatusTag } from '../../../shared/labels/ReportStatusTag';

interface WorklistTabProps {
  worklist: UseQueryResult<WorklistItem[]>;
  currentExamId: string;
  onOpen: (examId: string) => void;
}

/** The next exams to read; a click opens one without going back to the list. */
export function WorklistTab({ worklist, currentExamId, onOpen }: WorklistTabProps) {
  const { t, personName } = useStudyLabels();
  if (worklist.isError) {
    return <LoadFailedAlert error={worklist.error} onRetry={() => void worklist.refetch()} />;
  }
  const items = (worklist.data ?? []).filter((item) => item.examId !== currentExamId);
  if (worklist.data && items.length === 0) {
    return <Empty description={t('report.worklist.empty')} />;
  }
  return (
    <>
      <Typography.Paragraph type="secondary">{t('report.worklist.hint')}</Typography.Paragraph>
      <List
        size="small"
        loading={worklist.isPending}
        dataSource={items}
        rowKey="examId"
        renderItem={(item) => (
          <List.Item className="yyp-report__work-item">
            <button type="button" className="yyp-report__work-button" onClick={() => onOpen(item.examId)}>
              <span className="yyp-report__work-name">
                {item.urgent && <Tag color="red">{t('report.header.urgent')}</Tag>}
                {personName(item.patientName)}
              </span>
              <span className="yyp-report__work-meta">
                {item.modality.replace(/\\/g, '/')} {item.bodyPart} · {formatDay(item.studyDate)}
              </span>
              <ReportStatusTag status={item.reportStatus} reportColor={item.reportColor} />
            </button>
          </List.Item>
        )}
      />
    </>
  );
}

function formatDay(date: string): string {
  return /^\d{8}$/.test(date) ? `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}` : date;
}

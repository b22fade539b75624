import { useQuery } from '@tanstack/react-query';
import type { ExamItem } from '@yyp/contracts';
import { Button, Empty, List, Spin, Typography } from 'antd';
import { useState } from 'react';
import { fetchReport } from '../../../api/reports';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { formatStudyTime } from '../../../shared/format/dates';
import { useStudyLabels } from '../../../shared/labels/studyLabels';
import { usePastExams } from '../../../shared/queries/studyQueries';
import { ReportStatusTag } from '../../../shared/labels/ReportStatusTag';

/** The patient's other exams, each with its report text, read-only. */
export function HistoryTab({ examId }: { examId: string }) {
  const { t } = useStudyLabels();
  const past = usePastExams(examId);
  if (past.isError) {
    return <LoadFailedAlert error={past.error} onRetry={() => void past.refetch()} />;
  }
  if (past.data && past.data.exams.length === 0) {
    return <Empty description={t('report.history.empty')} />;
  }
  return (
    <List
      size="small"
      loading={past.isPending}
      dataSource={past.data?.exams ?? []}
      rowKey="id"
      renderItem={(exam) => <PastExam exam={exam} />}
    />
  );
}

function PastExam({ exam }: { exam: ExamItem }) {
  const { t } = useStudyLabels();
  const [open, setOpen] = useState(false);
  const hasReport = exam.reportStatus !== 'none';
  return (
    <List.Item className="yyp-report__past">
      <div className="yyp-report__past-head">
        <span>
          {formatStudyTime(exam.studyDate, exam.studyTime, exam.created)} · {exam.modality.replace(/\\/g, '/')}{' '}
          {exam.bodyPart || exam.studyDesc}
        </span>
        <ReportStatusTag status={exam.reportStatus} reportColor={exam.reportColor} />
      </div>
      {hasReport ? (
        <Button type="link" size="small" className="yyp-report__past-toggle" onClick={() => setOpen((o) => !o)}>
          {open ? t('report.history.hide') : t('report.history.show')}
        </Button>
      ) : (
        <Typography.Text type="secondary">{t('report.history.noReport')}</Typography.Text>
      )}
      {open && <PastReport examId={exam.id} />}
    </List.Item>
  );
}

function PastReport({ examId }: { examId: string }) {
  const { t } = useStudyLabels();
  const report = useQuery({
    queryKey: ['reports', examId, 'past-view'],
    queryFn: ({ signal }) => fetchReport(examId, signal),
  });
  if (report.isPending) {
    return <Spin size="small" />;
  }
  if (report.isError) {
    return <LoadFailedAlert error={report.error} onRetry={() => void report.refetch()} />;
  }
  const { findings, conclusion } = report.data.content;
  return (
    <div className="yyp-report__past-text">
      <Typography.Text type="secondary">{t('report.fields.findings')}</Typography.Text>
      <pre className="yyp-report__pre">{findings}</pre>
      <Typography.Text type="secondary">{t('report.fields.conclusion')}</Typography.Text>
      <pre className="yyp-report__pre">{conclusion}</pre>
    </div>
  );
}

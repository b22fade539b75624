import { useQuery } from '@tanstack/react-query';
import type { PublishedCoExam, PublishedPastExam } from '@yyp/contracts';
import { Button, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { hasCode } from '../../api/errors';
import { fetchCoExams, fetchPastExams, fetchSharedReport } from './sharingApi';
import { formatStudyDate } from '../../shared/format/dates';
import { SharedReportBody, SharedReportFrame, SharedReportLoading, SharedReportProblem } from './SharedReportFrame';

/**
 * /reports/s?link=… (spec 000 §2): the report a share or publish link opens, for anyone holding
 * the link. examId opens another report the same link reaches (a published past report).
 */
export function SharedReportPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const link = params.get('link') ?? '';
  const examId = params.get('examId') ?? undefined;
  const query = useQuery({
    queryKey: ['share', 'report', link, examId ?? ''],
    queryFn: ({ signal }) => fetchSharedReport(link, examId, signal),
    retry: false,
  });
  const view = query.data;
  const related = Boolean(view && view.state !== 'withdrawn');
  const coExams = useQuery({
    queryKey: ['share', 'co-exams', link, view?.examId ?? ''],
    queryFn: () => fetchCoExams(view!.examId, link),
    enabled: related,
  });
  const pastExams = useQuery({
    queryKey: ['share', 'past-exams', link, view?.examId ?? ''],
    queryFn: () => fetchPastExams(view!.examId, link),
    enabled: related && !examId,
  });

  function handleOpen(next?: string) {
    setParams(next ? { link, examId: next } : { link });
  }

  let body;
  if (query.isPending) {
    body = <SharedReportLoading />;
  } else if (query.isError) {
    body = hasCode(query.error, 'LinkInvalid') ? (
      <SharedReportProblem title={t('sharing.page.invalidTitle')} hint={t('sharing.page.invalidHint')} />
    ) : (
      <SharedReportProblem
        title={t('sharing.page.failed')}
        hint=""
        extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
      />
    );
  } else {
    body = (
      <SharedReportBody view={query.data}>
        {examId && (
          <Button type="link" onClick={() => handleOpen()}>
            {t('sharing.page.back')}
          </Button>
        )}
        <ExamList title={t('sharing.page.coExams')} exams={coExams.data ?? []} />
        <ExamList title={t('sharing.page.pastExams')} exams={pastExams.data ?? []} onOpen={handleOpen} />
      </SharedReportBody>
    );
  }
  return <SharedReportFrame>{body}</SharedReportFrame>;
}

function ExamList({
  title,
  exams,
  onOpen,
}: {
  title: string;
  exams: (PublishedCoExam | PublishedPastExam)[];
  onOpen?: (examId: string) => void;
}) {
  const { t } = useTranslation();
  if (exams.length === 0) {
    return null;
  }
  return (
    <section className="yyp-shared-page__related">
      <Typography.Title level={5}>{title}</Typography.Title>
      <List
        size="small"
        bordered
        dataSource={exams}
        renderItem={(exam) => (
          <List.Item
            actions={
              onOpen
                ? [
                    <Button key="open" type="link" onClick={() => onOpen(exam.examId)}>
                      {t('sharing.page.open')}
                    </Button>,
                  ]
                : []
            }
          >
            {[formatStudyDate(exam.studyDate), exam.modality, exam.bodyPart, exam.studyDescription]
              .filter(Boolean)
              .join(' · ')}
          </List.Item>
        )}
      />
    </section>
  );
}

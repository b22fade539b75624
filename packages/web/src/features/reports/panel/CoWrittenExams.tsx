import { useQuery } from '@tanstack/react-query';
import { Descriptions, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchCoExams } from '../../../api/exams';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { formatStudyTime } from '../../../shared/format/dates';
import { studyKeys } from '../../../shared/queries/studyQueries';

/** The other exams written in this report (co-written), as an info row; nothing when alone. */
export function CoWrittenExams({ examId, examIds }: { examId: string; examIds: readonly string[] }) {
  const { t } = useTranslation();
  const co = useQuery({
    queryKey: studyKeys.coExams(examId),
    queryFn: ({ signal }) => fetchCoExams(examId, signal),
    enabled: examIds.length > 1,
  });
  if (examIds.length <= 1) {
    return null;
  }
  const others = (co.data?.exams ?? []).filter((e) => e.id !== examId);
  return (
    <Descriptions size="small" column={1} bordered>
      <Descriptions.Item label={t('report.combine.coExams')}>
        {co.isError ? (
          <LoadFailedAlert error={co.error} onRetry={() => void co.refetch()} />
        ) : co.isPending ? (
          <Spin size="small" />
        ) : (
          <ul className="yyp-report__co-exams" data-testid="co-exams">
            {others.map((e) => (
              <li key={e.id}>
                {e.modality.replace(/\\/g, '/')} {e.bodyPart || e.studyDesc}
                <span className="yyp-report__co-exam-time">{formatStudyTime(e.studyDate, e.studyTime, e.created)}</span>
              </li>
            ))}
          </ul>
        )}
      </Descriptions.Item>
    </Descriptions>
  );
}

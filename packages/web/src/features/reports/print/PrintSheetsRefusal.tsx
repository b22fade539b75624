import { useQueries } from '@tanstack/react-query';
import type { ExamDetail } from '@yyp/contracts';
import { Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchExamDetail } from '../../../api/exams';
import { formatStudyDate } from '../../../shared/format/dates';
import { studyKeys } from '../../../shared/queries/studyQueries';
import type { SheetsRefusal } from '../../../shared/print/printSheets';
import { usePersonName } from '../../../ui/usePersonName';

/**
 * Why the chosen exams do not print together, said plainly: which exams are on which day (or in
 * which organization), each named by patient, modality and accession number.
 */
export function PrintSheetsRefusal({ refusal }: { refusal: SheetsRefusal }) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const examIds = refusal.groups.flatMap((g) => g.examIds);
  const details = useQueries({
    queries: examIds.map((id) => ({
      queryKey: studyKeys.detail(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchExamDetail(id, signal),
      retry: false,
    })),
  });
  const byId = new Map<string, ExamDetail>();
  const loading = new Set<string>();
  details.forEach((q, i) => {
    if (q.data) {
      byId.set(examIds[i]!, q.data);
    } else if (q.isPending) {
      loading.add(examIds[i]!);
    }
  });
  const sameDay = refusal.problem === 'notSameDay';

  const groupTitle = (key: string, ids: string[]) => {
    if (sameDay) {
      return key ? formatStudyDate(key) : t('printSheets.unknownDay');
    }
    return ids.map((id) => byId.get(id)?.bucketName).find(Boolean) ?? key;
  };
  const examLabel = (id: string) => {
    const e = byId.get(id);
    if (!e) {
      // Named by its id only when its details cannot be read.
      return loading.has(id) ? '…' : id;
    }
    return [
      personName(e.patientName) || e.patientId,
      e.modality.replace(/\\/g, '/'),
      e.bodyPart || e.studyDesc,
      e.accessionNumber,
    ]
      .filter(Boolean)
      .join(' · ');
  };

  return (
    <Result
      status="warning"
      className="yyp-print__refusal"
      data-testid="print-sheets-refused"
      data-problem={refusal.problem}
      title={sameDay ? t('printSheets.notSameDayTitle') : t('printSheets.differentOrganizationsTitle')}
      subTitle={t('printSheets.chooseAgain')}
    >
      <Typography.Paragraph>
        {sameDay ? t('printSheets.notSameDayHint') : t('printSheets.differentOrganizationsHint')}
      </Typography.Paragraph>
      {refusal.groups.map((g) => (
        <div key={g.key} className="yyp-print__refusal-group" data-testid="print-sheets-group">
          <Typography.Text strong>{groupTitle(g.key, g.examIds)}</Typography.Text>
          <ul>
            {g.examIds.map((id) => (
              <li key={id} data-exam-id={id}>
                {examLabel(id)}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Result>
  );
}

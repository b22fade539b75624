import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PRINT_SHEETS_MAX } from '@yyp/contracts';
import { Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useNotify } from '../../../shared/notify/useNotify';
import { fetchPrintSheets, invalidatePrinted, updatePrintTime } from './printApi';
import { PrintDocument } from './PrintDocument';
import { sheetExamIds, sheetsRefusal, tooManySheets } from '../../../shared/print/printSheets';
import { PrintSheetsRefusal } from './PrintSheetsRefusal';

/**
 * /studies/print-sheets?examIds=a,b — printing sheets (spec 000 §5): the approved reports of exams
 * chosen in the study list, of one organization and one study day, as one print document with
 * each report on its own page; each print is recorded as the single report's print page does.
 */
export function PrintSheetsPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const examIds = sheetExamIds(search);
  const valid = examIds.length > 0 && !tooManySheets(examIds);

  const view = useQuery({
    queryKey: ['reports', 'print-sheets', examIds] as const,
    queryFn: () => fetchPrintSheets(examIds),
    enabled: valid,
    retry: false,
  });
  const reportIds = view.data?.reports.map((r) => r.reportId) ?? [];
  const record = useMutation({
    mutationFn: async () => {
      for (const id of reportIds) {
        await updatePrintTime(id);
      }
    },
    onSuccess: () => {
      notify.success(t('printSheets.recorded', { count: reportIds.length }));
      invalidatePrinted(queryClient, reportIds);
      void queryClient.invalidateQueries({ queryKey: ['reports', 'print-sheets'] });
    },
    onError: notify.error,
  });

  const handleBack = () => void navigate('/studies');
  const invalid = valid ? null : (
    <Result
      status="info"
      data-testid="print-sheets-invalid"
      title={examIds.length === 0 ? t('printSheets.noExams') : t('printSheets.tooMany', { max: PRINT_SHEETS_MAX })}
    />
  );

  return (
    <PrintDocument
      view={view.data}
      error={view.error}
      onRetry={() => void view.refetch()}
      backLabel={t('printSheets.back')}
      onBack={handleBack}
      onPrinted={() => record.mutate()}
      recording={record.isPending}
      actions={
        view.data && (
          <Typography.Text type="secondary" data-testid="print-sheets-count">
            {t('printSheets.count', { count: view.data.reports.length })}
          </Typography.Text>
        )
      }
      refusal={invalid}
      renderError={(error) => {
        const refusal = sheetsRefusal(error, examIds);
        return refusal && <PrintSheetsRefusal refusal={refusal} />;
      }}
    />
  );
}

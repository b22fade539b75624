import { FilePdfOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useNotify } from '../../../shared/notify/useNotify';
import { currentLanguage } from '../../../i18n';
import { saveBlob } from '../../../ui/saveBlob';
import { fetchPrintView, fetchReportPdf, invalidatePrinted, printKeys, updatePrintTime } from './printApi';
import { pdfFileName } from './printing';
import { PrintDocument } from './PrintDocument';

/** /studies/:examId/reports/:reportId/print — `?auto=1` prints at once; `&recorded=1` after approve-and-print. */
export function PrintRoute() {
  const { examId = '', reportId = '' } = useParams();
  const [search] = useSearchParams();
  return (
    <PrintPage
      key={reportId}
      examId={examId}
      reportId={reportId}
      auto={search.get('auto') === '1'}
      recorded={search.get('recorded') === '1'}
    />
  );
}

/**
 * The print page of a report (spec 000 §3 print templates): the report as the organization's
 * template lays it out, the browser's print, then the print recorded (update-print-time: printed
 * status once approved), and the server's PDF of an approved report.
 */
export function PrintPage(props: { examId: string; reportId: string; auto: boolean; recorded: boolean }) {
  const { examId, reportId } = props;
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const view = useQuery({
    queryKey: printKeys.view(reportId),
    queryFn: ({ signal }) => fetchPrintView(reportId, signal),
    retry: false,
  });
  const record = useMutation({
    mutationFn: () => updatePrintTime(reportId),
    onSuccess: () => {
      notify.success(t('reportPrint.page.recorded'));
      invalidatePrinted(queryClient, [reportId]);
    },
    onError: notify.error,
  });
  const pdf = useMutation({
    mutationFn: () => fetchReportPdf(reportId, currentLanguage()),
    onSuccess: (blob) => saveBlob(blob, pdfFileName(view.data?.reports[0]?.exam.accessionNumber ?? '', reportId)),
    onError: notify.error,
  });

  const handleBack = () =>
    void navigate(`/studies/${encodeURIComponent(examId)}/reports/${encodeURIComponent(reportId)}`);
  const report = view.data?.reports[0];

  return (
    <PrintDocument
      view={view.data}
      error={view.error}
      onRetry={() => void view.refetch()}
      backLabel={t('reportPrint.page.back')}
      onBack={handleBack}
      onPrinted={() => record.mutate()}
      recording={record.isPending}
      auto={props.auto ? { record: !props.recorded } : null}
      actions={
        <>
          {report?.approved && (
            <Button icon={<FilePdfOutlined />} loading={pdf.isPending} onClick={() => pdf.mutate()}>
              {t('reportPrint.page.download')}
            </Button>
          )}
          {report?.isPrinted && <Tag color="green">{t('reportPrint.page.printed')}</Tag>}
        </>
      }
    />
  );
}

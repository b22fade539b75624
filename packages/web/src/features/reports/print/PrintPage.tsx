import { ArrowLeftOutlined, FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Result, Skeleton, Space, Tag } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { hasCode } from '../../../api/errors';
import { errorMessage } from '../../../api/errorMessage';
import { useNotify } from '../../../app/useNotify';
import { currentLanguage } from '../../../i18n';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { saveBlob } from '../../studies/useExportExams';
import { studyKeys } from '../../studies/useStudies';
import { reportKeys } from '../useReportEditor';
import { fetchPrintView, fetchReportPdf, printKeys, updatePrintTime } from './printApi';
import { pdfFileName, whenImagesLoaded } from './printing';
import { PrintSheet } from './PrintSheet';
import './print.css';

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
 * template lays it out, a toolbar hidden on paper, the browser's print, then the print recorded
 * (update-print-time: printed status once approved).
 */
export function PrintPage(props: { examId: string; reportId: string; auto: boolean; recorded: boolean }) {
  const { examId, reportId } = props;
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sheet = useRef<HTMLDivElement>(null);
  const autoDone = useRef(false);

  const view = useQuery({
    queryKey: printKeys.view(reportId),
    queryFn: ({ signal }) => fetchPrintView(reportId, signal),
    retry: false,
  });
  const record = useMutation({
    mutationFn: () => updatePrintTime(reportId),
    onSuccess: () => {
      notify.success(t('reportPrint.page.recorded'));
      void queryClient.invalidateQueries({ queryKey: printKeys.view(reportId) });
      void queryClient.invalidateQueries({ queryKey: reportKeys.detail(reportId) });
      void queryClient.invalidateQueries({ queryKey: reportKeys.trace(reportId) });
      void queryClient.invalidateQueries({ queryKey: studyKeys.all });
    },
    onError: notify.error,
  });
  const pdf = useMutation({
    mutationFn: () => fetchReportPdf(reportId, currentLanguage()),
    onSuccess: (blob) => saveBlob(blob, pdfFileName(view.data?.reports[0]?.exam.accessionNumber ?? '', reportId)),
    onError: notify.error,
  });

  async function handlePrint(recordIt = true) {
    if (sheet.current) {
      await whenImagesLoaded(sheet.current);
    }
    window.print();
    if (recordIt) {
      record.mutate();
    }
  }

  // `?auto=1` prints once, when the view first arrives (a ref, so a refetch does not print again).
  const printOnce = useRef(handlePrint);
  printOnce.current = handlePrint;
  useEffect(() => {
    if (props.auto && view.data && !autoDone.current) {
      autoDone.current = true;
      void printOnce.current(!props.recorded);
    }
  }, [props.auto, props.recorded, view.data]);

  const handleBack = () =>
    void navigate(`/studies/${encodeURIComponent(examId)}/reports/${encodeURIComponent(reportId)}`);

  const toolbar = (
    <div className="yyp-print__toolbar">
      <Space wrap>
        <Button icon={<ArrowLeftOutlined />} onClick={handleBack}>
          {t('reportPrint.page.back')}
        </Button>
        {view.data && (
          <Button
            type="primary"
            icon={<PrinterOutlined />}
            loading={record.isPending}
            onClick={() => void handlePrint()}
            data-testid="print-button"
          >
            {t('reportPrint.page.print')}
          </Button>
        )}
        {view.data?.reports[0]?.approved && (
          <Button icon={<FilePdfOutlined />} loading={pdf.isPending} onClick={() => pdf.mutate()}>
            {t('reportPrint.page.download')}
          </Button>
        )}
        {view.data?.reports[0]?.isPrinted && <Tag color="green">{t('reportPrint.page.printed')}</Tag>}
      </Space>
    </div>
  );

  if (view.isError) {
    return (
      <div className="yyp-print">
        {toolbar}
        {hasCode(view.error, 'NoPrintTemplate') ? (
          <Result
            status="warning"
            title={errorMessage(t, view.error)}
            subTitle={t('reportPrint.page.noTemplate')}
            data-testid="no-print-template"
          />
        ) : (
          <LoadFailedAlert error={view.error} onRetry={() => void view.refetch()} />
        )}
      </div>
    );
  }
  return (
    <div className="yyp-print">
      {toolbar}
      {view.data?.masked && (
        <Alert className="yyp-print__notice" type="info" showIcon title={t('reportPrint.page.masked')} />
      )}
      <div ref={sheet}>
        {view.data ? <PrintSheet view={view.data} /> : <Skeleton active paragraph={{ rows: 14 }} />}
      </div>
    </div>
  );
}

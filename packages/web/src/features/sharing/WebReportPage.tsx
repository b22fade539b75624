import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { hasCode } from '../../api/errors';
import { webQuery } from './format';
import {
  openSharedImages,
  SharedReportBody,
  SharedReportFrame,
  SharedReportLoading,
  SharedReportProblem,
} from './SharedReportFrame';
import { fetchWebReport } from './sharingApi';

/**
 * /web-report?groupId&patientId&serviceRequestId&expires&timestamp&openImage&showExtra&signature
 * (/web redirects here with the same query, spec 000 §2): a hospital information system's signed
 * link to a patient's approved report. The query goes to the server exactly as sent; the server
 * checks the signature. With openImage the images open too.
 */
export function WebReportPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const query = webQuery(params);
  const openImage = query.openImage === '1' || query.openImage === 'true';
  const report = useQuery({
    queryKey: ['web-report', query],
    queryFn: ({ signal }) => fetchWebReport(query, signal),
    retry: false,
  });
  const opened = useRef(false);

  useEffect(() => {
    if (openImage && report.data?.viewerPath && !opened.current) {
      opened.current = true;
      openSharedImages(report.data);
    }
  }, [openImage, report.data]);

  let body;
  if (report.isPending) {
    body = <SharedReportLoading />;
  } else if (report.isError) {
    if (hasCode(report.error, 'LinkInvalid') || hasCode(report.error, 'ValidationError')) {
      body = <SharedReportProblem title={t('sharing.page.webInvalidTitle')} hint={t('sharing.page.webInvalidHint')} />;
    } else if (hasCode(report.error, 'NotFound')) {
      body = <SharedReportProblem title={t('sharing.page.notFoundTitle')} hint={t('sharing.page.notFoundHint')} />;
    } else {
      body = (
        <SharedReportProblem
          title={t('sharing.page.failed')}
          hint=""
          extra={<Button onClick={() => void report.refetch()}>{t('common.retry')}</Button>}
        />
      );
    }
  } else {
    body = <SharedReportBody view={report.data} />;
  }
  return <SharedReportFrame>{body}</SharedReportFrame>;
}

import { ArrowLeftOutlined, SendOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { ShareLinkCreated } from '@yyp/contracts';
import { Button, Card, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { SharedReportView } from './SharedReportView';
import { CreatedLink, LinkList } from './ShareLinks';
import { fetchPublishDetail } from './sharingApi';
import { usePublishReport } from './usePublishReport';
import './sharing.css';

/**
 * /report-publish/detail?examId&reportId (spec 000 §2): a published report as its publish link
 * shows it now (masked as the caller's rights say), its links, and publishing it again. Only callers
 * holding order_report_publish get here (the server refuses the rest), so the button is theirs.
 */
export function ReportPublishDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const examId = params.get('examId') ?? '';
  const reportId = params.get('reportId') ?? examId;
  const [created, setCreated] = useState<ShareLinkCreated | null>(null);
  const query = useQuery({
    queryKey: ['report-publish', 'detail', examId, reportId],
    queryFn: ({ signal }) => fetchPublishDetail(examId, reportId, signal),
  });
  const publish = usePublishReport(examId, { onLink: setCreated, onAnswered: () => query.refetch() });

  const back = (
    <Link to="/report-publish">
      <ArrowLeftOutlined /> {t('sharing.publish.back')}
    </Link>
  );

  if (query.isError) {
    return (
      <div className="yyp-page">
        {back}
        <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  if (query.isPending) {
    return (
      <div className="yyp-page">
        <Skeleton active paragraph={{ rows: 10 }} />
      </div>
    );
  }
  const { report, links } = query.data;
  return (
    <div className="yyp-page">
      <PageHeading
        title={t('sharing.publish.detailTitle')}
        description={back}
        extra={
          <Space>
            <Button
              type="primary"
              icon={<SendOutlined />}
              loading={publish.isPending}
              disabled={report.state === 'withdrawn'}
              onClick={() => publish.mutate()}
            >
              {t('sharing.publish.again')}
            </Button>
          </Space>
        }
      />
      <div className="yyp-publish__detail">
        <SharedReportView view={report} />
        <Card variant="borderless" className="yyp-publish__links">
          {created && <CreatedLink link={created} />}
          <LinkList reportId={reportId} links={links} loading={false} onChanged={() => void query.refetch()} />
        </Card>
      </div>
    </div>
  );
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  PUBLISH_PAGE_DEFAULT,
  type PublishedReportRow,
  type PublishFilter,
  type PublishPageQuery,
} from '@yyp/contracts';
import { Card, Input, Select, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { useStudyLabels } from '../../shared/labels/studyLabels';
import { formatStudyDate, formatTime } from '../../shared/format/dates';
import { fetchPublishPage } from './sharingApi';
import './sharing.css';
import { usePersonName } from '../../ui/usePersonName';

const STATES = ['live', 'expired', 'revoked', 'superseded'] as const;
type StateFilter = (typeof STATES)[number] | '';
const STATE_COLORS: Record<PublishedReportRow['state'], string> = { live: 'green', expired: 'default', revoked: 'red' };

/** /report-publish (spec 000 §2): the reports the caller's organizations published, newest first. */
export function ReportPublishPage() {
  const { t } = useTranslation();
  const personName = usePersonName();
  const labels = useStudyLabels();
  const [name, setName] = useState('');
  const [state, setState] = useState<StateFilter>('');
  const [page, setPage] = useState({ current: 1, pageSize: PUBLISH_PAGE_DEFAULT });
  const filters: PublishFilter[] = [
    ...(name ? [{ field: 'patientName' as const, values: [name] }] : []),
    ...(state ? [{ field: 'state' as const, values: [state] }] : []),
  ];
  const body: PublishPageQuery = { skip: (page.current - 1) * page.pageSize, limit: page.pageSize, filters };
  const query = useQuery({
    queryKey: ['report-publish', 'page', body],
    queryFn: ({ signal }) => fetchPublishPage(body, signal),
    placeholderData: keepPreviousData,
  });

  const columns: TableColumnsType<PublishedReportRow> = [
    {
      key: 'patient',
      title: t('sharing.publish.col.patient'),
      render: (_, r) => (
        <Space size={6}>
          <strong>{personName(r.patientName)}</strong>
          <span>{labels.gender(r.patientSex)}</span>
          <span>{labels.age(r.patientAge || null)}</span>
        </Space>
      ),
    },
    {
      key: 'exam',
      title: t('sharing.publish.col.exam'),
      render: (_, r) => [r.modality, r.bodyPart, formatStudyDate(r.studyDate)].filter(Boolean).join(' · '),
    },
    { key: 'accession', dataIndex: 'accessionNumber', title: t('sharing.page.accession') },
    { key: 'bucket', dataIndex: 'bucketName', title: t('sharing.publish.col.organization') },
    {
      key: 'state',
      title: t('sharing.publish.col.state'),
      render: (_, r) => (
        <Space size={4} wrap>
          <Tag color={STATE_COLORS[r.state]}>{t(`sharing.share.state.${r.state}`)}</Tag>
          {r.superseded && <Tag color="orange">{t('sharing.share.superseded')}</Tag>}
        </Space>
      ),
    },
    {
      key: 'published',
      title: t('sharing.publish.col.published'),
      render: (_, r) => `${formatTime(r.publishedAt)} · ${r.publishedBy}`,
    },
    { key: 'expires', title: t('sharing.publish.col.expires'), render: (_, r) => formatTime(r.expiresAt) },
    { key: 'views', dataIndex: 'viewCount', title: t('sharing.publish.col.views'), align: 'right' },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, r) => (
        <Link
          to={`/report-publish/detail?examId=${encodeURIComponent(r.examId)}&reportId=${encodeURIComponent(r.reportId)}`}
        >
          {t('sharing.publish.view')}
        </Link>
      ),
    },
  ];

  function handleSearch(value: string) {
    setName(value.trim());
    setPage((p) => ({ ...p, current: 1 }));
  }

  function handleState(value: StateFilter) {
    setState(value);
    setPage((p) => ({ ...p, current: 1 }));
  }

  return (
    <div className="yyp-page">
      <PageHeading title={t('sharing.publish.title')} description={t('sharing.publish.subtitle')} />
      <Card variant="borderless">
        <Space wrap className="yyp-publish__filters">
          <Input.Search
            allowClear
            placeholder={t('sharing.publish.searchName')}
            aria-label={t('sharing.publish.searchName')}
            onSearch={handleSearch}
            style={{ width: 220 }}
          />
          <Select<StateFilter>
            value={state}
            onChange={handleState}
            style={{ width: 160 }}
            aria-label={t('sharing.publish.col.state')}
            options={[
              { value: '', label: t('sharing.publish.allStates') },
              ...STATES.map((s) => ({
                value: s,
                label: s === 'superseded' ? t('sharing.share.superseded') : t(`sharing.share.state.${s}`),
              })),
            ]}
          />
        </Space>
        {query.isError ? (
          <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <Table<PublishedReportRow>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={query.data?.data ?? []}
            loading={query.isFetching}
            scroll={{ x: 'max-content' }}
            pagination={{
              current: page.current,
              pageSize: page.pageSize,
              total: query.data?.count ?? 0,
              showSizeChanger: true,
              onChange: (current, pageSize) => setPage({ current, pageSize }),
            }}
          />
        )}
      </Card>
    </div>
  );
}

import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { CONSULTATION_PAGE_SIZE, statusName, type ConsultationListItem } from '@yyp/contracts';
import { Button, DatePicker, Input, Segmented, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { exportConsultations, fetchConsultationBuckets, queryConsultationPage } from '../../api/consultations';
import { currentLanguage } from '../../i18n';
import { formatTime } from '../../shared/format/dates';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { saveBlob } from '../../ui/saveBlob';
import { usePersonName } from '../../ui/usePersonName';
import {
  CONSULTATION_STATUS_OPTIONS,
  ConsultationStatusTag,
  RatingStars,
  consultationFilter,
  joinedText,
  type ListFilters,
} from './consultationLabels';
import './consultations.css';

/**
 * The consultation list (spec 000 §2: /consultations, and /consultations/my with `mine`): 20 a page
 * with the count (spec 000 §9), filtered by status, keyword, scheduled dates and organizations; a
 * row opens the consultation; the list as filtered exports as .xlsx.
 */
export function ConsultationsPage({ mine = false }: { mine?: boolean }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const personName = usePersonName();
  const [filters, setFilters] = useState<ListFilters>({});
  const [page, setPage] = useState(1);
  const change = (next: Partial<ListFilters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };
  const filter = consultationFilter(filters, mine);
  const list = useQuery({
    queryKey: ['consultations', 'page', filter, page],
    queryFn: ({ signal }) =>
      queryConsultationPage(
        { skip: (page - 1) * CONSULTATION_PAGE_SIZE, limit: CONSULTATION_PAGE_SIZE, filter },
        signal,
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  // spec 001 §8: the consultation organization config fails silently (the filters just offer none)
  const buckets = useQuery({
    queryKey: ['consultations', 'buckets'],
    queryFn: ({ signal }) => fetchConsultationBuckets(signal),
  });
  const bucketOptions = [...(buckets.data?.sources ?? []), ...(buckets.data?.targets ?? [])]
    .filter((b, i, all) => all.findIndex((o) => o.bucketId === b.bucketId) === i)
    .map((b) => ({ value: b.bucketId, label: b.name }));
  const exporting = useMutation({
    mutationFn: () => exportConsultations(filter, currentLanguage()),
    onSuccess: (blob) => saveBlob(blob, `consultations-${new Date().toISOString().slice(0, 10)}.xlsx`),
    onError: notify.error,
  });
  const open = (item: ConsultationListItem) => void navigate(`/consultations/${encodeURIComponent(item.id)}`);

  const columns: TableColumnsType<ConsultationListItem> = [
    {
      title: t('consultations.col.title'),
      dataIndex: 'title',
      key: 'title',
      render: (title: string, item) => (
        <a
          href={`/consultations/${encodeURIComponent(item.id)}`}
          onClick={(e) => {
            e.preventDefault();
            open(item);
          }}
        >
          {title}
        </a>
      ),
    },
    { title: t('consultations.col.patient'), key: 'patient', render: (_: unknown, c) => personName(c.patientName) },
    {
      title: t('consultations.col.status'),
      key: 'status',
      render: (_: unknown, c) => <ConsultationStatusTag status={c.status} />,
    },
    { title: t('consultations.col.source'), dataIndex: 'appliedBucketName', key: 'source' },
    { title: t('consultations.col.target'), key: 'target', render: (_: unknown, c) => joinedText(c) },
    {
      title: t('consultations.col.scheduledAt'),
      key: 'scheduledAt',
      render: (_: unknown, c) => formatTime(c.scheduledAt),
    },
    { title: t('consultations.col.created'), key: 'created', render: (_: unknown, c) => formatTime(c.created) },
    {
      title: t('consultations.col.rating'),
      key: 'rating',
      render: (_: unknown, c) => <RatingStars score={c.rating} />,
    },
  ];

  return (
    <div className="yyp-consultations">
      <PageHeading
        title={mine ? t('consultations.myTitle') : t('consultations.title')}
        extra={
          <Space>
            <Segmented
              value={mine ? 'mine' : 'all'}
              onChange={(v) => void navigate(v === 'mine' ? '/consultations/my' : '/consultations')}
              options={[
                { value: 'all', label: t('consultations.all') },
                { value: 'mine', label: t('consultations.mine') },
              ]}
            />
            <Button icon={<DownloadOutlined />} loading={exporting.isPending} onClick={() => exporting.mutate()}>
              {t('consultations.export')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/consultations/add')}>
              {t('consultations.create')}
            </Button>
          </Space>
        }
      />
      <Space wrap className="yyp-consultations__filters">
        <Select
          allowClear
          aria-label={t('consultations.filter.status')}
          placeholder={t('consultations.filter.status')}
          style={{ minWidth: 140 }}
          value={filters.status}
          onChange={(v) => change({ status: v })}
          options={CONSULTATION_STATUS_OPTIONS.map((s) => ({
            value: s,
            label: t(`consultations.status.${statusName(s)}`),
          }))}
        />
        <Input.Search
          allowClear
          aria-label={t('consultations.filter.keyword')}
          placeholder={t('consultations.filter.keyword')}
          onSearch={(v) => change({ keyword: v })}
          style={{ width: 240 }}
        />
        <DatePicker.RangePicker
          aria-label={t('consultations.filter.dates')}
          onChange={(range: [Dayjs | null, Dayjs | null] | null) =>
            change({
              dates: range?.[0] && range[1] ? [range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')] : null,
            })
          }
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          aria-label={t('consultations.filter.source')}
          placeholder={t('consultations.filter.source')}
          style={{ minWidth: 180 }}
          value={filters.sourceBucketId}
          onChange={(v) => change({ sourceBucketId: v })}
          options={bucketOptions}
        />
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          aria-label={t('consultations.filter.target')}
          placeholder={t('consultations.filter.target')}
          style={{ minWidth: 180 }}
          value={filters.targetBucketId}
          onChange={(v) => change({ targetBucketId: v })}
          options={bucketOptions}
        />
        <Typography.Text type="secondary">{t('consultations.count', { count: list.data?.count ?? 0 })}</Typography.Text>
      </Space>
      {list.error ? (
        <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<ConsultationListItem>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.data ?? []}
          onRow={(item) => ({ onClick: () => open(item), className: 'yyp-consultations__row' })}
          pagination={{
            current: page,
            pageSize: CONSULTATION_PAGE_SIZE,
            total: list.data?.count ?? 0,
            showSizeChanger: false,
            onChange: (p) => setPage(p),
          }}
        />
      )}
    </div>
  );
}

import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DicomRefusal, DicomRefusalQuery, DicomRefusalReason } from '@yyp/contracts';
import { Button, DatePicker, Form, Input, Table, Tag, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryDicomRefusals } from '../../api/dicomRefusals';
import { queryKeys } from '../../api/queryClient';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';

const PAGE_SIZE = 20;

interface FilterValues {
  aeTitle?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

type Filters = Pick<DicomRefusalQuery, 'aeTitle' | 'from' | 'to'>;

function toFilters(values: FilterValues): Filters {
  const [from, to] = values.range ?? [null, null];
  const aeTitle = values.aeTitle?.trim();
  return {
    ...(aeTitle ? { aeTitle } : {}),
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { to: to.toISOString() } : {}),
  };
}

/**
 * Filters and the paginated refused DICOM associations: all of them (`groupId` null, the
 * platform admin) or those that concern one group's AE titles (its auditors).
 */
export function DicomRefusalsTable({ groupId }: { groupId: string | null }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const refusals = useQuery({
    queryKey: [...queryKeys.dicomRefusals(groupId), filters, page],
    queryFn: ({ signal }) =>
      queryDicomRefusals(groupId, { ...filters, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });

  const reasons: Record<DicomRefusalReason, string> = {
    calledAe: t('dicomRefusals.reasonCalledAe'),
    callingAe: t('dicomRefusals.reasonCallingAe'),
    callingHost: t('dicomRefusals.reasonCallingHost'),
  };

  function handleFinish(values: FilterValues) {
    setFilters(toFilters(values));
    setPage(1);
  }

  function handleReset() {
    form.resetFields();
    setFilters({});
    setPage(1);
  }

  const columns: TableColumnsType<DicomRefusal> = [
    {
      key: 'at',
      title: t('dicomRefusals.at'),
      width: 170,
      render: (_, r) => <span className="yyp-nowrap">{dayjs(r.at).format('YYYY-MM-DD HH:mm:ss')}</span>,
    },
    { key: 'calling', title: t('dicomRefusals.callingAe'), render: (_, r) => <code>{r.callingAe}</code> },
    { key: 'called', title: t('dicomRefusals.calledAe'), render: (_, r) => <code>{r.calledAe}</code> },
    { key: 'peer', title: t('dicomRefusals.peer'), render: (_, r) => r.peerAddress ?? '—' },
    { key: 'reason', title: t('dicomRefusals.reason'), render: (_, r) => reasons[r.reason] },
    {
      key: 'organization',
      title: t('dicomRefusals.organization'),
      render: (_, r) => r.organization?.name ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      key: 'outcome',
      title: t('dicomRefusals.outcome'),
      render: (_, r) =>
        r.outcome === 'denied' ? <Tag color="orange">{t('dicomRefusals.denied')}</Tag> : <Tag>{r.outcome}</Tag>,
    },
  ];

  return (
    <div className="yyp-stack">
      <Form<FilterValues>
        name="dicomRefusalFilters"
        form={form}
        layout="inline"
        onFinish={handleFinish}
        className="yyp-filter-bar"
      >
        <Form.Item name="aeTitle" label={t('dicomRefusals.aeTitle')}>
          <Input
            maxLength={16}
            allowClear
            placeholder={t('dicomRefusals.aeTitlePlaceholder')}
            className="yyp-filter-bar__action"
          />
        </Form.Item>
        <Form.Item name="range" label={t('dicomRefusals.range')}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('dicomRefusals.search')}
          </Button>
        </Form.Item>
        <Form.Item>
          <Button onClick={handleReset}>{t('dicomRefusals.reset')}</Button>
        </Form.Item>
      </Form>
      {refusals.isError && <LoadFailedAlert error={refusals.error} onRetry={() => void refusals.refetch()} />}
      <Table<DicomRefusal>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={refusals.data?.refusals ?? []}
        loading={refusals.isFetching}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: refusals.data?.count ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          showTotal: (total) => t('dicomRefusals.total', { count: total }),
        }}
      />
    </div>
  );
}

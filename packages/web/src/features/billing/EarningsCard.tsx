import { keepPreviousData, useMutation, useQueries, useQuery } from '@tanstack/react-query';
import {
  EARNINGS_PAGE_SIZE,
  EARNINGS_READER_ACTIONS,
  type EarningsMonth,
  type EarningsOrder,
  type EarningsSums,
} from '@yyp/contracts';
import { Button, Card, DatePicker, Select, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMyOrganizations } from '../../api/accounts';
import { exportEarnings, queryEarnings } from '../../api/invoices';
import { fetchProducts } from '../../api/orders';
import { queryKeys } from '../../api/queryClient';
import { currentLanguage } from '../../i18n';
import { useNotify } from '../../shared/notify/useNotify';
import { usePermissions } from '../../shared/permissions/permissions';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';
import { saveBlob } from '../../ui/saveBlob';

type Row = (EarningsMonth | (EarningsSums & { month: null })) & { key: string };

/**
 * The expert organization's earnings on /settings/billing (issue 24; earnings/page-query and
 * export-excel): per month of a date range the orders paid to it, gross, refunds, turnaround
 * credits and net, summed by the server from its ledger account, and the orders behind them.
 * Shown for the organizations that sell something (products) where the caller reads earnings.
 */
export function EarningsCard() {
  const { t } = useTranslation();
  const held = usePermissions();
  const organizations = useQuery({
    queryKey: queryKeys.organizations,
    queryFn: ({ signal }) => fetchMyOrganizations(signal),
  });
  const readers = (organizations.data ?? []).filter((o) => EARNINGS_READER_ACTIONS.some((a) => held.can(o.id, a)));
  // The same query (and cache) as the products table of the selling side.
  const products = useQueries({
    queries: readers.map((o) => ({
      queryKey: ['products', o.id, 'all'],
      queryFn: async ({ signal }: { signal: AbortSignal }) => [
        ...(await fetchProducts(o.id, signal, 1)),
        ...(await fetchProducts(o.id, signal, 2)),
      ],
    })),
  });
  const sellers = readers.filter((_, i) => (products[i]?.data?.length ?? 0) > 0);
  const [bucketId, setBucketId] = useState<string | undefined>();
  useEffect(() => {
    if (!bucketId && sellers[0]) setBucketId(sellers[0].id);
  }, [bucketId, sellers]);

  if (sellers.length === 0) return null;
  return (
    <Card title={t('earnings.title')}>
      <Select
        aria-label={t('earnings.organization')}
        style={{ minWidth: 220, marginBottom: 16 }}
        value={bucketId}
        onChange={setBucketId}
        options={sellers.map((o) => ({ value: o.id, label: o.name }))}
      />
      {bucketId && <Statement key={bucketId} bucketId={bucketId} />}
    </Card>
  );
}

const day = (d: Dayjs) => d.format('YYYY-MM-DD');

function Statement({ bucketId }: { bucketId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().startOf('month'), dayjs()]);
  const [page, setPage] = useState(1);
  const from = day(range[0]);
  const to = day(range[1]);
  const statement = useQuery({
    queryKey: ['earnings', bucketId, from, to, page],
    queryFn: ({ signal }) =>
      queryEarnings(bucketId, { from, to, limit: EARNINGS_PAGE_SIZE, skip: (page - 1) * EARNINGS_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const exporting = useMutation({
    mutationFn: () => exportEarnings({ bucketId, from, to, language: currentLanguage() }),
    onSuccess: (blob) => saveBlob(blob, `earnings-${from}-${to}.xlsx`),
    onError: notify.error,
  });
  const money = (key: 'grossFen' | 'refundsFen' | 'creditsFen' | 'netFen', title: string) => ({
    title,
    key,
    align: 'right' as const,
    render: (_: unknown, r: Pick<EarningsSums, typeof key | 'currency'>) => (
      <Money fen={r[key]} currency={r.currency} strong={key === 'netFen'} />
    ),
  });
  const rows: Row[] = [
    ...(statement.data?.months ?? []).map((m) => ({ ...m, key: `${m.month} ${m.currency}` })),
    ...(statement.data?.totals ?? []).map((s) => ({ ...s, month: null, key: `total ${s.currency}` })),
  ];

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <DatePicker.RangePicker
          aria-label={t('earnings.range')}
          allowClear={false}
          value={range}
          onChange={(r) => {
            if (r?.[0] && r[1]) {
              setRange([r[0], r[1]]);
              setPage(1);
            }
          }}
        />
        <Button onClick={() => exporting.mutate()} loading={exporting.isPending}>
          {t('earnings.export')}
        </Button>
      </Space>
      <Typography.Text type="secondary">{t('earnings.hint')}</Typography.Text>
      {statement.error ? (
        <LoadFailedAlert error={statement.error} onRetry={() => void statement.refetch()} />
      ) : (
        <>
          <Table<Row>
            size="small"
            rowKey="key"
            pagination={false}
            loading={statement.isFetching}
            dataSource={rows}
            columns={[
              {
                title: t('earnings.month'),
                dataIndex: 'month',
                render: (m: string | null) => m ?? <strong>{t('earnings.total')}</strong>,
              },
              { title: t('earnings.orders'), dataIndex: 'orders', align: 'right' },
              money('grossFen', t('earnings.gross')),
              money('refundsFen', t('earnings.refunds')),
              money('creditsFen', t('earnings.credits')),
              money('netFen', t('earnings.net')),
            ]}
          />
          <Typography.Title level={5}>{t('earnings.byOrder')}</Typography.Title>
          <Table<EarningsOrder>
            size="small"
            rowKey={(o) => `${o.orderId} ${o.currency}`}
            loading={statement.isFetching}
            dataSource={statement.data?.data ?? []}
            pagination={{
              current: page,
              pageSize: EARNINGS_PAGE_SIZE,
              total: statement.data?.count ?? 0,
              onChange: setPage,
            }}
            columns={[
              { title: t('earnings.orderNo'), dataIndex: 'orderNo' },
              { title: t('earnings.product'), dataIndex: 'productName' },
              { title: t('earnings.requester'), dataIndex: 'requestBucketName' },
              {
                title: t('earnings.postedAt'),
                dataIndex: 'postedAt',
                render: (v: string) => new Date(v).toLocaleString(),
              },
              money('grossFen', t('earnings.gross')),
              money('refundsFen', t('earnings.refunds')),
              money('creditsFen', t('earnings.credits')),
              money('netFen', t('earnings.net')),
            ]}
          />
        </>
      )}
    </Space>
  );
}

import { DownloadOutlined, FileTextOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { ORDER_STATUSES, ORDER_TYPES, ORDERS_PAGE_SIZE, type Order, type OrderType } from '@yyp/contracts';
import { Button, DatePicker, Input, Segmented, Select, Space, Table, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportPayments } from '../../api/billing';
import { exportOrders, queryOrders } from '../../api/orders';
import { currentLanguage } from '../../i18n';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';
import { PageHeading } from '../../ui/PageHeading';
import { saveBlob } from '../../ui/saveBlob';
import { InvoiceApplyDialog } from './InvoiceApplyDialog';
import { OrderDetailDrawer } from './OrderDetailDrawer';
import { InvoiceTag, OrderStatusTag, PaymentStatusTag, Remaining, paymentStatusName } from './orderLabels';
import { invoiceRefusal, ordersQueryBody, type OrderFilters } from './orderRules';
import { useOrdersScope, type OrdersSide } from './useOrdersScope';
import './orders.css';

/**
 * The order list (spec 000 §2; issue 24): one organization's orders, those it placed or those its
 * experts received, filtered by kind, status, payment status, dates and patient, 10 a page (spec 001 §9),
 * with the export, an order's detail, and an invoice for the selected paid orders.
 */
export function OrdersPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const scope = useOrdersScope();
  const [bucketId, setBucketId] = useState<string | undefined>();
  const [side, setSide] = useState<OrdersSide>('requested');
  const [filters, setFilters] = useState<OrderFilters>({});
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Order[]>([]);
  const [openId, setOpenId] = useState<string | null>(null);
  const [invoicing, setInvoicing] = useState(false);
  const [picked, setPicked] = useState(false);
  useEffect(() => {
    // until the caller picks one, follow the first option (an organization where the caller
    // orders), also when the options settle after a first partial answer
    const first = scope.options[0]?.value;
    if (!picked && first && first !== bucketId) setBucketId(first);
  }, [picked, bucketId, scope.options]);
  const change = (next: Partial<OrderFilters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
    setSelected([]);
  };

  const sideQuery = side === 'requested' ? { requestBucketId: bucketId ?? '' } : { targetBucketId: bucketId ?? '' };
  const list = useQuery({
    queryKey: ['orders', 'page', bucketId, side, filters, page],
    queryFn: ({ signal }) => queryOrders(sideQuery, ordersQueryBody(filters, page), signal),
    enabled: Boolean(bucketId),
    placeholderData: keepPreviousData,
  });
  const exporting = useMutation({
    // the list as filtered (orders/export-excel, at most 1,000 orders)
    mutationFn: () =>
      exportOrders(sideQuery, { filters: ordersQueryBody(filters, 1).filters, language: currentLanguage() }),
    onSuccess: (blob) => saveBlob(blob, `orders-${new Date().toISOString().slice(0, 10)}.xlsx`),
    onError: notify.error,
  });
  // the payments of the side (payments/export-excel, spec 001 §7) in the list's dates
  const exportingPayments = useMutation({
    mutationFn: () =>
      exportPayments({
        bucketId: bucketId ?? '',
        side: side === 'requested' ? 'payer' : 'expert',
        ...(filters.dates ? { from: filters.dates[0], to: filters.dates[1] } : {}),
        language: currentLanguage(),
      }),
    onSuccess: (blob) => saveBlob(blob, `payments-${new Date().toISOString().slice(0, 10)}.xlsx`),
    onError: notify.error,
  });
  const refusal = invoiceRefusal(selected);

  const columns: TableColumnsType<Order> = [
    {
      title: t('billing.order.no'),
      dataIndex: 'orderNo',
      key: 'no',
      render: (no: string, o) => <a onClick={() => setOpenId(o.id)}>{no}</a>,
    },
    {
      title: t('orders.list.type'),
      dataIndex: 'type',
      key: 'type',
      render: (type: OrderType) => t(`orders.type.${type}`),
    },
    { title: t('billing.order.patient'), dataIndex: 'patientName', key: 'patient' },
    { title: t('billing.order.product'), dataIndex: 'productName', key: 'product' },
    side === 'requested'
      ? { title: t('billing.order.expert'), dataIndex: 'targetBucketName', key: 'org' }
      : { title: t('orders.list.requester'), dataIndex: 'requestBucketName', key: 'org' },
    {
      title: t('billing.order.amount'),
      key: 'amount',
      render: (_: unknown, o) => <Money fen={o.priceFen} currency={o.currency} />,
    },
    { title: t('orders.list.status'), key: 'status', render: (_: unknown, o) => <OrderStatusTag status={o.status} /> },
    {
      title: t('orders.list.payment'),
      key: 'payment',
      render: (_: unknown, o) => <PaymentStatusTag status={o.paymentStatus} needsPayment={o.needsPayment} />,
    },
    { title: t('orders.list.deadline'), key: 'deadline', render: (_: unknown, o) => <Remaining order={o} /> },
    {
      title: t('orders.list.invoice'),
      key: 'invoice',
      render: (_: unknown, o) => <InvoiceTag status={o.invoiceStatus} />,
    },
    {
      title: t('orders.list.created'),
      dataIndex: 'created',
      key: 'created',
      render: (c: string) => new Date(c).toLocaleString(),
    },
  ];

  return (
    <div className="yyp-orders">
      <PageHeading
        title={t('orders.list.title')}
        extra={
          <Space>
            {side === 'requested' && (
              <Button
                icon={<FileTextOutlined />}
                disabled={refusal !== null}
                title={refusal && refusal !== 'none' ? t(`errors.${refusal}`) : undefined}
                onClick={() => setInvoicing(true)}
              >
                {t('orders.invoiceForm.apply')}
              </Button>
            )}
            <Button
              icon={<DownloadOutlined />}
              loading={exporting.isPending}
              disabled={!bucketId}
              onClick={() => exporting.mutate()}
            >
              {t('orders.list.export')}
            </Button>
            <Button
              icon={<DownloadOutlined />}
              loading={exportingPayments.isPending}
              disabled={!bucketId}
              onClick={() => exportingPayments.mutate()}
            >
              {t('orders.list.exportPayments')}
            </Button>
          </Space>
        }
      />
      <Space wrap className="yyp-orders__filters">
        <Select
          aria-label={t('orders.list.organization')}
          style={{ minWidth: 180 }}
          value={bucketId}
          options={scope.options}
          onChange={(v) => {
            setPicked(true);
            setBucketId(v);
            change({});
          }}
        />
        <Segmented
          value={side}
          onChange={(v) => {
            setSide(v as OrdersSide);
            change({});
          }}
          options={[
            { value: 'requested', label: t('orders.list.requested') },
            { value: 'received', label: t('orders.list.received') },
          ]}
        />
        <Select<OrderType>
          allowClear
          aria-label={t('orders.list.type')}
          placeholder={t('orders.list.type')}
          style={{ minWidth: 120 }}
          value={filters.type ?? undefined}
          onChange={(v) => change({ type: v ?? null })}
          options={ORDER_TYPES.map((type) => ({ value: type, label: t(`orders.type.${type}`) }))}
        />
        <Select
          mode="multiple"
          allowClear
          aria-label={t('orders.list.status')}
          placeholder={t('orders.list.status')}
          style={{ minWidth: 160 }}
          value={filters.status ?? []}
          onChange={(v) => change({ status: v })}
          options={ORDER_STATUSES.map((s) => ({ value: s, label: t(`orders.status.${s}`) }))}
        />
        <Select
          mode="multiple"
          allowClear
          aria-label={t('orders.list.payment')}
          placeholder={t('orders.list.payment')}
          style={{ minWidth: 160 }}
          value={filters.paymentStatus ?? []}
          onChange={(v) => change({ paymentStatus: v })}
          options={([0, 1, 2, 3, 4] as const).map((s) => ({
            value: s,
            label: t(`orders.payment.${paymentStatusName(s)}`),
          }))}
        />
        <DatePicker.RangePicker
          onChange={(range: [Dayjs | null, Dayjs | null] | null) =>
            change({
              dates: range?.[0] && range[1] ? [range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')] : null,
            })
          }
        />
        <Input.Search
          allowClear
          aria-label={t('orders.list.patient')}
          placeholder={t('orders.list.patient')}
          onSearch={(v) => change({ patientName: v })}
          style={{ width: 200 }}
        />
      </Space>
      {list.error ? (
        <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<Order>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.data ?? []}
          rowSelection={
            side === 'requested'
              ? { selectedRowKeys: selected.map((o) => o.id), onChange: (_keys, rows) => setSelected(rows) }
              : undefined
          }
          pagination={{
            current: page,
            pageSize: ORDERS_PAGE_SIZE,
            total: list.data?.count ?? 0,
            showSizeChanger: false,
            onChange: (p) => setPage(p),
          }}
        />
      )}
      {openId && bucketId && (
        <OrderDetailDrawer orderId={openId} side={side} bucketId={bucketId} onClose={() => setOpenId(null)} />
      )}
      {invoicing && (
        <InvoiceApplyDialog
          orders={selected}
          onClose={(done) => {
            setInvoicing(false);
            if (done) {
              setSelected([]);
              void list.refetch();
            }
          }}
        />
      )}
    </div>
  );
}

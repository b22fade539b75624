import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LEDGER_KINDS, type Order, type OrderDetail } from '@yyp/contracts';
import { Button, Descriptions, Drawer, List, Popconfirm, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { queryPayments } from '../../api/billing';
import { cancelRequest, fetchOrderDetail } from '../../api/orders';
import { useNotify } from '../../shared/notify/useNotify';
import { usePermissions } from '../../shared/permissions/permissions';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';
import { PageSpinner } from '../../ui/PageSpinner';
import { ApplyFormsSection } from './ApplyFormsSection';
import { IssueInvoiceButton } from './IssueInvoiceButton';
import { InvoiceTag, OrderStatusTag, PaymentStatusTag, Remaining } from './orderLabels';
import { refundableFen } from './orderRules';
import { RefundDialog } from './RefundDialog';
import type { OrdersSide } from './useOrdersScope';

/**
 * One order (orders/detail, issue 24): its kind (a consultation's fee links to its consultation),
 * state, deadline and time left, payment, the ledger lines it posted, apply forms, its payments'
 * refunds (refund for holders of payment_refund in the expert organization) and invoice state.
 */
export function OrderDetailDrawer({
  orderId,
  side,
  bucketId,
  onClose,
}: {
  orderId: string;
  side: OrdersSide;
  bucketId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: ['orders', orderId, 'detail'],
    queryFn: ({ signal }) => fetchOrderDetail(orderId, signal),
  });
  return (
    <Drawer open width={720} title={t('orders.detail.title')} onClose={onClose} destroyOnHidden>
      {detail.isPending ? (
        <PageSpinner />
      ) : detail.error ? (
        <LoadFailedAlert error={detail.error} onRetry={() => void detail.refetch()} />
      ) : (
        <OrderDetailBody detail={detail.data} side={side} bucketId={bucketId} onChanged={() => void detail.refetch()} />
      )}
    </Drawer>
  );
}

function OrderDetailBody({
  detail,
  side,
  bucketId,
  onChanged,
}: {
  detail: OrderDetail;
  side: OrdersSide;
  bucketId: string;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { order, ledger, applyForms } = detail;
  const held = usePermissions();
  const [refunding, setRefunding] = useState(false);
  const paid = order.paidFen > 0;
  const payments = useQuery({
    queryKey: ['payments', 'of-order', order.id, side],
    queryFn: ({ signal }) =>
      queryPayments(
        bucketId,
        side === 'requested' ? 'payer' : 'expert',
        { filters: { no: order.orderNo }, limit: 20 },
        signal,
      ),
    enabled: paid,
  });
  const payment = payments.data?.data.find((p) => p.status === 'paid');
  const canRefund =
    side === 'received' &&
    held.can(order.targetBucketId, 'payment_refund') &&
    refundableFen(order) > 0 &&
    Boolean(payment);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions column={2} size="small" bordered>
        <Descriptions.Item label={t('billing.order.no')}>{order.orderNo}</Descriptions.Item>
        <Descriptions.Item label={t('orders.list.status')}>
          <OrderStatusTag status={order.status} />
        </Descriptions.Item>
        <Descriptions.Item label={t('orders.list.type')}>
          {t(`orders.type.${order.type}`)}
          {order.consultationId && (
            <>
              {' · '}
              <Link to={`/consultations/${encodeURIComponent(order.consultationId)}`} data-testid="order-consultation">
                {t('orders.detail.consultation')}
              </Link>
            </>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('billing.order.patient')}>{order.patientName}</Descriptions.Item>
        <Descriptions.Item label={t('billing.order.product')}>{order.productName}</Descriptions.Item>
        <Descriptions.Item label={t('billing.order.expert')}>{order.targetBucketName}</Descriptions.Item>
        <Descriptions.Item label={t('orders.list.requester')}>{order.requestBucketName}</Descriptions.Item>
        <Descriptions.Item label={t('billing.order.amount')}>
          <Money fen={order.priceFen} currency={order.currency} />
        </Descriptions.Item>
        <Descriptions.Item label={t('orders.list.payment')}>
          <PaymentStatusTag status={order.paymentStatus} needsPayment={order.needsPayment} />
          {order.channel && t(`billing.channel.${order.channel}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('orders.detail.paid')}>
          <Money fen={order.paidFen} currency={order.currency} />
        </Descriptions.Item>
        <Descriptions.Item label={t('orders.detail.refunded')}>
          <Money fen={order.refundedFen} currency={order.currency} />
        </Descriptions.Item>
        <Descriptions.Item label={t('orders.list.deadline')}>
          {order.deadlineAt ? new Date(order.deadlineAt).toLocaleString() : '—'} <Remaining order={order} />
        </Descriptions.Item>
        <Descriptions.Item label={t('orders.detail.slaCredit')}>
          {order.breachedAt ? <Money fen={order.slaCreditFen} currency={order.currency} /> : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('orders.list.invoice')}>
          <InvoiceTag status={order.invoiceStatus} />
        </Descriptions.Item>
        <Descriptions.Item label={t('orders.apply.mobile')}>{order.applicantMobile || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('orders.apply.reason')} span={2}>
          {order.reason || '—'}
        </Descriptions.Item>
      </Descriptions>
      <OrderActions
        order={order}
        side={side}
        onRefund={canRefund ? () => setRefunding(true) : undefined}
        navigate={navigate}
      />
      {side === 'received' &&
        order.invoiceStatus === 'applied' &&
        payment?.invoiceId &&
        held.can(order.targetBucketId, 'issue_invoice') && (
          <IssueInvoiceButton
            invoiceId={payment.invoiceId}
            onIssued={() => {
              onChanged();
              void payments.refetch();
            }}
          />
        )}
      <section>
        <Typography.Title level={5}>{t('orders.detail.ledger')}</Typography.Title>
        <Table
          size="small"
          rowKey={(l) => `${l.txnId}:${l.account}`}
          pagination={false}
          dataSource={ledger}
          locale={{ emptyText: t('orders.detail.noLedger') }}
          columns={[
            {
              title: t('orders.detail.kind'),
              dataIndex: 'kind',
              render: (k: string) => {
                const known = LEDGER_KINDS.find((kind) => kind === k);
                return known ? t(`orders.ledgerKind.${known}`) : k;
              },
            },
            { title: t('orders.detail.account'), dataIndex: 'account' },
            {
              title: t('billing.order.amount'),
              key: 'amount',
              align: 'right',
              render: (_: unknown, l) => <Money fen={l.amountFen} currency={l.currency} />,
            },
            {
              title: t('orders.list.created'),
              dataIndex: 'created',
              render: (c: string) => new Date(c).toLocaleString(),
            },
          ]}
        />
      </section>
      {payment && payment.refunds.length > 0 && (
        <section>
          <Typography.Title level={5}>{t('orders.detail.refunds')}</Typography.Title>
          <List
            size="small"
            dataSource={payment.refunds}
            renderItem={(r) => (
              <List.Item key={r.refundNo}>
                <Money fen={r.amountFen} currency={r.currency} /> · {t(`orders.refundStatus.${r.status}`)} · {r.reason}{' '}
                · {new Date(r.created).toLocaleString()}
              </List.Item>
            )}
          />
        </section>
      )}
      <ApplyFormsSection
        orderId={order.id}
        forms={applyForms}
        editable={
          side === 'requested' && held.can(order.requestBucketId, 'upload_apply_forms') && order.status !== 'cancelled'
        }
      />
      {refunding && payment && (
        <RefundDialog
          paymentNo={payment.paymentNo}
          maxFen={refundableFen(order)}
          currency={order.currency}
          onClose={(done) => {
            setRefunding(false);
            if (done) {
              onChanged();
              void payments.refetch();
            }
          }}
        />
      )}
    </Space>
  );
}

function OrderActions({
  order,
  side,
  onRefund,
  navigate,
}: {
  order: Order;
  side: OrdersSide;
  onRefund?: () => void;
  navigate: ReturnType<typeof useNavigate>;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const payable =
    side === 'requested' && order.needsPayment && order.paymentStatus === 0 && order.status !== 'cancelled';
  // the requester may withdraw while the experts have not started and nothing was paid; a
  // consultation's fee goes with its consultation (cancelled there, OrderNotCancellable here)
  const cancellable =
    side === 'requested' && order.type !== 'consultation' && order.status === 'applied' && order.paidFen === 0;
  const cancel = useMutation({
    mutationFn: () => cancelRequest(order.id, '', order.version),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['orders'] }),
    onError: notify.error,
  });
  if (!payable && !onRefund && !cancellable) return null;
  return (
    <Space>
      {payable && (
        <Button
          type="primary"
          onClick={() =>
            void navigate(`/exams/${encodeURIComponent(order.examId)}/apply-report/${encodeURIComponent(order.id)}`)
          }
        >
          {t('orders.detail.pay')}
        </Button>
      )}
      {cancellable && (
        <Popconfirm title={t('orders.detail.cancelConfirm')} onConfirm={() => cancel.mutate()}>
          <Button loading={cancel.isPending}>{t('orders.detail.cancel')}</Button>
        </Popconfirm>
      )}
      {onRefund && (
        <Button danger onClick={onRefund} data-testid="refund-open">
          {t('orders.refund.open')}
        </Button>
      )}
    </Space>
  );
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PAYMENT_STATUS, type Order } from '@yyp/contracts';
import { Button, Card, Descriptions, Radio, Result, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { confirmRequestPaid, fetchRequestPaymentStatus, fetchRequestQr } from '../../api/billing';
import { fetchRequestDetail } from '../../api/orders';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';
import { PageSpinner } from '../../ui/PageSpinner';
import { CreditPayButton } from './CreditPayButton';
import { PaymentLink } from './PaymentLink';
import { PaymentPanel, type PaymentSource } from './PaymentPanel';
import './billing.css';

/**
 * /exams/{examId}/apply-report/{applicationId} (spec 000 §2): the requester pays for an order, by
 * WeChat (the QR with live status) or from the group's balance (credits/create-token, then
 * credits/charge with that single-use bearer). An order that needs no payment says so.
 */
export function PayOrderPage() {
  const { t } = useTranslation();
  const { examId = '', applicationId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [channel, setChannel] = useState<'weixin' | 'credit'>('weixin');
  const order = useQuery({
    queryKey: ['orders', applicationId, 'request'],
    queryFn: ({ signal }) => fetchRequestDetail(applicationId, signal),
  });
  const source = useMemo<PaymentSource>(
    () => ({
      key: ['orders', applicationId, 'payment'],
      qr: (refresh, signal) => fetchRequestQr(applicationId, refresh, signal),
      status: (signal) => fetchRequestPaymentStatus(applicationId, signal),
      confirm: () => confirmRequestPaid(applicationId),
    }),
    [applicationId],
  );
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['orders', applicationId] });

  if (order.isPending) return <PageSpinner />;
  if (order.error) return <LoadFailedAlert error={order.error} onRetry={() => void order.refetch()} />;
  const o = order.data;
  const settled = !o.needsPayment || o.paymentStatus !== PAYMENT_STATUS.unpaid || o.status === 'cancelled';
  // a consultation's fee leads back to its consultation, a report order to the study list
  const consultationId = o.consultationId;
  const back = consultationId ? (
    <Button type="primary" onClick={() => void navigate(`/consultations/${encodeURIComponent(consultationId)}`)}>
      {t('billing.apply.backToConsultation')}
    </Button>
  ) : (
    <Button type="primary" onClick={() => void navigate('/studies')}>
      {t('billing.apply.backToStudies')}
    </Button>
  );
  return (
    <Card
      title={t('billing.pay.orderTitle')}
      className="yyp-pay__card"
      data-exam={examId}
      extra={
        consultationId && !settled ? (
          <Link to={`/consultations/${encodeURIComponent(consultationId)}`}>
            {t('billing.apply.backToConsultation')}
          </Link>
        ) : null
      }
    >
      <OrderSummary order={o} />
      {settled ? (
        <Result
          status={o.status === 'cancelled' ? 'warning' : 'success'}
          title={t(settledTitle(o))}
          extra={back}
          data-testid="payment-paid"
        />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Radio.Group
            value={channel}
            onChange={(event) => setChannel(event.target.value as 'weixin' | 'credit')}
            optionType="button"
            options={[
              { value: 'weixin', label: t('billing.channel.weixin') },
              { value: 'credit', label: t('billing.channel.credit') },
            ]}
          />
          {channel === 'weixin' ? (
            <>
              <PaymentPanel source={source} onPaid={reload} />
              <PaymentLink orderId={o.id} />
            </>
          ) : (
            <CreditPayButton order={o} onPaid={reload} />
          )}
        </Space>
      )}
    </Card>
  );
}

function settledTitle(order: Order) {
  if (order.status === 'cancelled') return 'billing.order.cancelled' as const;
  // a paid order no longer waits for a payment either (needsPayment false): paid comes first
  if (order.paymentStatus === PAYMENT_STATUS.unpaid) return 'billing.pay.noPaymentNeeded' as const;
  return order.paymentStatus === PAYMENT_STATUS.paid
    ? ('billing.pay.phase.paid' as const)
    : ('billing.pay.message.alreadyPaid' as const);
}

export function OrderSummary({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <Descriptions column={1} size="small" className="yyp-pay__summary">
      <Descriptions.Item label={t('billing.order.no')}>{order.orderNo}</Descriptions.Item>
      <Descriptions.Item label={t('billing.order.type')}>{t(`orders.type.${order.type}`)}</Descriptions.Item>
      <Descriptions.Item label={t('billing.order.patient')}>{order.patientName}</Descriptions.Item>
      <Descriptions.Item label={t('billing.order.product')}>{order.productName}</Descriptions.Item>
      <Descriptions.Item label={t('billing.order.expert')}>{order.targetBucketName}</Descriptions.Item>
      <Descriptions.Item label={t('billing.order.amount')}>
        <Money fen={order.priceFen} currency={order.currency} strong />
      </Descriptions.Item>
    </Descriptions>
  );
}

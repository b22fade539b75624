import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Result } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { confirmChargePaid, fetchChargeDetail, fetchChargeQr, fetchChargeStatus } from '../../api/billing';
import { PublicUploadFrame } from '../../shared/layout/PublicUploadFrame';
import { Money } from '../../ui/Money';
import { forgetChargeToken, takeChargeToken } from './chargeToken';
import { PaymentPanel, type PaymentSource } from './PaymentPanel';
import { paymentMessage } from './paymentState';
import './billing.css';

/**
 * /charge/{id} (spec 000 §2, public): the payer's page of one charge. The charge token arrives once
 * in the address and is kept in this tab's session storage (spec 001 §9); the page shows what is paid
 * for (never the patient), the amount and the WeChat QR with its live status.
 */
export function ChargePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [taken] = useState(() => takeChargeToken(id, location.search, sessionStorage));
  const token = taken.token;
  useEffect(() => {
    if (location.search !== taken.cleanSearch) void navigate({ search: taken.cleanSearch }, { replace: true });
    // once, on opening: the token leaves the address bar
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const detail = useQuery({
    queryKey: ['charge', id, 'detail'],
    queryFn: ({ signal }) => fetchChargeDetail(id, token ?? '', signal),
    enabled: Boolean(token),
  });
  const source = useMemo<PaymentSource>(
    () => ({
      key: ['charge', id],
      qr: (refresh, signal) => fetchChargeQr(id, token ?? '', refresh, signal),
      status: (signal) => fetchChargeStatus(id, token ?? '', signal),
      confirm: () => confirmChargePaid(id, token ?? ''),
    }),
    [id, token],
  );

  let body;
  if (!token) {
    body = (
      <Result status="warning" title={t('billing.pay.message.noPermission')} subTitle={t('billing.pay.noToken')} />
    );
  } else if (detail.error) {
    body = <Result status="error" title={t(`billing.pay.message.${paymentMessage(detail.error)}`)} />;
  } else {
    const charge = detail.data;
    body = (
      <>
        {charge && (
          <Descriptions column={1} size="small" className="yyp-pay__summary">
            <Descriptions.Item label={t('billing.order.no')}>{charge.orderNo}</Descriptions.Item>
            <Descriptions.Item label={t('billing.order.product')}>{charge.productName}</Descriptions.Item>
            <Descriptions.Item label={t('billing.order.expert')}>{charge.expertBucketName}</Descriptions.Item>
            <Descriptions.Item label={t('billing.order.amount')}>
              <Money fen={charge.amountFen} currency={charge.currency} strong />
            </Descriptions.Item>
          </Descriptions>
        )}
        <PaymentPanel source={source} onPaid={() => forgetChargeToken(id, sessionStorage)} />
      </>
    );
  }
  return (
    <PublicUploadFrame>
      <Card title={t('billing.pay.title')} className="yyp-pay__card">
        {body}
      </Card>
    </PublicUploadFrame>
  );
}

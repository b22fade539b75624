import { useQuery } from '@tanstack/react-query';
import { Descriptions, Result } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmChargePaid, fetchChargeDetail, fetchChargeQr, fetchChargeStatus } from '../../api/billing';
import { Money } from '../../ui/Money';
import { forgetChargeToken } from './chargeToken';
import { PaymentPanel, type PaymentSource } from './PaymentPanel';
import { paymentMessage } from './paymentState';

/** The query of a charge as its payer sees it (`Authorization: Charge <token>`). */
export const chargeDetailKey = (chargeId: string) => ['charge', chargeId, 'detail'] as const;

/**
 * The payment view of one charge with its token (the page /charge/{id}, and the public
 * apply-report page when this tab holds the token of the order's charge): what is paid for and to
 * whom (never the patient), the amount and the WeChat QR with its live status.
 */
export function ChargePayment({ chargeId, token }: { chargeId: string; token: string }) {
  const { t } = useTranslation();
  const detail = useQuery({
    queryKey: chargeDetailKey(chargeId),
    queryFn: ({ signal }) => fetchChargeDetail(chargeId, token, signal),
  });
  const source = useMemo<PaymentSource>(
    () => ({
      key: ['charge', chargeId],
      qr: (refresh, signal) => fetchChargeQr(chargeId, token, refresh, signal),
      status: (signal) => fetchChargeStatus(chargeId, token, signal),
      confirm: () => confirmChargePaid(chargeId, token),
    }),
    [chargeId, token],
  );
  if (detail.error) {
    return <Result status="error" title={t(`billing.pay.message.${paymentMessage(detail.error)}`)} />;
  }
  const charge = detail.data;
  return (
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
      <PaymentPanel source={source} onPaid={() => forgetChargeToken(chargeId, sessionStorage)} />
    </>
  );
}

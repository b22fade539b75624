import {
  CONSULTATION_STATUS_VALUES,
  PAYMENT_STATUS,
  type ConsultationDetail,
  type ConsultationFee,
  type PaymentStatus,
} from '@yyp/contracts';
import { Alert, Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatTime } from '../../shared/format/dates';
import { Money } from '../../ui/Money';

/**
 * The consultation's fee where its target organization sells consultations (issue 25, a product of
 * type 3): an order of type consultation, paid on the order's payment page. Free: no fee.
 */

const PAYMENT_NAME: Record<PaymentStatus, 'unpaid' | 'paid' | 'refunding' | 'refunded' | 'partiallyRefunded'> = {
  0: 'unpaid',
  1: 'paid',
  2: 'refunding',
  3: 'refunded',
  4: 'partiallyRefunded',
};
const PAYMENT_COLOR: Record<PaymentStatus, string> = { 0: 'orange', 1: 'green', 2: 'purple', 3: 'default', 4: 'cyan' };
/** Money is held for it: refunded before the consultation can be cancelled (ConsultationPaid). */
const HELD: readonly PaymentStatus[] = [
  PAYMENT_STATUS.paid,
  PAYMENT_STATUS.refunding,
  PAYMENT_STATUS.partiallyRefunded,
];

/** The fee's payment status as a tag (the orders' labels), with the time it was paid; "Free" without a fee. */
export function FeeStatus({ fee }: { fee: ConsultationFee | null }) {
  const { t } = useTranslation();
  if (!fee) return <>{t('consultations.field.free')}</>;
  return (
    <span data-testid="consultation-fee-status">
      <Tag color={PAYMENT_COLOR[fee.paymentStatus]}>{t(`orders.payment.${PAYMENT_NAME[fee.paymentStatus]}`)}</Tag>
      {fee.paidAt && formatTime(fee.paidAt)}
    </span>
  );
}

/** The product and its price. */
export function FeeAmount({ fee }: { fee: ConsultationFee }) {
  return (
    <span>
      {fee.productName} · <Money fen={fee.priceFen} currency={fee.currency} strong />
    </span>
  );
}

/** The fee's payment page: /exams/{source exam}/apply-report/{order}. */
export function feePayPath(fee: ConsultationFee): string {
  return `/exams/${encodeURIComponent(fee.examId)}/apply-report/${encodeURIComponent(fee.orderId)}`;
}

/**
 * What the fee asks of the caller while the consultation is open: the requester pays it (the
 * experts accept only then); the target is told it waits for the payment; a requester whose fee is
 * held learns why the consultation cannot be cancelled.
 */
export function FeeNotice({ detail }: { detail: ConsultationDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fee = detail.fee;
  const open =
    detail.status === CONSULTATION_STATUS_VALUES.pending || detail.status === CONSULTATION_STATUS_VALUES.scheduled;
  if (!fee || !open) return null;
  const requester = detail.roles.includes('requester');
  const price = <Money fen={fee.priceFen} currency={fee.currency} strong />;
  if (fee.paymentStatus === PAYMENT_STATUS.unpaid && requester && fee.examId) {
    const to = feePayPath(fee);
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="consultation-fee-notice"
        title={
          <>
            {t('consultations.fee.unpaidRequester')} {price}
          </>
        }
        action={
          <Button
            type="primary"
            href={to}
            data-testid="consultation-fee-pay"
            onClick={(event) => {
              event.preventDefault();
              void navigate(to);
            }}
          >
            {t('consultations.fee.pay')}
          </Button>
        }
      />
    );
  }
  if (fee.paymentStatus === PAYMENT_STATUS.unpaid && detail.roles.includes('target')) {
    return (
      <Alert
        type="info"
        showIcon
        data-testid="consultation-fee-notice"
        title={
          <>
            {t('consultations.fee.unpaidTarget')} {price}
          </>
        }
      />
    );
  }
  if (HELD.includes(fee.paymentStatus) && requester && !detail.can.includes('cancel')) {
    return <Alert type="info" showIcon data-testid="consultation-fee-notice" title={t('consultations.fee.held')} />;
  }
  return null;
}

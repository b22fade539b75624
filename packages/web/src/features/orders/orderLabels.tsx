import { PAYMENT_STATUS, type InvoiceStatus, type Order, type OrderStatus, type PaymentStatus } from '@yyp/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { remaining } from './orderRules';

const STATUS_COLOR: Record<OrderStatus, string> = {
  applied: 'blue',
  reporting: 'gold',
  reported: 'green',
  cancelled: 'default',
};

/** The i18n key of a payment status code (orders.payment.<name>). */
export function paymentStatusName(status: PaymentStatus) {
  const found = (Object.keys(PAYMENT_STATUS) as (keyof typeof PAYMENT_STATUS)[]).find(
    (k) => PAYMENT_STATUS[k] === status,
  );
  return found ?? 'unpaid';
}

const PAYMENT_COLOR: Record<PaymentStatus, string> = { 0: 'orange', 1: 'green', 2: 'purple', 3: 'default', 4: 'cyan' };

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLOR[status]}>{t(`orders.status.${status}`)}</Tag>;
}

/** Payment status (spec 000 §4: 0 unpaid … 4 partially refunded); an order that needs no payment says so. */
export function PaymentStatusTag({ status, needsPayment = true }: { status: PaymentStatus; needsPayment?: boolean }) {
  const { t } = useTranslation();
  if (!needsPayment && status === 0) return <Tag>{t('orders.payment.free')}</Tag>;
  return <Tag color={PAYMENT_COLOR[status]}>{t(`orders.payment.${paymentStatusName(status)}`)}</Tag>;
}

export function InvoiceTag({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={status === 'issued' ? 'green' : status === 'applied' ? 'blue' : 'default'}>
      {t(`orders.invoice.${status}`)}
    </Tag>
  );
}

/** An order's deadline and the time left (or overdue), issue 24's turnaround promise. */
export function Remaining({ order }: { order: Order }) {
  const { t } = useTranslation();
  if (order.status === 'reported' || order.status === 'cancelled') return null;
  const left = remaining(order.deadlineAt, Date.now());
  if (!left) return <>{t('orders.list.noDeadline')}</>;
  return (
    <span className={left.overdue ? 'yyp-orders__overdue' : undefined}>
      {t(left.overdue ? 'orders.list.overdue' : 'orders.list.left', { hours: left.hours, minutes: left.minutes })}
    </span>
  );
}

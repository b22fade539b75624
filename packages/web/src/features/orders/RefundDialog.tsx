import { useMutation } from '@tanstack/react-query';
import { formatMoney, type Currency } from '@yyp/contracts';
import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey, refundPayment } from '../../api/billing';
import { useNotify } from '../../shared/notify/useNotify';
import { YuanInput } from '../../ui/YuanInput';

/**
 * A refund of (part of) a payment (payments/{no}/refund, issue 24): an amount in yuan up to what is
 * still refundable and a reason. One Idempotency-Key per dialog, so a retried click refunds once.
 */
export function RefundDialog({
  paymentNo,
  maxFen,
  currency,
  onClose,
}: {
  paymentNo: string;
  maxFen: number;
  currency: Currency;
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<{ amountFen: number | null; reason: string }>();
  const [key] = useState(newIdempotencyKey);
  const refund = useMutation({
    mutationFn: (v: { amountFen: number; reason: string }) => refundPayment(paymentNo, v, key),
    onSuccess: () => {
      notify.success(t('orders.refund.done'));
      onClose(true);
    },
    onError: notify.error,
  });
  return (
    <Modal
      open
      title={t('orders.refund.title')}
      okText={t('orders.refund.submit')}
      okButtonProps={{ danger: true, loading: refund.isPending }}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ amountFen: maxFen, reason: '' }}
        onFinish={(v) => refund.mutate({ amountFen: v.amountFen ?? 0, reason: v.reason.trim() })}
      >
        <Form.Item
          name="amountFen"
          label={t('orders.refund.amount', { max: formatMoney(maxFen, currency) })}
          rules={[
            {
              validator: (_rule, fen: number | null) =>
                fen !== null && fen !== undefined && fen >= 1 && fen <= maxFen
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('orders.refund.amountInvalid', { max: formatMoney(maxFen, currency) }))),
            },
          ]}
        >
          <YuanInput currency={currency} aria-label={t('orders.refund.amountLabel')} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('orders.refund.reason')}
          rules={[{ required: true, whitespace: true, message: t('orders.refund.reasonRequired') }, { max: 256 }]}
        >
          <Input.TextArea rows={2} maxLength={256} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

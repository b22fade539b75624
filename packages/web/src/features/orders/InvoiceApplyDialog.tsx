import { useMutation } from '@tanstack/react-query';
import { INVOICE_PHONE_PATTERN, formatMoney, type Order } from '@yyp/contracts';
import { Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { applyInvoice } from '../../api/billing';
import { useNotify } from '../../shared/notify/useNotify';

interface InvoiceValues {
  title: string;
  taxNo?: string;
  phone: string;
  email?: string;
}

/** An invoice for the selected orders (payments/apply-invoice; spec 000 §5 rules checked before it opens). */
export function InvoiceApplyDialog({ orders, onClose }: { orders: Order[]; onClose: (done: boolean) => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<InvoiceValues>();
  const currency = orders[0]?.currency ?? 'CNY';
  const total = orders.reduce((sum, o) => sum + o.paidFen - o.refundedFen, 0);
  const apply = useMutation({
    mutationFn: (v: InvoiceValues) =>
      applyInvoice({
        orderIds: orders.map((o) => o.id),
        title: v.title.trim(),
        taxNo: (v.taxNo ?? '').trim(),
        phone: v.phone.trim(),
        email: (v.email ?? '').trim(),
      }),
    onSuccess: () => {
      notify.success(t('orders.invoiceForm.done'));
      onClose(true);
    },
    onError: notify.error,
  });
  return (
    <Modal
      open
      title={t('orders.invoiceForm.apply')}
      okText={t('orders.invoiceForm.submit')}
      okButtonProps={{ loading: apply.isPending }}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
    >
      <Typography.Paragraph>
        {t('orders.invoiceForm.summary', { count: orders.length, total: formatMoney(total, currency) })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => apply.mutate(v)}>
        <Form.Item
          name="title"
          label={t('orders.invoiceForm.titleField')}
          rules={[{ required: true, whitespace: true }, { max: 128 }]}
        >
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="taxNo" label={t('orders.invoiceForm.taxNo')} rules={[{ max: 32 }]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('orders.invoiceForm.phone')}
          rules={[
            { required: true, message: t('orders.invoiceForm.phoneInvalid') },
            { pattern: INVOICE_PHONE_PATTERN, message: t('orders.invoiceForm.phoneInvalid') },
          ]}
        >
          <Input maxLength={24} inputMode="tel" />
        </Form.Item>
        <Form.Item name="email" label={t('orders.apply.email')} rules={[{ type: 'email' }]}>
          <Input maxLength={128} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

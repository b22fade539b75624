import { useMutation } from '@tanstack/react-query';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { issueInvoice } from '../../api/billing';
import { useNotify } from '../../shared/notify/useNotify';

/** The expert organization issues an applied invoice with its number (payments/issue-invoice; irreversible). */
export function IssueInvoiceButton({ invoiceId, onIssued }: { invoiceId: string; onIssued: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ invoiceNo: string }>();
  const issue = useMutation({
    mutationFn: (invoiceNo: string) => issueInvoice({ invoiceId, invoiceNo }),
    onSuccess: () => {
      setOpen(false);
      notify.success(t('orders.issue.done'));
      onIssued();
    },
    onError: notify.error,
  });
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t('orders.issue.open')}</Button>
      <Modal
        open={open}
        title={t('orders.issue.open')}
        okButtonProps={{ loading: issue.isPending }}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
      >
        <p>{t('orders.issue.irreversible')}</p>
        <Form form={form} layout="vertical" onFinish={(v) => issue.mutate(v.invoiceNo.trim())}>
          <Form.Item
            name="invoiceNo"
            label={t('orders.issue.number')}
            rules={[{ required: true, whitespace: true }, { max: 64 }]}
          >
            <Input maxLength={64} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

import { REPORT_REASON_MAX } from '@yyp/contracts';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

interface ReasonDialogProps {
  kind: 'reject' | 'recall' | null;
  onSubmit: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

/** Reject and recall need a reason (spec 000 §4); the writer reads it in the comments tab. */
export function ReasonDialog({ kind, onSubmit, onClose }: ReasonDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const title = kind === 'recall' ? t('report.reason.recallTitle') : t('report.reason.rejectTitle');

  async function handleOk() {
    // A missing reason shows under the field; a failed call was already reported. Either way: stay open.
    try {
      const { reason } = await form.validateFields();
      await onSubmit(reason.trim());
    } catch {
      return;
    }
    form.resetFields();
    onClose();
  }

  return (
    <Modal
      open={kind !== null}
      title={title}
      okText={kind ? t(`report.actions.${kind}`) : undefined}
      okButtonProps={{ danger: true }}
      onOk={handleOk}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="reason"
          label={t('report.reason.label')}
          rules={[{ required: true, whitespace: true, message: t('report.reason.required') }]}
        >
          <Input.TextArea
            autoFocus
            rows={4}
            maxLength={REPORT_REASON_MAX}
            showCount
            placeholder={t('report.reason.placeholder')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

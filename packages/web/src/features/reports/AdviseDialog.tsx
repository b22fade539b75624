import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchAdviceExperts } from '../../api/reports';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';

interface AdviseDialogProps {
  reportId: string;
  open: boolean;
  onSubmit: (expertIds: string[]) => Promise<unknown>;
  onClose: () => void;
}

/** Choose the experts whose advice is asked (they alone may edit the report until then). */
export function AdviseDialog({ reportId, open, onSubmit, onClose }: AdviseDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ expertIds: string[] }>();
  const experts = useQuery({
    queryKey: ['reports', reportId, 'advice-experts'],
    queryFn: ({ signal }) => fetchAdviceExperts(reportId, signal),
    enabled: open,
  });

  async function handleOk() {
    // Invalid choices show under the field; a failed call was already reported. Either way: stay open.
    try {
      const { expertIds } = await form.validateFields();
      await onSubmit(expertIds);
    } catch {
      return;
    }
    onClose();
  }

  return (
    <Modal
      open={open}
      title={t('report.advise.title')}
      okText={t('report.actions.advise')}
      onOk={handleOk}
      onCancel={onClose}
      destroyOnHidden
    >
      {experts.isError && <LoadFailedAlert error={experts.error} onRetry={() => void experts.refetch()} />}
      {experts.data?.length === 0 && <Alert type="info" showIcon title={t('report.advise.none')} />}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="expertIds"
          label={t('report.advise.experts')}
          rules={[{ required: true, type: 'array', min: 1, message: t('report.advise.required') }]}
        >
          <Select
            mode="multiple"
            loading={experts.isPending}
            placeholder={t('report.advise.placeholder')}
            options={(experts.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
            optionFilterProp="label"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

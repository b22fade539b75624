import { CheckOutlined, DeleteOutlined, PrinterOutlined, ScheduleOutlined, StopOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { CONSULTATION_STATUS_VALUES, MAX_NOTE_LENGTH, type ConsultationDetail } from '@yyp/contracts';
import { Alert, App, Button, DatePicker, Form, Input, Modal, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  cancelConsultation,
  changeConsultationStatus,
  deleteConsultation,
  fetchConsultationPdf,
} from '../../api/consultations';
import { currentLanguage } from '../../i18n';
import { requiredRule } from '../../shared/forms/formRules';
import { useNotify } from '../../shared/notify/useNotify';
import { useDetailChange } from './useConsultation';

/**
 * The header's actions: exactly those of the detail's `can` (consultation-rules.ts allowedOps):
 * accept with a time, complete, cancel with a reason (cannot be undone), delete, print.
 */
export function DetailActions({ detail }: { detail: ConsultationDetail }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const navigate = useNavigate();
  const { applied, failed } = useDetailChange(detail.id);
  const [dialog, setDialog] = useState<'schedule' | 'cancel' | null>(null);
  const can = new Set(detail.can);
  const close = () => setDialog(null);

  const schedule = useMutation({
    mutationFn: (at: Dayjs) =>
      changeConsultationStatus(detail.id, {
        status: CONSULTATION_STATUS_VALUES.scheduled,
        scheduledAt: at.format(),
        version: detail.version,
      }),
    onSuccess: (d) => {
      close();
      applied(d, t('consultations.action.scheduled'));
    },
    onError: failed,
  });
  const complete = useMutation({
    mutationFn: () =>
      changeConsultationStatus(detail.id, { status: CONSULTATION_STATUS_VALUES.completed, version: detail.version }),
    onSuccess: (d) => applied(d, t('consultations.action.completed')),
    onError: failed,
  });
  const cancel = useMutation({
    mutationFn: (reason: string) => cancelConsultation(detail.id, reason.trim(), detail.version),
    onSuccess: (d) => {
      close();
      applied(d, t('consultations.action.canceled'));
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => deleteConsultation(detail.id),
    onSuccess: () => {
      notify.success(t('consultations.action.deleted'));
      void navigate('/consultations');
    },
    onError: notify.error,
  });
  const print = useMutation({
    mutationFn: async () => {
      // opened before the wait, so the browser treats it as the click's window
      const tab = window.open('', '_blank');
      try {
        const blob = await fetchConsultationPdf(detail.id, currentLanguage());
        if (tab) tab.location.href = URL.createObjectURL(blob);
      } catch (error) {
        tab?.close();
        throw error;
      }
    },
    onSuccess: () => notify.info(t('consultations.action.printOpened')),
    onError: notify.error,
  });

  return (
    <Space wrap>
      {can.has('schedule') && (
        <Button type="primary" icon={<ScheduleOutlined />} onClick={() => setDialog('schedule')}>
          {t('consultations.action.schedule')}
        </Button>
      )}
      {can.has('complete') && (
        <Button
          type="primary"
          icon={<CheckOutlined />}
          loading={complete.isPending}
          onClick={() =>
            modal.confirm({
              title: t('consultations.action.complete'),
              content: t('consultations.action.confirmComplete'),
              onOk: () => complete.mutateAsync(),
            })
          }
        >
          {t('consultations.action.complete')}
        </Button>
      )}
      {can.has('print') && (
        <Button icon={<PrinterOutlined />} loading={print.isPending} onClick={() => print.mutate()}>
          {t('consultations.action.print')}
        </Button>
      )}
      {can.has('cancel') && (
        <Button danger icon={<StopOutlined />} onClick={() => setDialog('cancel')}>
          {t('consultations.action.cancel')}
        </Button>
      )}
      {can.has('delete') && (
        <Button
          danger
          icon={<DeleteOutlined />}
          onClick={() =>
            modal.confirm({
              title: t('consultations.action.delete'),
              content: t('consultations.action.confirmDelete'),
              okButtonProps: { danger: true },
              onOk: () => remove.mutateAsync(),
            })
          }
        >
          {t('consultations.action.delete')}
        </Button>
      )}
      <Modal
        open={dialog === 'schedule'}
        title={t('consultations.action.scheduleTitle')}
        onCancel={close}
        footer={null}
        destroyOnHidden
      >
        <Form<{ scheduledAt: Dayjs }>
          layout="vertical"
          name="consultationSchedule"
          initialValues={{ scheduledAt: dayjs(detail.scheduledAt) }}
          onFinish={(v) => schedule.mutate(v.scheduledAt)}
        >
          <Form.Item
            name="scheduledAt"
            label={t('consultations.field.scheduledAt')}
            rules={[{ required: true, message: t('common.required', { field: t('consultations.field.scheduledAt') }) }]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
          <DialogButtons onCancel={close} pending={schedule.isPending} ok={t('consultations.action.schedule')} />
        </Form>
      </Modal>
      <Modal
        open={dialog === 'cancel'}
        title={t('consultations.action.cancelTitle')}
        onCancel={close}
        footer={null}
        destroyOnHidden
      >
        <Alert type="warning" showIcon title={t('consultations.action.cancelWarning')} style={{ marginBottom: 16 }} />
        <Form<{ reason: string }> layout="vertical" name="consultationCancel" onFinish={(v) => cancel.mutate(v.reason)}>
          <Form.Item
            name="reason"
            label={t('consultations.action.cancelReason')}
            rules={[requiredRule(t, t('consultations.action.cancelReason')), { max: MAX_NOTE_LENGTH }]}
          >
            <Input.TextArea rows={3} maxLength={MAX_NOTE_LENGTH} autoFocus />
          </Form.Item>
          <DialogButtons onCancel={close} pending={cancel.isPending} ok={t('consultations.action.cancel')} danger />
        </Form>
      </Modal>
    </Space>
  );
}

function DialogButtons(props: { onCancel: () => void; pending: boolean; ok: string; danger?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="yyp-modal-actions">
      <Button onClick={props.onCancel}>{t('common.cancel')}</Button>
      <Button type="primary" danger={props.danger} htmlType="submit" loading={props.pending}>
        {props.ok}
      </Button>
    </div>
  );
}

import {
  CRITICAL_VALUE_LEVELS,
  CRITICAL_VALUE_NOTE_MAX,
  CRITICAL_VALUE_PERSON_MAX,
  MAX_CRITICAL_VALUE_LENGTH,
  type CriticalValueLevel,
  type HandleCriticalValueBody,
  type ReceiveCriticalValueBody,
  type ReportCriticalValueBody,
} from '@yyp/contracts';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCriticalDictionary } from './useCriticalDictionary';

/** Runs the dialog's call; a refused form or a failed call (already told) keeps the dialog open. */
async function submitWith<T>(validate: () => Promise<T>, send: (values: T) => Promise<unknown>, close: () => void) {
  try {
    await send(await validate());
  } catch {
    return;
  }
  close();
}

interface ReportDialogProps {
  open: boolean;
  bucketId: string;
  onSubmit: (body: ReportCriticalValueBody) => Promise<unknown>;
  onClose: () => void;
}

/** Report a critical value: pick it from the organization's dictionary or describe it (≤ 255). */
export function ReportCriticalValueDialog({ open, bucketId, onSubmit, onClose }: ReportDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ itemId?: string; text: string; level?: CriticalValueLevel }>();
  const dictionary = useCriticalDictionary(bucketId, open);

  function handlePick(itemId: string | undefined) {
    const item = dictionary.data?.find((i) => i.id === itemId);
    if (item && !form.getFieldValue('text')) {
      form.setFieldValue('text', item.name);
    }
    // The entry's level fills the level field, never the text: they are kept apart.
    const level = CRITICAL_VALUE_LEVELS.find((l) => l === item?.data.level);
    if (level && !form.getFieldValue('level')) {
      form.setFieldValue('level', level);
    }
  }

  return (
    <Modal
      open={open}
      title={t('reportSafety.critical.dialogTitle')}
      okText={t('reportSafety.critical.submit')}
      okButtonProps={{ danger: true }}
      onOk={() =>
        submitWith(
          () => form.validateFields(),
          (v) =>
            onSubmit({
              text: v.text.trim(),
              ...(v.itemId ? { itemId: v.itemId } : {}),
              ...(v.level ? { level: v.level } : {}),
            }),
          onClose,
        )
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="itemId" label={t('reportSafety.critical.item')}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            loading={dictionary.isPending}
            placeholder={t('reportSafety.critical.itemPlaceholder')}
            options={(dictionary.data ?? []).map((i) => ({ value: i.id, label: i.name }))}
            onChange={handlePick}
          />
        </Form.Item>
        <Form.Item
          name="text"
          label={t('reportSafety.critical.text')}
          rules={[{ required: true, whitespace: true, message: t('reportSafety.critical.textRequired') }]}
        >
          <Input.TextArea rows={3} maxLength={MAX_CRITICAL_VALUE_LENGTH} showCount />
        </Form.Item>
        <Form.Item name="level" label={t('reportSafety.critical.level')}>
          <Select
            allowClear
            placeholder={t('reportSafety.critical.levelPlaceholder')}
            options={CRITICAL_VALUE_LEVELS.map((l) => ({ value: l, label: t(`reportSafety.critical.levels.${l}`) }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface ReceiveDialogProps {
  open: boolean;
  onSubmit: (body: ReceiveCriticalValueBody) => Promise<unknown>;
  onClose: () => void;
}

/** The ordering side's acknowledgement: who took it, who confirmed the read-back, what was read back. */
export function ReceiveCriticalValueDialog({ open, onSubmit, onClose }: ReceiveDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ReceiveCriticalValueBody>();
  const required = [{ required: true, whitespace: true, message: t('reportSafety.critical.required') }];
  return (
    <Modal
      open={open}
      title={t('reportSafety.critical.receiveTitle')}
      okText={t('reportSafety.critical.receive')}
      onOk={() =>
        submitWith(
          () => form.validateFields(),
          (v) =>
            onSubmit({
              receiver: v.receiver.trim(),
              confirmor: v.confirmor.trim(),
              readbackOpinion: v.readbackOpinion.trim(),
            }),
          onClose,
        )
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('reportSafety.critical.receiveHint')} className="yyp-safety__hint" />
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="receiver" label={t('reportSafety.critical.receiver')} rules={required}>
          <Input maxLength={CRITICAL_VALUE_PERSON_MAX} />
        </Form.Item>
        <Form.Item name="confirmor" label={t('reportSafety.critical.confirmor')} rules={required}>
          <Input maxLength={CRITICAL_VALUE_PERSON_MAX} />
        </Form.Item>
        <Form.Item name="readbackOpinion" label={t('reportSafety.critical.readback')} rules={required}>
          <Input.TextArea rows={3} maxLength={CRITICAL_VALUE_NOTE_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface HandleDialogProps {
  open: boolean;
  onSubmit: (body: HandleCriticalValueBody) => Promise<unknown>;
  onClose: () => void;
}

/** Close a received critical value, with an optional note on what was done. */
export function HandleCriticalValueDialog({ open, onSubmit, onClose }: HandleDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ handleNote?: string }>();
  return (
    <Modal
      open={open}
      title={t('reportSafety.critical.handleTitle')}
      okText={t('reportSafety.critical.handle')}
      onOk={() =>
        submitWith(
          () => form.validateFields(),
          (v) => onSubmit(v.handleNote?.trim() ? { handleNote: v.handleNote.trim() } : {}),
          onClose,
        )
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="handleNote" label={t('reportSafety.critical.handleNote')}>
          <Input.TextArea rows={3} maxLength={CRITICAL_VALUE_NOTE_MAX} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

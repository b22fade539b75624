import { DeleteOutlined } from '@ant-design/icons';
import { Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../shared/notify/useNotify';
import { ConfirmByNameModal } from './ConfirmByNameModal';

export interface DeleteByNameCardProps {
  /** the action label, e.g. "Delete group" */
  label: string;
  description: string;
  /** the name to type (spec 000 §5) */
  name: string;
  remove: () => Promise<unknown>;
  /** after a successful delete: toasts and navigation are the caller's */
  onDeleted: () => Promise<void> | void;
}

/** A danger-zone card whose delete button asks for the exact name first. */
export function DeleteByNameCard({ label, description, name, remove, onDeleted }: DeleteByNameCardProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [open, setOpen] = useState(false);

  async function handleConfirm() {
    try {
      await remove();
    } catch (error) {
      notify.error(error);
      throw error;
    }
    setOpen(false);
    await onDeleted();
  }

  return (
    <Card variant="borderless" title={t('group.dangerTitle')} className="yyp-danger-card">
      <div className="yyp-danger-row">
        <div>
          <Typography.Text strong>{label}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{description}</Typography.Text>
        </div>
        <Button danger icon={<DeleteOutlined />} onClick={() => setOpen(true)}>
          {label}
        </Button>
      </div>
      <ConfirmByNameModal
        open={open}
        title={label}
        description={description}
        name={name}
        confirmLabel={label}
        onConfirm={handleConfirm}
        onCancel={() => setOpen(false)}
      />
    </Card>
  );
}

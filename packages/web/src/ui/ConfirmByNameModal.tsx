import { ExclamationCircleFilled } from '@ant-design/icons';
import { Alert, Button, Input, Modal, Typography } from 'antd';
import { useId, useState, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';

interface ConfirmByNameModalProps {
  open: boolean;
  title: ReactNode;
  /** What will be lost; shown as a warning above the name field. */
  description?: ReactNode;
  /** The exact name the user must type (spec 000 §5: deleting a group, organization or role). */
  name: string;
  /** Label of the danger button, e.g. "Delete organization". */
  confirmLabel: ReactNode;
  /** May return a promise; the dialog shows it pending and stays open if it rejects. */
  onConfirm: () => unknown;
  onCancel: () => void;
}

/** A destructive confirmation that stays disabled until the exact name is typed. */
export function ConfirmByNameModal(props: ConfirmByNameModalProps) {
  const { open, title, onCancel } = props;
  return (
    <Modal
      open={open}
      title={
        <span className="yyp-modal-title-icon">
          <ExclamationCircleFilled className="yyp-danger-icon" />
          {title}
        </span>
      }
      onCancel={onCancel}
      destroyOnHidden
      footer={null}
    >
      {/* Mounted only while open, so the typed name never outlives one confirmation. */}
      {open && <ConfirmByNameBody {...props} />}
    </Modal>
  );
}

function ConfirmByNameBody({ description, name, confirmLabel, onConfirm, onCancel }: ConfirmByNameModalProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  const matches = typed === name;

  async function handleConfirm() {
    if (!matches || pending) {
      return;
    }
    setPending(true);
    try {
      await onConfirm();
    } catch {
      // The caller reported the failure; the dialog stays for another try.
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="yyp-confirm-name">
      {description && <Alert type="warning" showIcon title={description} />}
      <label htmlFor={inputId} className="yyp-confirm-name__prompt">
        <Trans i18nKey="confirmByName.prompt" values={{ name }} components={{ strong: <strong /> }} />
      </label>
      <Input
        id={inputId}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        onPressEnter={() => void handleConfirm()}
        placeholder={t('confirmByName.placeholder')}
        status={typed !== '' && !matches && !name.startsWith(typed) ? 'error' : undefined}
        autoComplete="off"
        autoFocus
      />
      {typed !== '' && !matches && !name.startsWith(typed) && (
        <Typography.Text type="danger">{t('confirmByName.mismatch')}</Typography.Text>
      )}
      <div className="yyp-modal-actions">
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button type="primary" danger disabled={!matches} loading={pending} onClick={() => void handleConfirm()}>
          {confirmLabel}
        </Button>
      </div>
    </div>
  );
}

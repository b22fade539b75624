import { Button, ColorPicker, Form, Modal } from 'antd';
import type { Color } from 'antd/es/color-picker';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The add / edit dialog of a settings form: no footer of its own (the form's buttons close it),
 * and its content is mounted only while open, so each opening starts from the item's values.
 */
export function FormModal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} destroyOnHidden>
      {open && children}
    </Modal>
  );
}

/** Cancel and submit at the foot of a dialog's form; the submit button says Save unless told. */
export function FormModalActions({
  onCancel,
  pending,
  submitText,
}: {
  onCancel: () => void;
  pending: boolean;
  submitText?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="yyp-modal-actions">
      <Button onClick={onCancel}>{t('common.cancel')}</Button>
      <Button type="primary" htmlType="submit" loading={pending}>
        {submitText ?? t('common.save')}
      </Button>
    </div>
  );
}

/** The color pickers answer Color objects; the contracts store '#rrggbb'. */
export function toHex(color: Color): string {
  return color.toHexString().slice(0, 7);
}

/** A form field holding a colour as '#rrggbb', chosen with a picker that shows its code. */
export function HexColorItem({ name, label }: { name: string; label: ReactNode }) {
  return (
    <Form.Item name={name} label={label} getValueFromEvent={toHex}>
      <ColorPicker format="hex" disabledAlpha showText />
    </Form.Item>
  );
}

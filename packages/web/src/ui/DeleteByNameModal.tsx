import { useNotify } from '../shared/notify/useNotify';
import { ConfirmByNameModal } from './ConfirmByNameModal';

interface DeleteByNameModalProps<T extends { name: string }> {
  /** the row being deleted; null while the dialog is closed */
  row: T | null;
  /** the action label, e.g. "Delete role": the dialog's title and its danger button */
  label: string;
  /** what will be lost, for the row of that name */
  description: (name: string) => string;
  /** the delete call of the row */
  remove: (row: T) => Promise<unknown>;
  /** the toast once the row is gone */
  deleted: (name: string) => string;
  /** what to refresh after a delete */
  afterDelete: () => Promise<unknown>;
  onClose: () => void;
}

/** Deleting a table's row by typing its name first (spec 000 §5): the dialog, the call and its toasts. */
export function DeleteByNameModal<T extends { name: string }>({
  row,
  label,
  description,
  remove,
  deleted,
  afterDelete,
  onClose,
}: DeleteByNameModalProps<T>) {
  const notify = useNotify();

  async function handleConfirm() {
    if (!row) {
      return;
    }
    try {
      await remove(row);
    } catch (error) {
      notify.error(error);
      throw error;
    }
    notify.success(deleted(row.name));
    onClose();
    await afterDelete();
  }

  return (
    <ConfirmByNameModal
      open={row !== null}
      title={label}
      description={row ? description(row.name) : undefined}
      name={row?.name ?? ''}
      confirmLabel={label}
      onConfirm={handleConfirm}
      onCancel={onClose}
    />
  );
}

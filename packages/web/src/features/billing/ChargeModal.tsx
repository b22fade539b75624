import type { ChargeCreated } from '@yyp/contracts';
import { Modal } from 'antd';
import { useMemo } from 'react';
import { confirmChargePaid, fetchChargeQr, fetchChargeStatus } from '../../api/billing';
import { PaymentPanel, type PaymentSource } from './PaymentPanel';

/**
 * A purchase's charge (a WeChat top-up, a plan package) paid in a dialog: the QR, its time left and
 * live status of PaymentPanel, read with the charge's token (charge/{id}/*), as the /charge page does.
 */
export function ChargeModal({
  title,
  charge,
  onPaid,
  onClose,
}: {
  title: string;
  charge: ChargeCreated | null;
  onPaid: () => void;
  onClose: () => void;
}) {
  const source = useMemo<PaymentSource | null>(
    () =>
      charge && {
        key: ['charge', charge.id],
        qr: (refresh, signal) => fetchChargeQr(charge.id, charge.token, refresh, signal),
        status: (signal) => fetchChargeStatus(charge.id, charge.token, signal),
        confirm: () => confirmChargePaid(charge.id, charge.token),
      },
    [charge],
  );
  return (
    <Modal open={Boolean(charge)} title={title} onCancel={onClose} footer={null} destroyOnHidden aria-label={title}>
      {source && <PaymentPanel source={source} onPaid={onPaid} />}
    </Modal>
  );
}

import { useMutation } from '@tanstack/react-query';
import { Button, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { applyCharge } from '../../api/billing';
import { useNotify } from '../../shared/notify/useNotify';
import { chargePagePath } from './chargeToken';

/**
 * A payment link for another device or person (charge/apply-charge): /charge/{id}?token=…, the public
 * page that keeps the charge token in its session storage. Shown once; anyone holding it can pay.
 */
export function PaymentLink({ orderId }: { orderId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const create = useMutation({ mutationFn: () => applyCharge(orderId), onError: notify.error });
  if (!create.data) {
    return (
      <Button type="link" loading={create.isPending} onClick={() => create.mutate()}>
        {t('billing.link.create')}
      </Button>
    );
  }
  const url = `${window.location.origin}${chargePagePath(create.data.id, create.data.token)}`;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('billing.link.hint')}</Typography.Text>
      <Input readOnly value={url} aria-label={t('billing.link.label')} data-testid="payment-link" />
    </Space>
  );
}

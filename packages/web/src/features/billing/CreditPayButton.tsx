import { useMutation, useQuery } from '@tanstack/react-query';
import { formatMoney, type Order } from '@yyp/contracts';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { chargeFromCredit } from '../../api/billing';
import { createCreditToken, fetchBucketCredit } from '../../api/credits';
import { hasCode } from '../../api/errors';
import { errorMessage } from '../../api/errorMessage';
import { PageSpinner } from '../../ui/PageSpinner';
import { paymentMessage } from './paymentState';

/**
 * Paying an order from the group's balance (issue 24): the balance first (buckets/{id}/credit), then
 * credits/create-token (a short-lived single-use bearer) and credits/charge with it.
 */
export function CreditPayButton({ order, onPaid }: { order: Order; onPaid: () => void }) {
  const { t } = useTranslation();
  const credit = useQuery({
    queryKey: ['credits', 'bucket', order.requestBucketId],
    queryFn: ({ signal }) => fetchBucketCredit(order.requestBucketId, signal),
  });
  const pay = useMutation({
    mutationFn: async () => {
      const token = await createCreditToken(order.id);
      return chargeFromCredit(order.id, token.token);
    },
    onSuccess: onPaid,
    onError: () => void credit.refetch(),
  });
  if (credit.isPending) return <PageSpinner />;
  const balance = credit.data?.balances.find((b) => b.currency === order.currency)?.amountFen ?? 0;
  const enough = balance >= order.priceFen;
  const failure = pay.error
    ? hasCode(pay.error, 'InsufficientCredit')
      ? errorMessage(t, pay.error)
      : t(`billing.pay.message.${paymentMessage(pay.error)}`)
    : null;
  return (
    <Space orientation="vertical" size="middle" align="center" style={{ width: '100%' }}>
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
      {credit.error || !credit.data?.enabled ? (
        <Typography.Text type="secondary">{t('billing.credit.off')}</Typography.Text>
      ) : (
        <>
          <Typography.Text data-testid="credit-balance">
            {t('billing.credit.balance', { balance: formatMoney(balance, order.currency) })}
          </Typography.Text>
          {!enough && <Typography.Text type="danger">{t('errors.InsufficientCredit')}</Typography.Text>}
          <Button type="primary" disabled={!enough} loading={pay.isPending} onClick={() => pay.mutate()}>
            {t('billing.credit.pay', { amount: formatMoney(order.priceFen, order.currency) })}
          </Button>
        </>
      )}
    </Space>
  );
}

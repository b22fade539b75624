import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CHARGE_PAGE_SIZE, formatMoney, planPackageById, type OwnCharge } from '@yyp/contracts';
import { Card, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchOwnCharges } from '../../api/purchases';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';
import { packageName } from './PlanPackagesCard';

const STATUS_COLOR = { pending: 'gold', paid: 'green', closed: 'default' } as const;

/** "我的支付": the caller's own charges (charge/request), newest first: what for, amount, how, status. */
export function MyChargesCard() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const charges = useQuery({
    queryKey: ['charges', 'mine', page],
    queryFn: ({ signal }) => fetchOwnCharges({ limit: CHARGE_PAGE_SIZE, skip: (page - 1) * CHARGE_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const forWhat = (c: OwnCharge) => {
    switch (c.purpose) {
      case 'topup':
        return t('billing.purchase.forTopUp');
      case 'plan': {
        const pkg = c.packageId ? planPackageById(c.packageId) : undefined;
        return t('billing.purchase.forPlan', {
          name: pkg ? packageName(t, pkg) : (c.packageId ?? ''),
          org: c.bucketName ?? '',
        });
      }
      case 'duplicate':
        return t('billing.purchase.forDuplicate', { no: c.orderNo ?? '' });
      default:
        return t('billing.purchase.forOrder', { no: c.orderNo ?? '' });
    }
  };
  return (
    <Card title={t('billing.purchase.mine')} data-testid="my-charges">
      {charges.error ? (
        <LoadFailedAlert error={charges.error} onRetry={() => void charges.refetch()} />
      ) : (
        <Table<OwnCharge>
          size="small"
          rowKey="id"
          loading={charges.isFetching}
          dataSource={charges.data?.data ?? []}
          pagination={{
            current: page,
            pageSize: CHARGE_PAGE_SIZE,
            total: charges.data?.count ?? 0,
            onChange: setPage,
          }}
          columns={[
            {
              title: t('billing.purchase.created'),
              dataIndex: 'created',
              render: (c: string) => new Date(c).toLocaleString(),
            },
            { title: t('billing.purchase.for'), key: 'for', render: (_: unknown, c) => forWhat(c) },
            {
              title: t('billing.purchase.amount'),
              key: 'amount',
              align: 'right',
              render: (_: unknown, c) => (
                <>
                  <Money fen={c.amountFen} currency={c.currency} />
                  {c.refundedFen > 0 && (
                    <div>
                      <Tag>{t('billing.purchase.refunded', { amount: formatMoney(c.refundedFen, c.currency) })}</Tag>
                    </div>
                  )}
                </>
              ),
            },
            {
              title: t('billing.purchase.channel'),
              dataIndex: 'channel',
              render: (ch: OwnCharge['channel']) => t(`billing.channel.${ch}`),
            },
            {
              title: t('billing.purchase.status'),
              dataIndex: 'status',
              render: (s: OwnCharge['status']) => (
                <Tag color={STATUS_COLOR[s]}>{t(`billing.purchase.rowStatus.${s}`)}</Tag>
              ),
            },
            {
              title: t('billing.purchase.paidAt'),
              dataIndex: 'paidAt',
              render: (p: string | null) => (p ? new Date(p).toLocaleString() : '—'),
            },
          ]}
        />
      )}
    </Card>
  );
}

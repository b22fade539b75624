import { useMutation, useQuery } from '@tanstack/react-query';
import { CREDIT_PAGE_SIZE, type CreditLine, type LedgerKind } from '@yyp/contracts';
import { Button, Card, Form, Input, Select, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { newIdempotencyKey } from '../../api/billing';
import { fetchGroupCredit, queryCreditLines, topUpCredit } from '../../api/credits';
import { ApiError } from '../../api/errors';
import { useMe } from '../../shared/account/useMe';
import { useDomain } from '../../shared/domain/useDomain';
import { useMyGroups } from '../../shared/groups/useGroups';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';
import { PageSpinner } from '../../ui/PageSpinner';
import { YuanInput } from '../../ui/YuanInput';
import { EarningsCard } from './EarningsCard';
import { ExpertSettingsCard } from './ExpertSettingsCard';
import { MyChargesCard } from './MyChargesCard';
import { PlanPackagesCard } from './PlanPackagesCard';
import { WeixinTopUp } from './WeixinTopUp';
import { InvoicesCard } from './InvoicesCard';

/**
 * /settings/billing (spec 000 §2: shown only when the domain's payment service is on, else /404):
 * a group's balance, its statement (credits/page-query: top-ups, credit payments, refunds, lateness
 * credits), a platform admin's top-up, and the expert organizations' products and invoice settings.
 */
export function BillingSettingsPage() {
  const { t } = useTranslation();
  const { domain, isLoaded } = useDomain();
  const groups = useMyGroups();
  const [groupId, setGroupId] = useState<string | undefined>();
  useEffect(() => {
    if (!groupId && groups.data?.[0]) setGroupId(groups.data[0].id);
  }, [groupId, groups.data]);

  if (!isLoaded) return <PageSpinner />;
  if (!domain.enablePaymentService) return <Navigate to="/404" replace />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('billing.settings.title')}</Typography.Title>
      <Select
        aria-label={t('billing.settings.group')}
        style={{ minWidth: 220 }}
        value={groupId}
        onChange={setGroupId}
        options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.displayName }))}
      />
      {groupId && <GroupCreditCard groupId={groupId} />}
      {groupId && <PlanPackagesCard groupId={groupId} />}
      <MyChargesCard />
      <ExpertSettingsCard />
      <EarningsCard />
      <InvoicesCard />
    </Space>
  );
}

function GroupCreditCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const [page, setPage] = useState(1);
  const credit = useQuery({
    queryKey: ['credits', 'group', groupId],
    queryFn: ({ signal }) => fetchGroupCredit(groupId, signal),
  });
  const lines = useQuery({
    queryKey: ['credits', 'group', groupId, 'lines', page],
    queryFn: ({ signal }) =>
      queryCreditLines(groupId, { limit: CREDIT_PAGE_SIZE, skip: (page - 1) * CREDIT_PAGE_SIZE }, signal),
  });
  const refresh = () => void Promise.all([credit.refetch(), lines.refetch()]);

  // Not the caller's to see (credits/group-credit needs the group's admins or an ordering member):
  // said plainly, not as a failure to retry.
  if (credit.error instanceof ApiError && credit.error.status === 403) {
    return (
      <Card title={t('billing.settings.balance')}>
        <Typography.Text type="secondary">{t('billing.settings.balanceNotYours')}</Typography.Text>
      </Card>
    );
  }
  return (
    <Card title={t('billing.settings.balance')}>
      {credit.error ? (
        <LoadFailedAlert error={credit.error} onRetry={refresh} />
      ) : (
        <Space size="large" wrap>
          {(credit.data?.balances.length ? credit.data.balances : [{ currency: 'CNY' as const, amountFen: 0 }]).map(
            (b) => (
              <Statistic
                key={b.currency}
                title={t('billing.settings.balanceIn', { currency: b.currency })}
                valueRender={() => <Money fen={b.amountFen} currency={b.currency} />}
              />
            ),
          )}
          {credit.data && !credit.data.enabled && <Tag>{t('billing.credit.off')}</Tag>}
          <WeixinTopUp groupId={groupId} />
        </Space>
      )}
      {me?.isPlatformAdmin && <TopUpForm groupId={groupId} onDone={refresh} />}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('billing.settings.statement')}
      </Typography.Title>
      <Table<CreditLine>
        size="small"
        rowKey="txnId"
        loading={lines.isFetching}
        dataSource={lines.data?.data ?? []}
        pagination={{ current: page, pageSize: CREDIT_PAGE_SIZE, total: lines.data?.count ?? 0, onChange: setPage }}
        columns={[
          {
            title: t('orders.list.created'),
            dataIndex: 'created',
            render: (c: string) => new Date(c).toLocaleString(),
          },
          {
            title: t('orders.detail.kind'),
            dataIndex: 'kind',
            render: (k: LedgerKind) => <Tag>{t(`orders.ledgerKind.${k}`)}</Tag>,
          },
          {
            title: t('billing.order.amount'),
            key: 'amount',
            align: 'right',
            render: (_: unknown, l) => <Money fen={l.amountFen} currency={l.currency} />,
          },
          { title: t('billing.settings.memo'), dataIndex: 'memo' },
          { title: t('billing.settings.ref'), dataIndex: 'ref' },
        ]}
      />
    </Card>
  );
}

/** A top-up recorded by a platform admin (an offline transfer); one Idempotency-Key per form. */
function TopUpForm({ groupId, onDone }: { groupId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<{ amountFen: number | null; memo: string }>();
  const [key, setKey] = useState(newIdempotencyKey);
  const topUp = useMutation({
    mutationFn: (v: { amountFen: number; memo: string }) =>
      topUpCredit({ groupId, amountFen: v.amountFen, memo: v.memo }, key),
    onSuccess: () => {
      notify.success(t('billing.settings.toppedUp'));
      form.resetFields();
      setKey(newIdempotencyKey());
      onDone();
    },
    onError: notify.error,
  });
  return (
    <Form
      form={form}
      layout="inline"
      style={{ marginTop: 16 }}
      onFinish={(v) => topUp.mutate({ amountFen: v.amountFen ?? 0, memo: (v.memo ?? '').trim() })}
    >
      <Form.Item
        name="amountFen"
        rules={[
          {
            validator: (_r, fen: number | null | undefined) =>
              fen ? Promise.resolve() : Promise.reject(new Error(t('billing.settings.amountInvalid'))),
          },
        ]}
      >
        <YuanInput
          currency="CNY"
          aria-label={t('billing.settings.topUpAmount')}
          placeholder={t('billing.settings.topUpAmount')}
        />
      </Form.Item>
      <Form.Item name="memo">
        <Input maxLength={200} placeholder={t('billing.settings.memo')} aria-label={t('billing.settings.memo')} />
      </Form.Item>
      <Button htmlType="submit" loading={topUp.isPending}>
        {t('billing.settings.topUp')}
      </Button>
    </Form>
  );
}

import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChargeCreated, PlanCheck, PlanPackage } from '@yyp/contracts';
import { Alert, Button, Card, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { buyPackage, fetchPackages, fetchPlanCheck } from '../../api/purchases';
import { useGroupOrganizations, useMyGroups } from '../../shared/groups/useGroups';
import { useNotify } from '../../shared/notify/useNotify';
import { Money } from '../../ui/Money';
import { ChargeModal } from './ChargeModal';

/** A package as people read it: "1000 例 / 365 天", "不限例数 / 365 天", "100 例（一次性）". */
export function packageName(t: TFunction, p: Pick<PlanPackage, 'kind' | 'quota' | 'validityDays'>): string {
  if (p.kind === 'oneTime') return t('billing.purchase.packageName.oneTime', { quota: p.quota ?? '∞' });
  return p.quota === null
    ? t('billing.purchase.packageName.periodUnlimited', { days: p.validityDays })
    : t('billing.purchase.packageName.period', { quota: p.quota, days: p.validityDays });
}

/**
 * "套餐" (issue 24: plans and quotas for private organizations): for the private organizations of
 * the group the caller administers (as the organization's admin or the group's), the current plan
 * (plans/check), the packages with their prices (packages/query) and a Buy button: a WeChat charge
 * (packages/buy) paid in a dialog; once settled the plan is read again.
 */
export function PlanPackagesCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const groups = useMyGroups();
  const orgs = useGroupOrganizations(groupId);
  const groupAdmin = groups.data?.some((g) => g.id === groupId && g.accessLevel === 1) ?? false;
  const mine = (orgs.data ?? []).filter((o) => o.isPrivate && (groupAdmin || o.accessLevel === 'admin'));
  const [bucketId, setBucketId] = useState<string | undefined>();
  useEffect(() => {
    if (!mine.some((o) => o.id === bucketId)) setBucketId(mine[0]?.id);
  }, [mine, bucketId]);
  const packages = useQuery({
    queryKey: ['plans', 'packages'],
    queryFn: ({ signal }) => fetchPackages(signal),
    enabled: mine.length > 0,
  });
  const check = useQuery({
    queryKey: ['plans', 'check', bucketId],
    queryFn: ({ signal }) => fetchPlanCheck(bucketId!, signal),
    enabled: Boolean(bucketId),
  });
  const [buying, setBuying] = useState<{ pkg: PlanPackage; charge: ChargeCreated } | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  if (mine.length === 0) return null;

  const buy = async (pkg: PlanPackage) => {
    if (!bucketId) return;
    setPending(pkg.id);
    try {
      setBuying({ pkg, charge: await buyPackage(bucketId, pkg.id) });
    } catch (error) {
      notify.error(error);
    } finally {
      setPending(null);
    }
  };

  return (
    <Card title={t('billing.purchase.plans')} data-testid="plan-packages">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('billing.purchase.plansHint')}</Typography.Text>
        <Space wrap>
          <Select
            aria-label={t('billing.purchase.organization')}
            style={{ minWidth: 220 }}
            value={bucketId}
            onChange={setBucketId}
            options={mine.map((o) => ({ value: o.id, label: o.name }))}
          />
          {check.data && <PlanState check={check.data} />}
        </Space>
        <Table<PlanPackage>
          size="small"
          rowKey="id"
          pagination={false}
          loading={packages.isFetching}
          dataSource={packages.data ?? []}
          columns={[
            { title: t('billing.purchase.package'), key: 'name', render: (_: unknown, p) => packageName(t, p) },
            {
              title: t('billing.purchase.price'),
              key: 'price',
              align: 'right',
              render: (_: unknown, p) => <Money fen={p.priceFen} currency={p.currency} />,
            },
            {
              key: 'buy',
              align: 'right',
              render: (_: unknown, p) => (
                <Button size="small" type="primary" loading={pending === p.id} onClick={() => void buy(p)}>
                  {t('billing.purchase.buy')}
                </Button>
              ),
            },
          ]}
        />
        {packages.error && <Alert type="error" showIcon title={t('billing.pay.message.refreshRetry')} />}
      </Space>
      <ChargeModal
        title={buying ? t('billing.purchase.buyTitle', { name: packageName(t, buying.pkg) }) : ''}
        charge={buying?.charge ?? null}
        onClose={() => setBuying(null)}
        onPaid={() => {
          notify.success(t('billing.purchase.bought'));
          void queryClient.invalidateQueries({ queryKey: ['plans'] });
          void queryClient.invalidateQueries({ queryKey: ['charges', 'mine'] });
        }}
      />
    </Card>
  );
}

function PlanState({ check }: { check: PlanCheck }) {
  const { t } = useTranslation();
  return (
    <Space wrap data-testid="plan-state">
      {check.available ? (
        <Tag color="green">{t('billing.purchase.available')}</Tag>
      ) : (
        <Tag color="red">{t(`billing.purchase.blocked.${check.blocked ?? 'SubscriptionExpired'}`)}</Tag>
      )}
      <span>
        {check.remaining === null
          ? t('billing.purchase.unlimited')
          : t('billing.purchase.remaining', { count: check.remaining })}
      </span>
      <span>
        {check.expiresAt
          ? t('billing.purchase.expires', { date: new Date(check.expiresAt).toLocaleDateString() })
          : t('billing.purchase.noExpiry')}
      </span>
    </Space>
  );
}

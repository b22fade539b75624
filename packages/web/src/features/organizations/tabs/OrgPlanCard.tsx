import type { Organization } from '@yyp/contracts';
import { Alert, Card, Descriptions, Progress, Skeleton, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useOrganizationPlan } from '../useOrganization';

/**
 * The organization's plan (spec 000 §3 "Plan", §5): a private organization receives uploads only
 * with quota left and a valid subscription, so its members see how much is used, until when, and
 * why uploads stop. Plans are set by the platform's operators (`npm run cli -- plan set`).
 */
export function OrgPlanCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const plan = useOrganizationPlan(organization.id);
  if (!plan.data) return plan.isError ? null : <Skeleton active paragraph={{ rows: 2 }} />;
  const p = plan.data;
  const percent = p.quota ? Math.min(100, Math.round((p.used / p.quota) * 100)) : 0;
  return (
    <Card variant="borderless" title={t('org.plan.title')} className="yyp-card-stacked">
      {p.blocked && (
        <Alert
          type="error"
          showIcon
          className="yyp-card-alert"
          message={t(`errors.${p.blocked}`)}
          description={t('org.plan.blockedHint')}
        />
      )}
      <Descriptions
        column={{ xs: 1, md: 2 }}
        size="small"
        bordered
        items={[
          {
            key: 'kind',
            label: t('org.plan.kind'),
            children: p.kind ? t(`org.plan.kinds.${p.kind}`) : t('org.plan.none'),
          },
          {
            key: 'expires',
            label: t('org.plan.expires'),
            children: p.expiresAt ? dayjs(p.expiresAt).format('YYYY-MM-DD HH:mm') : t('org.plan.noEnd'),
          },
          {
            key: 'used',
            label: t('org.plan.used'),
            span: 2,
            children:
              p.quota === null ? (
                t('org.plan.usedUnlimited', { used: p.used })
              ) : (
                <div className="yyp-plan-usage">
                  <Progress percent={percent} status={p.used >= p.quota ? 'exception' : 'normal'} showInfo={false} />
                  <Typography.Text>{t('org.plan.usedOf', { used: p.used, quota: p.quota })}</Typography.Text>
                </div>
              ),
          },
        ]}
      />
      {!p.isPrivate && (
        <Typography.Paragraph type="secondary" className="yyp-card-note">
          {t('org.plan.publicHint')}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

import type { CriticalValuePage } from '@yyp/contracts';
import { Card, Statistic } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { usePermissions } from '../../shared/permissions/permissions';
import { useCriticalValueStats } from './useSafetyReview';

const DEFAULT_DAYS = 30;

interface Props {
  byStatus: CriticalValuePage['byStatus'] | undefined;
  /** the organizations listed (the one picked, or all the caller sees), with names */
  organizations: { id: string; name: string }[];
  from: string | undefined;
  to: string | undefined;
}

/**
 * The list's counts by state (of the filters other than state) and, from GET
 * statistics/critical-value, the median minutes to read-back and to handling of the first listed
 * organization where the caller holds critical_value_stats (the last 30 days unless a period is
 * picked); without that right the medians are left out.
 */
export function CriticalValueStatsBar({ byStatus, organizations, from, to }: Props) {
  const { t } = useTranslation();
  const { can } = usePermissions();
  const statsOrg = organizations.find((o) => can(o.id, 'critical_value_stats'));
  const end = to ?? dayjs().add(1, 'day').startOf('day').toISOString();
  const start = from ?? dayjs(end).subtract(DEFAULT_DAYS, 'day').toISOString();
  const stats = useCriticalValueStats(statsOrg?.id, start, end);
  const minutes = (v: number | null | undefined) =>
    v === null || v === undefined ? '—' : t('safetyReview.critical.stats.minutes', { value: v });
  const count = (n: number | undefined) => (n === undefined ? '—' : n);
  const total = byStatus ? byStatus.sent + byStatus.received + byStatus.handled : undefined;

  return (
    <Card variant="borderless" className="yyp-review__stats" aria-label={t('safetyReview.critical.stats.label')}>
      <div className="yyp-review__stats-row" data-testid="critical-stats">
        <Statistic title={t('safetyReview.critical.stats.total')} value={count(total)} />
        <Statistic
          title={t('reportSafety.critical.status.sent')}
          value={count(byStatus?.sent)}
          styles={{ content: { color: '#cf1322' } }}
        />
        <Statistic
          title={t('reportSafety.critical.status.received')}
          value={count(byStatus?.received)}
          styles={{ content: { color: '#d46b08' } }}
        />
        <Statistic
          title={t('reportSafety.critical.status.handled')}
          value={count(byStatus?.handled)}
          styles={{ content: { color: '#389e0d' } }}
        />
        {statsOrg && (
          <>
            <Statistic
              title={t('safetyReview.critical.stats.medianToReceive')}
              value={minutes(stats.data?.medianMinutesToReceive)}
            />
            <Statistic
              title={t('safetyReview.critical.stats.medianToHandle')}
              value={minutes(stats.data?.medianMinutesToHandle)}
            />
          </>
        )}
      </div>
      {statsOrg && (
        <div className="yyp-review__stats-note">
          {t('safetyReview.critical.stats.period', {
            organization: statsOrg.name,
            from: dayjs(start).format('YYYY-MM-DD'),
            to: dayjs(end).subtract(1, 'minute').format('YYYY-MM-DD'),
          })}
        </div>
      )}
    </Card>
  );
}

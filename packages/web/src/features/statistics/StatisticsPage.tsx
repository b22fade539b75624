import { STAT_DIMENSIONS_OF, type StatKind, type WorkloadVersion } from '@yyp/contracts';
import { Alert, Card, Select, Space, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { currentLanguage } from '../../i18n';
import { useMe, useUpdateMe } from '../../shared/account/useMe';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { PageSpinner } from '../../ui/PageSpinner';
import { PeriodBar } from './PeriodBar';
import { StatPanel } from './StatPanel';
import { useAllowedStatistics } from './useAllowedStatistics';
import { bucketsFor, periodOfPreset, statWords, visibleKinds, type StatSelection } from './statView';
import './statistics.css';

/**
 * The statistics dashboards (issue 26; spec 000 §2): /group-statistics, the caller's group (chosen
 * when several), and /groups/{groupId}/statistics, that group. A tab per statistic the caller may
 * see there (its action held in one of the group's organizations), the period bar, and the chosen
 * statistic's chart and table.
 */
export function StatisticsPage() {
  const { t } = useTranslation();
  const { groupId: routeGroupId } = useParams();
  const allowed = useAllowedStatistics();
  const me = useMe();
  const updateMe = useUpdateMe();
  const [chosenGroup, setChosenGroup] = useState<string | undefined>();
  const [chosenKind, setChosenKind] = useState<StatKind | undefined>();
  const [selection, setSelection] = useState<Omit<StatSelection, 'by' | 'version'> & { by?: StatSelection['by'] }>(
    () => ({
      ...periodOfPreset('last7'),
      interval: 'day',
      bucketIds: [],
      fromStep: 'registered',
      toStep: 'approved',
      currency: 'CNY',
    }),
  );
  // One set of words per language: the chart redraws when its table or words change, not on every render.
  const language = currentLanguage();
  const words = useMemo(() => statWords(language), [language]);

  const groups = allowed.data?.groups ?? [];
  const groupId = routeGroupId ?? chosenGroup ?? (groups.find((g) => g.enableStat) ?? groups[0])?.id ?? undefined;
  const group = groups.find((g) => g.id === groupId);
  const kinds = useMemo(() => visibleKinds(allowed.data, groupId), [allowed.data, groupId]);
  const kind = chosenKind && kinds.includes(chosenKind) ? chosenKind : kinds[0];
  // The stored preference "workload version" (spec 000 §9), simple by default.
  const version: WorkloadVersion = me.data?.preferences?.workloadVersion ?? 'simple';

  if (allowed.isPending) return <PageSpinner />;
  if (allowed.error) return <LoadFailedAlert error={allowed.error} onRetry={() => void allowed.refetch()} />;

  const buckets = kind ? bucketsFor(allowed.data, groupId, kind) : [];
  const by = kind && selection.by && STAT_DIMENSIONS_OF[kind].includes(selection.by) ? selection.by : undefined;
  const applied: StatSelection | undefined = kind && {
    ...selection,
    by: by ?? STAT_DIMENSIONS_OF[kind][0]!,
    version,
    // only organizations that hold this statistic's action
    bucketIds: selection.bucketIds.filter((id) => buckets.some((b) => b.bucketId === id)),
  };

  function handleApply(next: StatSelection) {
    if (next.version !== version) {
      updateMe.mutate({ preferences: { workloadVersion: next.version } }, { onError: () => undefined });
    }
    const { version: _kept, ...rest } = next;
    setSelection(rest);
  }

  const title = group ? t('statistics.groupTitle', { name: group.name }) : t('statistics.title');
  return (
    <div className="yyp-page">
      <PageHeading
        title={title}
        extra={
          routeGroupId === undefined &&
          groups.length > 1 && (
            <Select
              aria-label={t('statistics.group')}
              value={groupId}
              style={{ minWidth: 200 }}
              onChange={setChosenGroup}
              options={groups.map((g) => ({ value: g.id, label: g.name }))}
            />
          )
        }
      />
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {group && !group.enableStat && <Alert type="warning" showIcon title={t('statistics.groupOff')} />}
        {!kind || !applied ? (
          <Alert type="info" showIcon title={t('statistics.none')} />
        ) : (
          <Card>
            {/* every tab in view, on a second line when they do not fit on one (statistics.css) */}
            <Tabs
              className="yyp-stat-tabs"
              activeKey={kind}
              onChange={(next) => {
                setChosenKind(next as StatKind);
                setSelection((s) => ({ ...s, by: undefined }));
              }}
              items={kinds.map((k) => ({ key: k, label: words.kind(k) }))}
            />
            <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
              <PeriodBar kind={kind} selection={applied} buckets={buckets} words={words} onApply={handleApply} />
              <StatPanel key={kind} kind={kind} selection={applied} groupId={groupId} words={words} />
            </Space>
          </Card>
        )}
      </Space>
    </div>
  );
}

import type { Group, GroupAccessLevel } from '@yyp/contracts';
import { Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { MissingResult } from '../../ui/MissingResult';
import { useLevelGroup } from './useLevelGroup';

interface LevelGroupPageProps {
  /** the group level the page needs (security admin, auditor) */
  level: GroupAccessLevel;
  /** what a caller who holds that level in no group reads */
  forbidden: { title: string; description: string };
  /** the page for the chosen group */
  children: (view: { groups: Group[]; group: Group; onSelect: (groupId: string) => void }) => ReactNode;
}

/**
 * A page of the groups where the caller holds `level` (/accounts, /logs): loading, a failed load
 * with a retry, 403 for a caller without the level anywhere, otherwise the page of the chosen group.
 */
export function LevelGroupPage({ level, forbidden, children }: LevelGroupPageProps) {
  const { t } = useTranslation();
  const { query, groups, selected, select } = useLevelGroup(level);

  if (query.isError) {
    return (
      <div className="yyp-page">
        <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  if (query.isPending) {
    return (
      <div className="yyp-page">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  }
  if (!selected) {
    return (
      <MissingResult
        status="403"
        title={forbidden.title}
        description={forbidden.description}
        backTo="/studies"
        backLabel={t('common.backToHome')}
      />
    );
  }
  return children({ groups, group: selected, onSelect: select });
}

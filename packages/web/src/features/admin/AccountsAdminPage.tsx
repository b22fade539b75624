import { GROUP_ACCESS_LEVELS, type Group } from '@yyp/contracts';
import { Card, Input, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { MissingResult } from '../../ui/MissingResult';
import { PageHeading } from '../../ui/PageHeading';
import { AccountsTable } from './AccountsTable';
import { GroupPicker } from './GroupPicker';
import { useLevelGroup } from './useLevelGroup';

/** /accounts: security administrators enable, disable, unlock accounts and reset passwords. */
export function AccountsAdminPage() {
  const { t } = useTranslation();
  const { query, groups, selected, select } = useLevelGroup(GROUP_ACCESS_LEVELS.securityAdmin);

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
        title={t('accountsAdmin.forbiddenTitle')}
        description={t('accountsAdmin.forbiddenDescription')}
        backTo="/studies"
        backLabel={t('common.backToHome')}
      />
    );
  }
  return <AccountsView groups={groups} group={selected} onSelect={select} />;
}

function AccountsView({ groups, group, onSelect }: { groups: Group[]; group: Group; onSelect: (id: string) => void }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  return (
    <div className="yyp-page">
      <PageHeading
        title={t('accountsAdmin.title')}
        description={t('accountsAdmin.subtitle')}
        extra={<GroupPicker groups={groups} value={group} onChange={onSelect} />}
      />
      <Card
        variant="borderless"
        title={group.displayName}
        extra={
          <Input.Search
            allowClear
            placeholder={t('accountsAdmin.searchPlaceholder')}
            aria-label={t('accountsAdmin.searchPlaceholder')}
            onSearch={(value) => setQ(value.trim())}
            className="yyp-search"
          />
        }
      >
        <AccountsTable key={`${group.id}:${q}`} groupId={group.id} q={q} />
      </Card>
    </div>
  );
}

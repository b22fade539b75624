import { GROUP_ACCESS_LEVELS, type Group } from '@yyp/contracts';
import { Card, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../ui/PageHeading';
import { AccountsTable } from './AccountsTable';
import { GroupPicker } from './GroupPicker';
import { LevelGroupPage } from './LevelGroupPage';

/** /accounts: security administrators enable, disable, unlock accounts and reset passwords. */
export function AccountsAdminPage() {
  const { t } = useTranslation();
  return (
    <LevelGroupPage
      level={GROUP_ACCESS_LEVELS.securityAdmin}
      forbidden={{ title: t('accountsAdmin.forbiddenTitle'), description: t('accountsAdmin.forbiddenDescription') }}
    >
      {(view) => <AccountsView {...view} />}
    </LevelGroupPage>
  );
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

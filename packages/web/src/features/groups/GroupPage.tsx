import type { Group } from '@yyp/contracts';
import { Skeleton, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/errors';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { MissingResult } from '../../ui/MissingResult';
import { PageHeading } from '../../ui/PageHeading';
import { GroupLevelTag } from '../../shared/labels/GroupLevelTag';
import { isGroupAdmin } from '../../shared/groups/levels';
import { GroupOrganizationsTab } from './tabs/GroupOrganizationsTab';
import { GroupOverviewTab } from './tabs/GroupOverviewTab';
import { GroupPeopleTab } from './tabs/GroupPeopleTab';
import { GroupSettingsTab } from './tabs/GroupSettingsTab';
import { useGroup } from '../../shared/groups/useGroups';

const TABS = ['overview', 'organizations', 'people', 'settings'] as const;
type GroupTab = (typeof TABS)[number];

function isGroupTab(value: string | null): value is GroupTab {
  return (TABS as readonly (string | null)[]).includes(value);
}

/** /groups/{groupId}: overview, organizations, people and (administrators) settings. */
export function GroupPage() {
  const { t } = useTranslation();
  const { groupId = '' } = useParams();
  const group = useGroup(groupId);

  if (group.isError) {
    // 404 (not a member) and 403 look the same from here: the group is not the caller's.
    if (isApiError(group.error) && (group.error.status === 404 || group.error.status === 403)) {
      return (
        <MissingResult
          title={t('groups.notFoundTitle')}
          description={t('groups.notFoundDescription')}
          backTo="/groups"
          backLabel={t('groups.backToGroups')}
        />
      );
    }
    return (
      <div className="yyp-page">
        <LoadFailedAlert error={group.error} onRetry={() => void group.refetch()} />
      </div>
    );
  }
  if (!group.data) {
    return (
      <div className="yyp-page">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  }
  return <GroupView group={group.data} />;
}

function GroupView({ group }: { group: Group }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const admin = isGroupAdmin(group);
  const requested = searchParams.get('tab');
  const tab: GroupTab = isGroupTab(requested) && (requested !== 'settings' || admin) ? requested : 'overview';

  function handleTabChange(key: string) {
    setSearchParams(key === 'overview' ? {} : { tab: key }, { replace: true });
  }

  const items = [
    { key: 'overview', label: t('group.tabOverview'), children: <GroupOverviewTab group={group} /> },
    { key: 'organizations', label: t('group.tabOrganizations'), children: <GroupOrganizationsTab group={group} /> },
    { key: 'people', label: t('group.tabPeople'), children: <GroupPeopleTab group={group} /> },
    ...(admin
      ? [{ key: 'settings', label: t('group.tabSettings'), children: <GroupSettingsTab group={group} /> }]
      : []),
  ];

  return (
    <div className="yyp-page">
      <PageHeading
        title={group.displayName}
        description={
          <span className="yyp-heading-meta">
            {t('group.myLevel')}: <GroupLevelTag level={group.accessLevel} />
          </span>
        }
      />
      <Tabs activeKey={tab} onChange={handleTabChange} items={items} destroyOnHidden className="yyp-page-tabs" />
    </div>
  );
}

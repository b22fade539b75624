import type { Group, Organization } from '@yyp/contracts';
import { Skeleton, Space, Tabs, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/errors';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { MissingResult } from '../../ui/MissingResult';
import { PageHeading } from '../../ui/PageHeading';
import { useGroup } from '../../shared/groups/useGroups';
import { orgAccessOf } from './orgAccess';
import { OrgLevelTag } from '../../shared/labels/OrgLevelTag';
import { OrgRolesTab } from './roles/OrgRolesTab';
import { ProceduresTab } from './procedures/ProceduresTab';
import { OrgSettingsTab } from './settings/OrgSettingsTab';
import { OrgMembersTab } from './tabs/OrgMembersTab';
import { OrgOverviewTab } from './tabs/OrgOverviewTab';
import { useOrganization } from './useOrganization';

const TABS = ['overview', 'members', 'roles', 'procedures', 'settings'] as const;
type OrgTab = (typeof TABS)[number];

function isOrgTab(value: string | null): value is OrgTab {
  return (TABS as readonly (string | null)[]).includes(value);
}

function isHidden(error: unknown): boolean {
  return isApiError(error) && (error.status === 404 || error.status === 403);
}

interface OrganizationPageProps {
  /** the print template card of the settings tab (the reports feature's; app/ hands it in) */
  printTemplateCard?: (organization: Organization) => ReactNode;
  /** the call queues card of the settings tab (the calling feature's; app/ hands it in) */
  callQueuesCard?: (organization: Organization, group: Group) => ReactNode;
}

/** /groups/{groupId}/organizations/{organizationId}: overview, members, roles, procedures and settings. */
export function OrganizationPage({ printTemplateCard, callQueuesCard }: OrganizationPageProps = {}) {
  const { t } = useTranslation();
  const { groupId = '', organizationId = '' } = useParams();
  const group = useGroup(groupId);
  const organization = useOrganization(organizationId);
  const backTo = `/groups/${encodeURIComponent(groupId)}?tab=organizations`;

  const hidden =
    isHidden(group.error) ||
    isHidden(organization.error) ||
    (organization.data !== undefined && organization.data.groupId !== groupId);
  if (hidden) {
    return (
      <MissingResult
        title={t('org.notFoundTitle')}
        description={t('org.notFoundDescription')}
        backTo={backTo}
        backLabel={t('org.backToGroup')}
      />
    );
  }
  const error = group.error ?? organization.error;
  if (error) {
    return (
      <div className="yyp-page">
        <LoadFailedAlert
          error={error}
          onRetry={() => {
            void group.refetch();
            void organization.refetch();
          }}
        />
      </div>
    );
  }
  if (!group.data || !organization.data) {
    return (
      <div className="yyp-page">
        <Skeleton active paragraph={{ rows: 8 }} />
      </div>
    );
  }
  return (
    <OrganizationView
      group={group.data}
      organization={organization.data}
      printTemplateCard={printTemplateCard}
      callQueuesCard={callQueuesCard}
    />
  );
}

function OrganizationView({
  group,
  organization,
  printTemplateCard,
  callQueuesCard,
}: { group: Group; organization: Organization } & OrganizationPageProps) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const access = orgAccessOf(group, organization);
  const requested = searchParams.get('tab');
  const tab: OrgTab = isOrgTab(requested) && (requested !== 'settings' || access.canManage) ? requested : 'overview';

  function handleTabChange(key: string) {
    setSearchParams(key === 'overview' ? {} : { tab: key }, { replace: true });
  }

  const items = [
    {
      key: 'overview',
      label: t('org.tabOverview'),
      children: <OrgOverviewTab group={group} organization={organization} />,
    },
    {
      key: 'members',
      label: t('org.tabMembers'),
      children: <OrgMembersTab group={group} organization={organization} access={access} />,
    },
    {
      key: 'roles',
      label: t('org.tabRoles'),
      children: <OrgRolesTab organization={organization} access={access} />,
    },
    {
      key: 'procedures',
      label: t('procedures.tab'),
      children: <ProceduresTab organization={organization} access={access} />,
    },
    ...(access.canManage
      ? [
          {
            key: 'settings',
            label: t('org.tabSettings'),
            children: (
              <OrgSettingsTab
                group={group}
                organization={organization}
                access={access}
                printTemplateCard={printTemplateCard}
                callQueuesCard={callQueuesCard}
              />
            ),
          },
        ]
      : []),
  ];

  return (
    <div className="yyp-page">
      <div className="yyp-breadcrumb">
        <Link to={`/groups/${encodeURIComponent(group.id)}?tab=organizations`}>{group.displayName}</Link>
        <span aria-hidden="true">/</span>
        <span>{organization.name}</span>
      </div>
      <PageHeading
        title={organization.name}
        description={
          <Space size={8} wrap className="yyp-heading-meta">
            {organization.code && <code>{organization.code}</code>}
            {organization.isPrivate && <Tag color="orange">{t('org.private')}</Tag>}
            {organization.focused && <Tag color="geekblue">{t('org.focused')}</Tag>}
            <span>
              {t('org.myLevel')}:{' '}
              {organization.accessLevel ? <OrgLevelTag level={organization.accessLevel} /> : t('org.notMember')}
            </span>
          </Space>
        }
      />
      <Tabs activeKey={tab} onChange={handleTabChange} items={items} destroyOnHidden className="yyp-page-tabs" />
    </div>
  );
}

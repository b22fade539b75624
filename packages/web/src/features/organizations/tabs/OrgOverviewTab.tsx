import type { Group, Organization } from '@yyp/contracts';
import { Card, Descriptions, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { OrgLevelTag } from '../../../shared/labels/OrgLevelTag';
import { OrgPlanCard } from './OrgPlanCard';

/** The organization at a glance: name, code, flags, member count, the caller's level and the plan. */
export function OrgOverviewTab({ group, organization }: { group: Group; organization: Organization }) {
  const { t } = useTranslation();
  const yesNo = (on: boolean) => (on ? t('group.on') : t('group.off'));
  return (
    <>
      <Card variant="borderless">
        <Descriptions
          column={{ xs: 1, md: 2 }}
          size="small"
          bordered
          items={[
            { key: 'name', label: t('org.name'), children: organization.name },
            {
              key: 'code',
              label: t('org.code'),
              children: organization.code ? (
                <code>{organization.code}</code>
              ) : (
                <Typography.Text type="secondary">{t('org.noCode')}</Typography.Text>
              ),
            },
            { key: 'group', label: t('org.group'), children: group.displayName },
            {
              key: 'visibility',
              label: t('org.visibility'),
              children: organization.isPrivate ? t('org.private') : t('org.public'),
            },
            { key: 'focused', label: t('org.focused'), children: yesNo(organization.focused) },
            { key: 'freeEfilm', label: t('org.freeEfilm'), children: yesNo(organization.freeEfilm) },
            { key: 'members', label: t('org.memberCount'), children: organization.memberCount },
            {
              key: 'level',
              label: t('org.myLevel'),
              children: organization.accessLevel ? (
                <OrgLevelTag level={organization.accessLevel} />
              ) : (
                t('org.notMember')
              ),
            },
            {
              key: 'created',
              label: t('group.createdAt'),
              children: dayjs(organization.createdAt).format('YYYY-MM-DD'),
            },
          ]}
        />
      </Card>
      <OrgPlanCard organization={organization} />
    </>
  );
}

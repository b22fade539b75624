import { useQueryClient } from '@tanstack/react-query';
import { Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AssignRule } from '../../../api/contractTypes';
import { deleteAssignRule } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useAllGroupMembers, useAssignRules, useGroupOrganizations } from '../../../shared/groups/useGroups';
import { RuleTableCard } from '../../../shared/rules/RuleTableCard';
import { AssignRuleModal } from './AssignRuleModal';
import { ruleTableTexts } from './ruleTableTexts';

/** Assign rules of a group: which organizations' exams go to which doctor and members. */
export function AssignRulesCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const rules = useAssignRules(groupId);
  const organizations = useGroupOrganizations(groupId);
  const members = useAllGroupMembers(groupId);

  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));
  const memberName = new Map((members.data ?? []).map((m) => [m.accountId, m.name]));

  const columns: TableColumnsType<AssignRule> = [
    { key: 'name', dataIndex: 'name', title: t('assignRules.name') },
    {
      key: 'organizations',
      title: t('assignRules.organizations'),
      render: (_, rule) =>
        rule.bucketIds.length === 0 ? (
          <Typography.Text type="secondary">{t('assignRules.anyOrganization')}</Typography.Text>
        ) : (
          rule.bucketIds.map((id) => <Tag key={id}>{orgName.get(id) ?? id}</Tag>)
        ),
    },
    {
      key: 'doctor',
      title: t('assignRules.doctor'),
      render: (_, rule) => (rule.doctorId ? (memberName.get(rule.doctorId) ?? rule.doctorId) : '—'),
    },
    {
      key: 'modality',
      title: t('assignRules.modality'),
      render: (_, rule) => rule.modality ?? <Typography.Text type="secondary">{t('assignRules.any')}</Typography.Text>,
    },
    {
      key: 'members',
      title: t('assignRules.members'),
      render: (_, rule) => rule.memberIds.map((id) => <Tag key={id}>{memberName.get(id) ?? id}</Tag>),
    },
    { key: 'priority', dataIndex: 'priority', title: t('assignRules.priority'), align: 'right' },
  ];

  return (
    <RuleTableCard<AssignRule>
      texts={ruleTableTexts(t, 'assignRules')}
      columns={columns}
      rows={rules.data ?? []}
      query={rules}
      remove={(rule) => deleteAssignRule(groupId, rule.id)}
      afterDelete={() => queryClient.invalidateQueries({ queryKey: queryKeys.assignRules(groupId) })}
      editor={({ rule, open, onClose }) => (
        <AssignRuleModal
          groupId={groupId}
          rule={rule}
          open={open}
          organizations={organizations.data ?? []}
          members={members.data ?? []}
          onClose={onClose}
        />
      )}
    />
  );
}

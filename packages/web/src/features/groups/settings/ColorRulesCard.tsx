import { useQueryClient } from '@tanstack/react-query';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ColorRule } from '../../../api/contractTypes';
import { deleteColorRule } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useColorRules, useGroupOrganizations } from '../../../shared/groups/useGroups';
import { RuleTableCard } from '../../../shared/rules/RuleTableCard';
import { isColorMatchField } from '../groupSettings';
import { ColorRuleModal } from './ColorRuleModal';
import { ruleTableTexts } from './ruleTableTexts';

/** Color rules of the exam list; a lower priority number wins. */
export function ColorRulesCard({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const rules = useColorRules(groupId);
  const organizations = useGroupOrganizations(groupId);
  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));
  const sorted = [...(rules.data ?? [])].sort((a, b) => a.priority - b.priority || a.index - b.index);

  const columns: TableColumnsType<ColorRule> = [
    {
      key: 'sample',
      title: t('colorRules.sample'),
      width: 120,
      render: (_, rule) => (
        <span className="yyp-color-sample" style={{ color: rule.foreColor, background: rule.backgroundColor }}>
          {rule.name}
        </span>
      ),
    },
    { key: 'name', dataIndex: 'name', title: t('colorRules.name') },
    {
      key: 'field',
      title: t('colorRules.matchField'),
      render: (_, rule) =>
        isColorMatchField(rule.matchField) ? t(`colorMatchFields.${rule.matchField}`) : rule.matchField,
    },
    {
      key: 'value',
      title: t('colorRules.value'),
      render: (_, rule) => (rule.matchField === 'bucketId' ? (orgName.get(rule.value) ?? rule.value) : rule.value),
    },
    { key: 'priority', dataIndex: 'priority', title: t('colorRules.priority'), align: 'right' },
    { key: 'index', dataIndex: 'index', title: t('colorRules.index'), align: 'right' },
  ];

  return (
    <RuleTableCard<ColorRule>
      texts={ruleTableTexts(t, 'colorRules')}
      columns={columns}
      rows={sorted}
      query={rules}
      remove={(rule) => deleteColorRule(groupId, rule.id)}
      afterDelete={() => queryClient.invalidateQueries({ queryKey: queryKeys.colorRules(groupId) })}
      editor={({ rule, open, onClose }) => (
        <ColorRuleModal
          groupId={groupId}
          rule={rule}
          open={open}
          organizations={organizations.data ?? []}
          onClose={onClose}
        />
      )}
    />
  );
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AutoComplete, Button, Form, Popover, Select, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { queryAuditLogs, queryPlatformAuditLogs } from '../../api/admin';
import type { AuditLog, AuditQuery } from '../../api/contractTypes';
import { queryKeys } from '../../api/queryClient';
import { PagedQueryTable } from '../../ui/QueryTable';
import { useGroupOrganizations } from '../../shared/groups/useGroups';
import { AUDIT_ACTION_PREFIXES, describeAuditAction } from './auditActions';
import { FilterBar, rangeFilters, timeColumn, useFilteredPages, type RangeValue } from './FilteredLog';

const OUTCOMES = ['success', 'failure', 'denied'] as const;
type Outcome = (typeof OUTCOMES)[number];
const OUTCOME_COLORS: Record<Outcome, string> = { success: 'green', failure: 'red', denied: 'orange' };

interface FilterValues {
  action?: string;
  outcome?: Outcome;
  range?: RangeValue;
}

type Filters = Pick<AuditQuery, 'action' | 'outcome' | 'from' | 'to'>;

function isOutcome(value: string): value is Outcome {
  return (OUTCOMES as readonly string[]).includes(value);
}

function toFilters(values: FilterValues): Filters {
  const action = values.action?.trim();
  return {
    ...(action ? { action } : {}),
    ...(values.outcome ? { outcome: values.outcome } : {}),
    ...rangeFilters(values.range),
  };
}

/** Filters and the paginated operation log of one group, or (groupId null) of the whole platform. */
export function AuditLogTable({ groupId }: { groupId: string | null }) {
  const { t } = useTranslation();
  const { form, filters, page, paging, handleFinish, handleReset, pagination } = useFilteredPages(toFilters);
  const organizations = useGroupOrganizations(groupId ?? '', groupId !== null);
  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));
  const logs = useQuery({
    queryKey: [...queryKeys.auditLogs(groupId ?? '*'), filters, page],
    queryFn: ({ signal }) =>
      groupId === null
        ? queryPlatformAuditLogs({ ...filters, ...paging }, signal)
        : queryAuditLogs(groupId, { ...filters, ...paging }, signal),
    placeholderData: keepPreviousData,
  });

  const targetLabels: Record<string, string> = {
    group: t('auditLog.targetGroup'),
    domain: t('platformAdmin.targetDomain'),
    bucket: t('auditLog.targetBucket'),
    account: t('auditLog.targetAccount'),
    role: t('auditLog.targetRole'),
    rule: t('auditLog.targetRule'),
  };
  const outcomeLabels: Record<Outcome, string> = {
    success: t('auditLog.success'),
    failure: t('auditLog.failure'),
    denied: t('auditLog.denied'),
  };

  const columns: TableColumnsType<AuditLog> = [
    timeColumn(t('auditLog.at')),
    {
      key: 'actor',
      title: t('auditLog.actor'),
      render: (_, log) =>
        log.actorUsername ?? <Typography.Text type="secondary">{t('auditLog.system')}</Typography.Text>,
    },
    {
      key: 'action',
      title: t('auditLog.action'),
      render: (_, log) => {
        const description = describeAuditAction(t, log.action);
        return (
          <div className="yyp-audit-action">
            <code>{log.action}</code>
            {description && <Typography.Text type="secondary">{description}</Typography.Text>}
          </div>
        );
      },
    },
    {
      key: 'target',
      title: t('auditLog.target'),
      render: (_, log) =>
        log.targetType ? (
          <span>
            {targetLabels[log.targetType] ?? log.targetType}{' '}
            {log.targetId && (
              <Typography.Text type="secondary" className="yyp-ellipsis" title={log.targetId}>
                {log.targetId}
              </Typography.Text>
            )}
          </span>
        ) : (
          '—'
        ),
    },
    {
      key: 'organization',
      title: t('auditLog.organization'),
      render: (_, log) => (log.bucketId ? (orgName.get(log.bucketId) ?? log.bucketId) : '—'),
    },
    { key: 'ip', title: t('auditLog.ip'), render: (_, log) => log.ip ?? '—' },
    {
      key: 'details',
      title: t('auditLog.details'),
      render: (_, log) =>
        log.details && Object.keys(log.details).length > 0 ? (
          <Popover
            trigger="click"
            title={t('auditLog.details')}
            content={<pre className="yyp-json">{JSON.stringify(log.details, null, 2)}</pre>}
          >
            <Button type="link" size="small" className="yyp-link-button">
              {t('auditLog.details')}
            </Button>
          </Popover>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'outcome',
      title: t('auditLog.outcome'),
      render: (_, log) =>
        isOutcome(log.outcome) ? (
          <Tag color={OUTCOME_COLORS[log.outcome]}>{outcomeLabels[log.outcome]}</Tag>
        ) : (
          <Tag>{log.outcome}</Tag>
        ),
    },
  ];

  return (
    <div className="yyp-stack">
      <FilterBar
        name="auditFilters"
        form={form}
        onFinish={handleFinish}
        onReset={handleReset}
        labels={{ range: t('auditLog.range'), search: t('auditLog.search'), reset: t('auditLog.reset') }}
      >
        <Form.Item name="action" label={t('auditLog.action')}>
          <AutoComplete
            options={AUDIT_ACTION_PREFIXES.map((value) => ({ value }))}
            placeholder={t('auditLog.actionPlaceholder')}
            className="yyp-filter-bar__action"
            allowClear
          />
        </Form.Item>
        <Form.Item name="outcome" label={t('auditLog.outcome')}>
          <Select
            allowClear
            placeholder={t('auditLog.anyOutcome')}
            options={OUTCOMES.map((o) => ({ value: o, label: outcomeLabels[o] }))}
            className="yyp-filter-bar__outcome"
          />
        </Form.Item>
      </FilterBar>
      <PagedQueryTable<AuditLog>
        query={logs}
        rows={logs.data?.logs}
        rowKey="id"
        size="small"
        columns={columns}
        pagination={pagination(logs.data?.count ?? 0, (total) => t('auditLog.total', { count: total }))}
      />
    </div>
  );
}

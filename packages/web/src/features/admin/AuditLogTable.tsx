import { SearchOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  AutoComplete,
  Button,
  DatePicker,
  Form,
  Popover,
  Select,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryAuditLogs } from '../../api/admin';
import type { AuditLog, AuditQuery } from '../../api/contractTypes';
import { queryKeys } from '../../api/queryClient';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { useGroupOrganizations } from '../groups/useGroups';
import { AUDIT_ACTION_PREFIXES, describeAuditAction } from './auditActions';

const PAGE_SIZE = 20;
const OUTCOMES = ['success', 'failure', 'denied'] as const;
type Outcome = (typeof OUTCOMES)[number];
const OUTCOME_COLORS: Record<Outcome, string> = { success: 'green', failure: 'red', denied: 'orange' };

interface FilterValues {
  action?: string;
  outcome?: Outcome;
  range?: [Dayjs | null, Dayjs | null] | null;
}

type Filters = Pick<AuditQuery, 'action' | 'outcome' | 'from' | 'to'>;

function isOutcome(value: string): value is Outcome {
  return (OUTCOMES as readonly string[]).includes(value);
}

function toFilters(values: FilterValues): Filters {
  const [from, to] = values.range ?? [null, null];
  const action = values.action?.trim();
  return {
    ...(action ? { action } : {}),
    ...(values.outcome ? { outcome: values.outcome } : {}),
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { to: to.toISOString() } : {}),
  };
}

/** Filters and the paginated operation log of one group. */
export function AuditLogTable({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterValues>();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const organizations = useGroupOrganizations(groupId);
  const orgName = new Map((organizations.data ?? []).map((o) => [o.id, o.name]));
  const logs = useQuery({
    queryKey: [...queryKeys.auditLogs(groupId), filters, page],
    queryFn: ({ signal }) =>
      queryAuditLogs(groupId, { ...filters, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });

  const targetLabels: Record<string, string> = {
    group: t('auditLog.targetGroup'),
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

  function handleFinish(values: FilterValues) {
    setFilters(toFilters(values));
    setPage(1);
  }

  function handleReset() {
    form.resetFields();
    setFilters({});
    setPage(1);
  }

  const columns: TableColumnsType<AuditLog> = [
    {
      key: 'at',
      title: t('auditLog.at'),
      width: 170,
      render: (_, log) => <span className="yyp-nowrap">{dayjs(log.at).format('YYYY-MM-DD HH:mm:ss')}</span>,
    },
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
      <Form<FilterValues>
        name="auditFilters"
        form={form}
        layout="inline"
        onFinish={handleFinish}
        className="yyp-filter-bar"
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
        <Form.Item name="range" label={t('auditLog.range')}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('auditLog.search')}
          </Button>
        </Form.Item>
        <Form.Item>
          <Button onClick={handleReset}>{t('auditLog.reset')}</Button>
        </Form.Item>
      </Form>
      {logs.isError && <LoadFailedAlert error={logs.error} onRetry={() => void logs.refetch()} />}
      <Table<AuditLog>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={logs.data?.logs ?? []}
        loading={logs.isFetching}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: logs.data?.count ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          showTotal: (total) => t('auditLog.total', { count: total }),
        }}
      />
    </div>
  );
}

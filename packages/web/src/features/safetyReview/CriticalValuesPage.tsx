import {
  CRITICAL_VALUE_STATUSES,
  REPORT_PAGE_SIZE,
  type CriticalValuePageBody,
  type CriticalValuePageItem,
  type CriticalValueStatus,
} from '@yyp/contracts';
import { Button, Card, DatePicker, Empty, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { HandleCriticalValueDialog, ReceiveCriticalValueDialog } from '../../shared/safety/CriticalValueDialogs';
import { criticalLevelLabel, formatWhen } from '../../shared/safety/safetyFormat';
import { formatStudyDate } from '../../shared/format/dates';
import { useStudyLabels } from '../../shared/labels/studyLabels';
import { CriticalValueStatsBar } from './CriticalValueStatsBar';
import {
  CRITICAL_LIST_ACTIONS,
  periodOf,
  reportPath,
  useCriticalFollowUp,
  useCriticalValuePage,
  useOrganizationsWith,
} from './useSafetyReview';
import './safetyReview.css';
import { usePersonName } from '../../ui/usePersonName';

const STATUS_COLOR: Record<CriticalValueStatus, string> = { sent: 'red', received: 'orange', handled: 'green' };
type Range = [Dayjs | null, Dayjs | null] | null;
type Dialog = { kind: 'receive' | 'handle'; item: CriticalValuePageItem } | null;

/**
 * /critical-values: the critical values of the caller's organizations for the ordering side's
 * desk and the radiology department, newest first, filtered by state, period and organization;
 * from a row the read-back is recorded and the value closed (the report page's own dialogs).
 */
export function CriticalValuesPage() {
  const { t } = useTranslation();
  const personName = usePersonName();
  const labels = useStudyLabels();
  const organizations = useOrganizationsWith(CRITICAL_LIST_ACTIONS);
  const [bucketId, setBucketId] = useState('');
  const [status, setStatus] = useState<CriticalValueStatus | ''>('');
  const [range, setRange] = useState<Range>(null);
  const [page, setPage] = useState({ current: 1, pageSize: REPORT_PAGE_SIZE });
  const [dialog, setDialog] = useState<Dialog>(null);
  const period = periodOf(range);
  const body: CriticalValuePageBody = {
    ...(bucketId ? { bucketId } : {}),
    ...(status ? { status } : {}),
    ...period,
    skip: (page.current - 1) * page.pageSize,
    limit: page.pageSize,
  };
  const list = useCriticalValuePage(body);
  const { receive, handle } = useCriticalFollowUp();
  const listed = (organizations.data ?? []).filter((o) => !bucketId || o.id === bucketId);

  function handleFilter<T>(set: (v: T) => void) {
    return (value: T) => {
      set(value);
      setPage((p) => ({ ...p, current: 1 }));
    };
  }

  const columns: TableColumnsType<CriticalValuePageItem> = [
    {
      key: 'status',
      title: t('safetyReview.critical.state'),
      render: (_, r) => <Tag color={STATUS_COLOR[r.status]}>{t(`reportSafety.critical.status.${r.status}`)}</Tag>,
    },
    {
      key: 'patient',
      title: t('safetyReview.patient'),
      render: (_, r) => (
        <div>
          <Space size={6}>
            <strong>{personName(r.patientName)}</strong>
            <span>{labels.gender(r.patientGender)}</span>
          </Space>
          <div className="yyp-review__sub">
            {[r.modality, r.bodyPart, formatStudyDate(r.studyDate)].filter(Boolean).join(' · ')}
          </div>
        </div>
      ),
    },
    {
      key: 'organization',
      title: t('safetyReview.organization'),
      render: (_, r) => (
        <div>
          {r.bucketName}
          {r.notifyDept && <div className="yyp-review__sub">{r.notifyDept}</div>}
        </div>
      ),
    },
    {
      key: 'value',
      title: t('safetyReview.critical.value'),
      render: (_, r) => (
        <div className="yyp-review__text">
          <span>{r.text}</span>
        </div>
      ),
    },
    {
      key: 'level',
      title: t('reportSafety.critical.level'),
      render: (_, r) => (r.level ? criticalLevelLabel(t, r.level) : '—'),
    },
    {
      key: 'sent',
      title: t('safetyReview.critical.sent'),
      render: (_, r) => <Who name={r.reporter?.name} at={r.sentAt} />,
    },
    {
      key: 'received',
      title: t('safetyReview.critical.received'),
      render: (_, r) =>
        r.receivedAt ? (
          <div>
            <Who name={r.receiver} at={r.receivedAt} />
            <div className="yyp-review__sub">
              {t('reportSafety.critical.confirmor')}: {r.confirmor}
            </div>
            <Typography.Paragraph className="yyp-review__readback" ellipsis={{ rows: 2, tooltip: r.readbackOpinion }}>
              {r.readbackOpinion}
            </Typography.Paragraph>
          </div>
        ) : (
          '—'
        ),
    },
    {
      key: 'handled',
      title: t('safetyReview.critical.handled'),
      render: (_, r) =>
        r.handledAt ? (
          <div>
            <Who name={r.handler?.name} at={r.handledAt} />
            {r.handleNote && <div className="yyp-review__sub">{r.handleNote}</div>}
          </div>
        ) : (
          '—'
        ),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, r) => (
        <Space size={4} wrap>
          {r.canFollow && r.status === 'sent' && (
            <Button size="small" type="primary" onClick={() => setDialog({ kind: 'receive', item: r })}>
              {t('reportSafety.critical.receive')}
            </Button>
          )}
          {r.canFollow && r.status === 'received' && (
            <Button size="small" type="primary" onClick={() => setDialog({ kind: 'handle', item: r })}>
              {t('reportSafety.critical.handle')}
            </Button>
          )}
          <Link to={reportPath(r.reportId)}>{t('safetyReview.openReport')}</Link>
        </Space>
      ),
    },
  ];

  const target = dialog?.item;
  return (
    <div className="yyp-page yyp-review">
      <PageHeading title={t('safetyReview.critical.title')} description={t('safetyReview.critical.subtitle')} />
      <CriticalValueStatsBar byStatus={list.data?.byStatus} organizations={listed} from={period.from} to={period.to} />
      <Card variant="borderless">
        <Space wrap className="yyp-review__filters">
          <Select<string>
            value={bucketId}
            onChange={handleFilter(setBucketId)}
            loading={organizations.isPending}
            style={{ width: 200 }}
            aria-label={t('safetyReview.organization')}
            options={[
              { value: '', label: t('safetyReview.allOrganizations') },
              ...(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name })),
            ]}
          />
          <Select<CriticalValueStatus | ''>
            value={status}
            onChange={handleFilter(setStatus)}
            style={{ width: 160 }}
            aria-label={t('safetyReview.critical.state')}
            options={[
              { value: '', label: t('safetyReview.critical.allStatuses') },
              ...CRITICAL_VALUE_STATUSES.map((s) => ({
                value: s,
                label: `${t(`reportSafety.critical.status.${s}`)}${list.data ? ` (${list.data.byStatus[s]})` : ''}`,
              })),
            ]}
          />
          <DatePicker.RangePicker
            value={range}
            onChange={handleFilter<Range>(setRange)}
            allowEmpty={[true, true]}
            aria-label={t('safetyReview.period')}
          />
        </Space>
        {list.isError ? (
          <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <Table<CriticalValuePageItem>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={list.data?.data ?? []}
            loading={list.isFetching}
            scroll={{ x: 'max-content' }}
            rowClassName={(r) => `yyp-review__row--${r.status}`}
            locale={{ emptyText: <Empty description={t('safetyReview.critical.empty')} /> }}
            pagination={{
              current: page.current,
              pageSize: page.pageSize,
              total: list.data?.count ?? 0,
              showSizeChanger: true,
              onChange: (current, pageSize) => setPage({ current, pageSize }),
            }}
          />
        )}
      </Card>
      <ReceiveCriticalValueDialog
        open={dialog?.kind === 'receive'}
        onSubmit={(b) => receive.mutateAsync({ reportId: target?.reportId ?? '', id: target?.id ?? '', body: b })}
        onClose={() => setDialog(null)}
      />
      <HandleCriticalValueDialog
        open={dialog?.kind === 'handle'}
        onSubmit={(b) => handle.mutateAsync({ reportId: target?.reportId ?? '', id: target?.id ?? '', body: b })}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}

function Who({ name, at }: { name: string | undefined; at: string }) {
  return (
    <div>
      <div>{name || '—'}</div>
      <div className="yyp-review__sub">{formatWhen(at)}</div>
    </div>
  );
}

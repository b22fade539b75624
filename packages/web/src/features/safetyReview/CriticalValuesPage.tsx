import {
  CRITICAL_VALUE_STATUSES,
  type CriticalValuePageBody,
  type CriticalValuePageItem,
  type CriticalValueStatus,
} from '@yyp/contracts';
import { Button, Card, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeading } from '../../ui/PageHeading';
import { HandleCriticalValueDialog, ReceiveCriticalValueDialog } from '../../shared/safety/CriticalValueDialogs';
import { criticalLevelLabel, formatWhen } from '../../shared/safety/safetyFormat';
import { useStudyLabels } from '../../shared/labels/studyLabels';
import { CriticalValueStatsBar } from './CriticalValueStatsBar';
import { OrganizationFilter, PeriodFilter, ReviewTable, StudyLine, useReviewPaging, type Range } from './ReviewList';
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
  const paging = useReviewPaging();
  const { handleFilter } = paging;
  const [dialog, setDialog] = useState<Dialog>(null);
  const period = periodOf(range);
  const body: CriticalValuePageBody = {
    ...(bucketId ? { bucketId } : {}),
    ...(status ? { status } : {}),
    ...period,
    ...paging.window,
  };
  const list = useCriticalValuePage(body);
  const { receive, handle } = useCriticalFollowUp();
  const listed = (organizations.data ?? []).filter((o) => !bucketId || o.id === bucketId);

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
          <StudyLine row={r} />
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
          <OrganizationFilter
            value={bucketId}
            onChange={handleFilter(setBucketId)}
            loading={organizations.isPending}
            organizations={organizations.data ?? []}
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
          <PeriodFilter value={range} onChange={handleFilter<Range>(setRange)} />
        </Space>
        <ReviewTable<CriticalValuePageItem>
          list={list}
          rowKey="id"
          columns={columns}
          empty={t('safetyReview.critical.empty')}
          paging={paging}
          rowClassName={(r) => `yyp-review__row--${r.status}`}
        />
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

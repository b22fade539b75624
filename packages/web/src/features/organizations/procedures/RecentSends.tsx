import { useQuery } from '@tanstack/react-query';
import type { Device, DicomSend } from '@yyp/contracts';
import { Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchBucketSends, sendUnderWay } from '../../../api/forwarding';
import { formatTime } from '../../../shared/format/dates';
import { SendFailedCount, SendStatus } from '../../../ui/SendStatus';
import { QueryTable } from '../../../ui/QueryTable';
import { useProcedureList } from './useProcedureLists';

/** How often a list holding a send under way (queued, running) is asked again. */
export const SENDS_POLL_MS = 3000;

/**
 * The organization's recent sends (issue 28, at most 100, newest first), asked again every few
 * seconds while one is queued or running.
 */
export function RecentSends({ bucketId, devices }: { bucketId: string; devices: Device[] }) {
  const { t } = useTranslation();
  const rules = useProcedureList(bucketId, 'forwardingRules');
  const sends = useQuery({
    queryKey: ['buckets', bucketId, 'dicom-sends'],
    queryFn: ({ signal }) => fetchBucketSends(bucketId, signal),
    refetchInterval: (query) => (query.state.data?.some(sendUnderWay) ? SENDS_POLL_MS : false),
  });
  const deviceName = new Map(devices.map((d) => [d.id, d.name]));
  const ruleName = new Map((rules.data ?? []).map((r) => [r.id, r.name]));

  const columns: TableColumnsType<DicomSend> = [
    { key: 'time', title: t('procedures.sends.time'), width: 170, render: (_, s) => formatTime(s.created) },
    {
      key: 'exam',
      title: t('procedures.sends.exam'),
      width: 150,
      render: (_, s) => (
        <Typography.Text code copyable={{ text: s.examId }}>
          {s.examId.length > 12 ? `${s.examId.slice(0, 12)}…` : s.examId}
        </Typography.Text>
      ),
    },
    {
      key: 'destination',
      title: t('procedures.sends.destination'),
      width: 200,
      render: (_, s) => (
        <span>
          <code>{s.destinationAe}</code>
          {s.destinationId && deviceName.has(s.destinationId) ? ` · ${deviceName.get(s.destinationId)}` : ''}
        </span>
      ),
    },
    {
      key: 'trigger',
      title: t('procedures.sends.trigger'),
      width: 140,
      render: (_, s) =>
        s.trigger === 'rule' && s.ruleId && ruleName.has(s.ruleId)
          ? t('procedures.sends.ruleNamed', { name: ruleName.get(s.ruleId) })
          : t(`procedures.sends.triggers.${s.trigger}`),
    },
    {
      key: 'what',
      title: t('procedures.sends.what'),
      width: 110,
      render: (_, s) =>
        s.seriesUids ? t('procedures.sends.seriesCount', { count: s.seriesUids.length }) : t('procedures.sends.whole'),
    },
    { key: 'status', title: t('procedures.sends.status'), width: 300, render: (_, s) => <SendStatus send={s} /> },
    { key: 'failed', title: t('procedures.sends.failed'), width: 110, render: (_, s) => <SendFailedCount send={s} /> },
  ];

  return (
    <section className="yyp-forwarding__sends">
      <Typography.Title level={5}>{t('procedures.sends.title')}</Typography.Title>
      <QueryTable<DicomSend>
        query={sends}
        rowKey="id"
        size="small"
        columns={columns}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: t('procedures.sends.empty') }}
        aria-label={t('procedures.sends.title')}
      />
    </section>
  );
}

import { RedoOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Device, DicomSend } from '@yyp/contracts';
import { Button, Space, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchExamSends, retrySend, sendUnderWay } from '../../api/forwarding';
import { formatTime } from '../../shared/format/dates';
import { useNotify } from '../../shared/notify/useNotify';
import { SendStatus } from '../../ui/SendStatus';
import { QueryTable } from '../../ui/QueryTable';

/** How often the sends are asked again while one is queued or running. */
export const EXAM_SENDS_POLL_MS = 2000;

export const examSendsKey = (examId: string) => ['exams', examId, 'dicom-sends'] as const;

interface ExamSendsProps {
  examId: string;
  /** the organization's devices, to name a send's destination */
  devices: Device[];
  /** says why a retry was refused */
  onRefused: (error: unknown) => void;
}

/** The exam's sends, newest first, asked again while one is under way; a failed one can be sent again. */
export function ExamSends({ examId, devices, onRefused }: ExamSendsProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const sends = useQuery({
    queryKey: examSendsKey(examId),
    queryFn: ({ signal }) => fetchExamSends(examId, signal),
    refetchInterval: (query) => (query.state.data?.some(sendUnderWay) ? EXAM_SENDS_POLL_MS : false),
  });
  const retry = useMutation({
    mutationFn: (sendId: string) => retrySend(examId, sendId),
    onSuccess: async () => {
      notify.success(t('studyList.send.retried'));
      await queryClient.invalidateQueries({ queryKey: examSendsKey(examId) });
    },
    onError: onRefused,
  });
  const deviceName = new Map(devices.map((d) => [d.id, d.name]));

  const columns: TableColumnsType<DicomSend> = [
    { key: 'time', title: t('procedures.sends.time'), width: 160, render: (_, s) => formatTime(s.created) },
    {
      key: 'destination',
      title: t('procedures.sends.destination'),
      render: (_, s) => (
        <span>
          <code>{s.destinationAe}</code>
          {s.destinationId && deviceName.has(s.destinationId) ? ` · ${deviceName.get(s.destinationId)}` : ''}
          <br />
          <Typography.Text type="secondary">
            {s.seriesUids
              ? t('procedures.sends.seriesCount', { count: s.seriesUids.length })
              : t('procedures.sends.whole')}
            {' · '}
            {t(`procedures.sends.triggers.${s.trigger}`)}
          </Typography.Text>
        </span>
      ),
    },
    { key: 'status', title: t('procedures.sends.status'), width: 280, render: (_, s) => <SendStatus send={s} /> },
    {
      key: 'failed',
      title: t('procedures.sends.failed'),
      width: 130,
      render: (_, s) => (
        <Space orientation="vertical" size={2}>
          {s.failed > 0 ? (
            <Typography.Text type="danger">{t('procedures.sends.failedCount', { count: s.failed })}</Typography.Text>
          ) : (
            s.status !== 'failed' && '—'
          )}
          {s.status === 'failed' && (
            <Button
              size="small"
              icon={<RedoOutlined />}
              loading={retry.isPending && retry.variables === s.id}
              onClick={() => retry.mutate(s.id)}
            >
              {t('studyList.send.retry')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <section>
      <Typography.Title level={5}>{t('studyList.send.history')}</Typography.Title>
      <QueryTable<DicomSend>
        query={sends}
        rowKey="id"
        size="small"
        columns={columns}
        pagination={{ pageSize: 5, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: t('studyList.send.empty') }}
        aria-label={t('studyList.send.history')}
      />
    </section>
  );
}

import { useQuery } from '@tanstack/react-query';
import type { ReportTraceItem } from '@yyp/contracts';
import { Alert, Button, Empty, Table, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchReportTrace, fetchTraceDiff } from '../../../api/reports';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { ReportStatusTag } from '../../../shared/labels/ReportStatusTag';
import { reportKeys } from '../useReportEditor';
import { DiffView } from './DiffView';

/** The history trail: every step with who, when, what and the status it left; two steps compared. */
export function TraceTab({ reportId, canTrace }: { reportId: string; canTrace: boolean }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string[]>([]);
  const [compared, setCompared] = useState<[string, string] | null>(null);
  const trace = useQuery({
    queryKey: reportKeys.trace(reportId),
    queryFn: ({ signal }) => fetchReportTrace(reportId, signal),
    enabled: canTrace,
    staleTime: 0,
  });
  const diff = useQuery({
    queryKey: ['reports', reportId, 'diff', compared],
    queryFn: ({ signal }) => fetchTraceDiff(reportId, compared![0], compared![1], signal),
    enabled: compared !== null,
  });
  const diffRef = useRef<HTMLElement>(null);
  const diffShown = compared !== null && diff.data !== undefined;
  // The comparison opens below a trail that may fill the panel: bring it into view, or the
  // "Compare" click seems to do nothing (issue 20 item 7).
  useEffect(() => {
    if (diffShown) {
      diffRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }, [diffShown, compared]);

  if (!canTrace) {
    return <Alert type="info" showIcon title={t('report.trace.noPermission')} />;
  }
  if (trace.isError) {
    return <LoadFailedAlert error={trace.error} onRetry={() => void trace.refetch()} />;
  }
  const items = trace.data ?? [];
  if (trace.data && items.length === 0) {
    return <Empty description={t('report.trace.empty')} />;
  }
  const stepOf = (id: string) => items.findIndex((item) => item.id === id) + 1;

  function handleCompare() {
    // Older step first, whatever order they were ticked in.
    const [a, b] = [...picked].sort((x, y) => stepOf(x) - stepOf(y));
    if (a && b) {
      setCompared([a, b]);
    }
  }

  return (
    <div className="yyp-report__stack">
      <div className="yyp-report__trace-bar">
        <Typography.Text type="secondary">{t('report.trace.hint')}</Typography.Text>
        <Button size="small" type="primary" disabled={picked.length !== 2} onClick={handleCompare}>
          {t('report.trace.compare')}
        </Button>
      </div>
      <Table<ReportTraceItem>
        size="small"
        rowKey="id"
        loading={trace.isPending}
        dataSource={items}
        pagination={false}
        rowSelection={{
          selectedRowKeys: picked,
          hideSelectAll: true,
          onChange: (keys) => setPicked((keys as string[]).slice(-2)),
          getCheckboxProps: (item) => ({ 'aria-label': `${t('report.trace.step')} ${stepOf(item.id)}` }),
        }}
        columns={[
          { key: 'n', title: '#', width: 32, render: (_, item) => stepOf(item.id) },
          {
            key: 'action',
            title: `${t('report.trace.action')} / ${t('report.trace.status')}`,
            render: (_, item) => (
              <>
                {t(`report.trace.actions.${item.action}`)}
                <div>
                  <ReportStatusTag status={item.statusTo} />
                </div>
                {item.changed && <div className="yyp-report__trace-reason">{t('report.trace.changed')}</div>}
                {item.reason && <div className="yyp-report__trace-reason">{item.reason}</div>}
              </>
            ),
          },
          {
            key: 'who',
            title: `${t('report.trace.actor')} / ${t('report.trace.time')}`,
            render: (_, item) => (
              <div className="yyp-report__trace-who">
                <div>{item.actor?.name ?? ''}</div>
                <Typography.Text type="secondary">{formatTime(item.at)}</Typography.Text>
              </div>
            ),
          },
        ]}
      />
      {diff.isError && <LoadFailedAlert error={diff.error} onRetry={() => void diff.refetch()} />}
      {compared && diff.data && (
        <section ref={diffRef}>
          <Typography.Title level={5}>
            {t('report.trace.diffTitle', {
              from: `#${stepOf(compared[0])} ${t(`report.trace.actions.${diff.data.from.action}`)}`,
              to: `#${stepOf(compared[1])} ${t(`report.trace.actions.${diff.data.to.action}`)}`,
            })}
          </Typography.Title>
          <DiffView diff={diff.data} />
        </section>
      )}
    </div>
  );
}

function formatTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getMonth() + 1}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

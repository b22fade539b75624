import { AlertOutlined } from '@ant-design/icons';
import type { CriticalValue, CriticalValueStatus, Report } from '@yyp/contracts';
import { Button, Descriptions, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import {
  HandleCriticalValueDialog,
  ReceiveCriticalValueDialog,
  ReportCriticalValueDialog,
} from '../../../shared/safety/CriticalValueDialogs';
import { criticalLevelLabel, formatWhen, isHiddenError } from '../../../shared/safety/safetyFormat';
import { ReadOnlyMark, isFromExperts } from '../fromExperts';
import { useCriticalValues } from './useReportSafety';

const STATUS_COLOR: Record<CriticalValueStatus, string> = { sent: 'red', received: 'orange', handled: 'green' };

type Dialog = { kind: 'report' } | { kind: 'receive'; id: string } | { kind: 'handle'; id: string } | null;

/**
 * 危急值 (spec 000 §3 Report "critical value"): the report's critical values with their closed
 * loop, reporting one from the organization's dictionary, and recording the ordering side's
 * read-back and the handling. The server says what the caller may do (canReport, canFollow).
 */
export function CriticalValuesSection({ report }: { report: Report }) {
  const { t } = useTranslation();
  const { list, report: send, receive, handle } = useCriticalValues(report.id);
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);

  if (list.isError) {
    return isHiddenError(list.error) ? null : (
      <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} />
    );
  }
  if (!list.data) {
    return <Skeleton active paragraph={{ rows: 1 }} />;
  }
  const { items, canFollow } = list.data;
  // On the experts' report published back here no critical value is recorded (the server refuses it too).
  const readOnly = isFromExperts(report);
  const canReport = list.data.canReport && !readOnly;
  if (items.length === 0 && !canReport && !readOnly) {
    return null;
  }
  const open = items.filter((i) => i.status !== 'handled').length;
  return (
    <section className="yyp-safety" aria-label={t('reportSafety.critical.title')} data-testid="critical-values">
      <div className="yyp-safety__head">
        <Typography.Title level={5} className="yyp-safety__title">
          {t('reportSafety.critical.title')}
          {open > 0 && (
            <Tag color="red" className="yyp-safety__count">
              {t('reportSafety.critical.open', { count: open })}
            </Tag>
          )}
        </Typography.Title>
        {readOnly && <ReadOnlyMark testId="critical-read-only" />}
        {canReport && (
          <Button danger size="small" icon={<AlertOutlined />} onClick={() => setDialog({ kind: 'report' })}>
            {t('reportSafety.critical.report')}
          </Button>
        )}
      </div>
      {items.length === 0 ? (
        <Typography.Text type="secondary">{t('reportSafety.critical.empty')}</Typography.Text>
      ) : (
        items.map((item) => (
          <CriticalValueCard
            key={item.id}
            item={item}
            canFollow={canFollow}
            onReceive={() => setDialog({ kind: 'receive', id: item.id })}
            onHandle={() => setDialog({ kind: 'handle', id: item.id })}
          />
        ))
      )}
      <ReportCriticalValueDialog
        open={dialog?.kind === 'report'}
        bucketId={report.bucketId}
        onSubmit={(body) => send.mutateAsync(body)}
        onClose={close}
      />
      <ReceiveCriticalValueDialog
        open={dialog?.kind === 'receive'}
        onSubmit={(body) => receive.mutateAsync({ id: dialog?.kind === 'receive' ? dialog.id : '', body })}
        onClose={close}
      />
      <HandleCriticalValueDialog
        open={dialog?.kind === 'handle'}
        onSubmit={(body) => handle.mutateAsync({ id: dialog?.kind === 'handle' ? dialog.id : '', body })}
        onClose={close}
      />
    </section>
  );
}

interface CardProps {
  item: CriticalValue;
  canFollow: boolean;
  onReceive: () => void;
  onHandle: () => void;
}

function CriticalValueCard({ item, canFollow, onReceive, onHandle }: CardProps) {
  const { t } = useTranslation();
  type Key =
    'notifyDept' | 'reporter' | 'receiver' | 'confirmor' | 'readback' | 'handler' | 'handleNote' | 'receive' | 'handle';
  const c = (key: Key) => t(`reportSafety.critical.${key}`);
  return (
    <div className={`yyp-safety__item yyp-safety__item--${item.status}`} data-testid={`critical-${item.id}`}>
      <div className="yyp-safety__item-head">
        <Tag color={STATUS_COLOR[item.status]}>{t(`reportSafety.critical.status.${item.status}`)}</Tag>
        <span className="yyp-safety__text">{item.text}</span>
      </div>
      <Descriptions size="small" column={1}>
        {item.level && (
          <Descriptions.Item label={t('reportSafety.critical.level')}>
            <span data-testid="critical-level">{criticalLevelLabel(t, item.level)}</span>
          </Descriptions.Item>
        )}
        <Descriptions.Item label={c('notifyDept')}>{item.notifyDept || '—'}</Descriptions.Item>
        <Descriptions.Item label={c('reporter')}>
          {item.reporter?.name ?? '—'} · {formatWhen(item.sentAt)}
        </Descriptions.Item>
        {item.receivedAt && (
          <>
            <Descriptions.Item label={c('receiver')}>
              {item.receiver} · {formatWhen(item.receivedAt)}
            </Descriptions.Item>
            <Descriptions.Item label={c('confirmor')}>{item.confirmor}</Descriptions.Item>
            <Descriptions.Item label={c('readback')}>
              <span className="yyp-report__prewrap">{item.readbackOpinion}</span>
            </Descriptions.Item>
          </>
        )}
        {item.handledAt && (
          <Descriptions.Item label={c('handler')}>
            {item.handler?.name ?? '—'} · {formatWhen(item.handledAt)}
          </Descriptions.Item>
        )}
        {item.handleNote && (
          <Descriptions.Item label={c('handleNote')}>
            <span className="yyp-report__prewrap">{item.handleNote}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      {canFollow && item.status === 'sent' && (
        <Button size="small" type="primary" onClick={onReceive}>
          {c('receive')}
        </Button>
      )}
      {canFollow && item.status === 'received' && (
        <Button size="small" type="primary" onClick={onHandle}>
          {c('handle')}
        </Button>
      )}
    </div>
  );
}

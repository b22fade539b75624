import type { QueueExam } from '@yyp/contracts';
import { Badge, Button, Card, Space, Table, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { rowActions, type QueueList as ListName, type RowAction } from './callingView';

interface QueueListProps {
  list: ListName;
  items: QueueExam[];
  /** other queue types of the organization (move needs one) */
  otherQueues: number;
  /** the caller holds calling_call (no buttons otherwise) */
  canAct: boolean;
  busy: boolean;
  onAction: (action: RowAction, exam: QueueExam) => void;
}

const DANGER: ReadonlySet<RowAction> = new Set(['pass']);

/** One of /calling's lists (waiting, called, missed): number, masked name, exam, times and the row's actions. */
export function QueueList({ list, items, otherQueues, canAct, busy, onAction }: QueueListProps) {
  const { t } = useTranslation();
  const columns: TableColumnsType<QueueExam> = [
    {
      title: t('calling.column.queueNo'),
      dataIndex: 'queueNo',
      width: 72,
      render: (no: number, exam) => (
        <Space size={4}>
          <span className="yyp-calling__no">{no}</span>
          {exam.urgent && <Tag color="red">{t('calling.urgent')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('calling.column.name'),
      dataIndex: 'patientName',
      className: 'yyp-calling__nowrap',
      render: (name: string) => <strong>{name}</strong>,
    },
    {
      title: t('calling.column.exam'),
      key: 'exam',
      ellipsis: true,
      render: (_, exam) => [exam.modality, exam.examName].filter(Boolean).join(' · '),
    },
    ...(list === 'waiting' ? [waitColumn(t)] : []),
    list === 'waiting'
      ? { title: t('calling.column.checkIn'), dataIndex: 'checkedInAt', width: 90, render: timeOnly }
      : {
          title: t('calling.column.calledAt'),
          key: 'called',
          width: 120,
          className: 'yyp-calling__nowrap',
          render: (_, exam) => (
            <span>
              {timeOnly(exam.calledAt)} {exam.room && <Tag>{exam.room}</Tag>}
              {exam.calledCount > 1 && (
                <span className="yyp-calling__times">{t('calling.calledTimes', { count: exam.calledCount })}</span>
              )}
            </span>
          ),
        },
  ];
  if (canAct) {
    columns.push({
      title: t('calling.column.actions'),
      key: 'actions',
      render: (_, exam) => (
        <Space size={4} wrap>
          {rowActions(exam, otherQueues).map((action) => (
            <Button
              key={action}
              size="small"
              danger={DANGER.has(action)}
              type={action === 'call' || action === 'recall' ? 'primary' : 'default'}
              ghost={action === 'call' || action === 'recall'}
              disabled={busy}
              onClick={() => onAction(action, exam)}
            >
              {t(`calling.action.${action}`)}
            </Button>
          ))}
        </Space>
      ),
    });
  }
  return (
    <Card
      size="small"
      className={`yyp-calling__list yyp-calling__list--${list}`}
      title={
        <Space>
          {t(`calling.list.${list}`)}
          <Badge count={items.length} showZero color={list === 'missed' ? '#d4380d' : '#1677ff'} />
        </Space>
      }
    >
      <Table<QueueExam>
        size="small"
        rowKey="id"
        pagination={false}
        columns={columns}
        dataSource={items}
        locale={{ emptyText: t('calling.empty') }}
        aria-label={t(`calling.list.${list}`)}
      />
    </Card>
  );
}

/** A waiting patient's predicted wait, "约 12 分钟"; nothing when the queue has too little history. */
function waitColumn(t: TFunction): TableColumnsType<QueueExam>[number] {
  return {
    title: t('calling.wait.column'),
    key: 'wait',
    width: 96,
    className: 'yyp-calling__nowrap',
    render: (_, exam) =>
      typeof exam.predictedWaitMinutes === 'number' ? t('calling.wait.patient', { n: exam.predictedWaitMinutes }) : '',
  };
}

function timeOnly(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('HH:mm') : '';
}

import { SoundOutlined } from '@ant-design/icons';
import type { CallingBucket, QueueExam, QueuePrediction, QueueType } from '@yyp/contracts';
import { Alert, Badge, Button, Col, Row, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { PageSpinner } from '../../ui/PageSpinner';
import { CALL_NEXT_KEY_LABEL, isCallNextKey } from './callShortcut';
import { partitionQueue, resortTargets, type QueueList as QueueListName, type RowAction } from './callingView';
import { QueueList } from './QueueList';
import { TargetDialog, type TargetDialogState } from './TargetDialog';
import { useDeskAnnouncer } from './useAnnouncer';
import { canCall, useCallingBuckets } from './useCallingBuckets';
import { useQueueCommands, useQueueDay, useQueueTypes, type QueueCommand } from './useCallingQueue';
import { useQueueLive } from './useQueueLive';
import './calling.css';

const CHOICE_KEY = 'yyp.calling.choice';

function storedChoice(): { bucketId?: string; queueTypeId?: string } {
  try {
    return JSON.parse(localStorage.getItem(CHOICE_KEY) ?? '{}') as { bucketId?: string; queueTypeId?: string };
  } catch {
    return {};
  }
}

/** /calling (spec 000 §2; issue 23): a room's queue of today, the call key, and the announcement said here. */
export function CallingPage() {
  const { t } = useTranslation();
  const buckets = useCallingBuckets();
  const [choice, setChoice] = useState(storedChoice);
  const bucket = buckets.data?.find((b) => b.id === choice.bucketId) ?? buckets.data?.[0];

  if (buckets.isPending) return <PageSpinner />;
  if (buckets.isError) return <LoadFailedAlert error={buckets.error} onRetry={() => void buckets.refetch()} />;
  if (!bucket) return <Alert type="info" showIcon title={t('calling.noOrganization')} />;

  function choose(next: { bucketId?: string; queueTypeId?: string }) {
    setChoice(next);
    try {
      localStorage.setItem(CHOICE_KEY, JSON.stringify(next));
    } catch {
      // not remembered: the page still works
    }
  }

  return (
    <CallingDesk
      key={bucket.id}
      buckets={buckets.data ?? []}
      bucket={bucket}
      queueTypeId={choice.queueTypeId}
      onChoose={choose}
    />
  );
}

interface LastCall {
  queueNo: number;
  name: string;
  room: string;
}

interface CallingDeskProps {
  buckets: CallingBucket[];
  bucket: CallingBucket;
  queueTypeId: string | undefined;
  onChoose: (choice: { bucketId?: string; queueTypeId?: string }) => void;
}

function CallingDesk({ buckets, bucket, queueTypeId, onChoose }: CallingDeskProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const types = useQueueTypes(bucket.id);
  const queueType = types.data?.find((q) => q.id === queueTypeId) ?? types.data?.[0];
  const live = useQueueLive(bucket.id);
  const day = useQueueDay(bucket.id, queueType?.id, live.connected);
  const commands = useQueueCommands(bucket.id);
  const [dialog, setDialog] = useState<TargetDialogState | null>(null);
  const [lastCall, setLastCall] = useState<LastCall | null>(null);
  const announcer = useDeskAnnouncer();
  const lists = useMemo(() => partitionQueue(day.data?.items ?? []), [day.data]);
  const mayCall = canCall(bucket);
  const others = (types.data ?? []).filter((q) => q.id !== queueType?.id);

  async function run(command: QueueCommand) {
    try {
      const result = await commands.mutateAsync(command);
      if (result?.call) {
        // The desk sees the name as its list shows it (the call itself carries the screen's masked one).
        const { queueNo, room, name } = result.call;
        setLastCall({ queueNo, room, name: result.queueExam?.patientName ?? name });
        announcer.say(result.call.text);
      } else if (command.kind === 'callNext') {
        notify.info(t('calling.nothingWaiting'));
      }
      return true;
    } catch (error) {
      notify.error(error);
      return false;
    }
  }

  const callNextRef = useRef<() => void>(() => undefined);
  useEffect(() => {
    callNextRef.current = () => {
      if (queueType && mayCall && !commands.isPending) void run({ kind: 'callNext', queueTypeId: queueType.id });
    };
  });
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!isCallNextKey(event)) return;
      event.preventDefault();
      callNextRef.current();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  function onAction(action: RowAction, exam: QueueExam) {
    if (action === 'move') setDialog({ kind: 'move', exam, queues: others });
    else if (action === 'resort') setDialog({ kind: 'resort', exam, numbers: resortTargets(lists.waiting, exam.id) });
    else void run({ kind: 'action', id: exam.id, input: { action } });
  }

  const list = (name: QueueListName) => (
    <QueueList
      list={name}
      items={lists[name]}
      otherQueues={others.length}
      canAct={mayCall}
      busy={commands.isPending}
      onAction={onAction}
    />
  );

  async function closeAfter(command: QueueCommand) {
    if (await run(command)) setDialog(null);
  }

  const heading = (
    <PageHeading
      title={t('calling.title')}
      description={`${bucket.groupName} / ${bucket.name}`}
      extra={
        <Space wrap>
          {buckets.length > 1 && (
            <Select
              aria-label={t('calling.organization')}
              value={bucket.id}
              onChange={(bucketId) => onChoose({ bucketId })}
              options={buckets.map((b) => ({ value: b.id, label: `${b.groupName} / ${b.name}` }))}
              className="yyp-calling__bucket"
            />
          )}
          {queueType && (
            <Select
              aria-label={t('calling.queueType')}
              value={queueType.id}
              onChange={(id) => onChoose({ bucketId: bucket.id, queueTypeId: id })}
              options={(types.data ?? []).map((q) => ({ value: q.id, label: q.displayName }))}
              className="yyp-calling__queue"
            />
          )}
          <Badge
            status={live.connected ? 'success' : 'processing'}
            text={live.connected ? t('calling.live.connected') : t('calling.live.polling')}
          />
        </Space>
      }
    />
  );

  if (types.isError) return <LoadFailedAlert error={types.error} onRetry={() => void types.refetch()} />;
  if (types.isPending) return <PageSpinner />;
  if (!queueType) {
    return (
      <div className="yyp-calling">
        {heading}
        <Alert type="info" showIcon title={t('calling.noQueueTypes')} />
      </div>
    );
  }

  return (
    <div className="yyp-calling">
      {heading}
      {day.isError && <LoadFailedAlert error={day.error} onRetry={() => void day.refetch()} />}
      <div className="yyp-calling__bar">
        {mayCall && (
          <Button
            type="primary"
            size="large"
            icon={<SoundOutlined />}
            className="yyp-calling__next"
            loading={commands.isPending}
            disabled={lists.waiting.length === 0}
            onClick={() => callNextRef.current()}
          >
            {t('calling.callNext', { key: CALL_NEXT_KEY_LABEL })}
          </Button>
        )}
        <RoomWaits predictions={day.data?.predictions ?? []} queueTypes={types.data ?? []} current={queueType.id} />
        <div className="yyp-calling__last" aria-live="polite">
          {lastCall && (
            <Typography.Text strong>
              {t('calling.calledNotice', { queueNo: lastCall.queueNo, name: lastCall.name })}
              {lastCall.room && ` → ${lastCall.room}`}
            </Typography.Text>
          )}
        </div>
      </div>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={12}>
          {list('waiting')}
        </Col>
        <Col xs={24} xl={12} className="yyp-stack">
          {list('called')}
          {list('missed')}
        </Col>
      </Row>
      <TargetDialog
        state={dialog}
        busy={commands.isPending}
        onClose={() => setDialog(null)}
        onMove={(exam, target) =>
          void closeAfter({ kind: 'action', id: exam.id, input: { action: 'move', targetQueueTypeId: target } })
        }
        onResort={(exam, targetQueueNo) => void closeAfter({ kind: 'resort', id: exam.id, targetQueueNo })}
      />
    </div>
  );
}

/** Each room's predicted wait for a patient checking in now (issue 26); rooms without enough history show nothing. */
function RoomWaits({
  predictions,
  queueTypes,
  current,
}: {
  predictions: QueuePrediction[];
  queueTypes: QueueType[];
  current: string;
}) {
  const { t } = useTranslation();
  const shown = predictions.flatMap((p) => {
    const queue = queueTypes.find((q) => q.id === p.queueTypeId);
    return queue && p.predictedWaitMinutes !== null ? [{ ...p, name: queue.roomName || queue.displayName }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <Space size={4} wrap className="yyp-calling__waits" aria-label={t('calling.wait.rooms')}>
      {shown.map((p) => (
        <Tag key={p.queueTypeId} color={p.queueTypeId === current ? 'blue' : undefined}>
          {p.name} · {t('calling.wait.room', { n: p.predictedWaitMinutes })}
        </Tag>
      ))}
    </Space>
  );
}

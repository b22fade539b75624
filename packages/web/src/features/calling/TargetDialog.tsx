import type { QueueExam, QueueType } from '@yyp/contracts';
import { Form, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type TargetDialogState =
  { kind: 'move'; exam: QueueExam; queues: QueueType[] } | { kind: 'resort'; exam: QueueExam; numbers: number[] };

interface TargetDialogProps {
  state: TargetDialogState | null;
  busy: boolean;
  onClose: () => void;
  onMove: (exam: QueueExam, queueTypeId: string) => void;
  onResort: (exam: QueueExam, targetQueueNo: number) => void;
}

/** Move a patient to another room (queue type), or to another waiting number of the same queue. */
export function TargetDialog({ state, busy, onClose, onMove, onResort }: TargetDialogProps) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<string | number | undefined>(undefined);
  const kind = state?.kind ?? 'move';
  const options =
    state?.kind === 'move'
      ? state.queues.map((q) => ({
          value: q.id,
          label: q.roomName ? `${q.displayName} (${q.roomName})` : q.displayName,
        }))
      : (state?.numbers ?? []).map((n) => ({ value: n, label: String(n) }));

  function submit() {
    if (!state || target === undefined) return;
    if (state.kind === 'move') onMove(state.exam, String(target));
    else onResort(state.exam, Number(target));
  }

  return (
    <Modal
      open={state !== null}
      title={state ? t(`calling.${kind}.title`, { queueNo: state.exam.queueNo }) : ''}
      okText={t(`calling.${kind}.ok`)}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: target === undefined, loading: busy }}
      onOk={submit}
      onCancel={onClose}
      afterClose={() => setTarget(undefined)}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t(`calling.${kind}.target`)}>
          <Select<string | number>
            aria-label={t(`calling.${kind}.target`)}
            value={target}
            onChange={setTarget}
            options={options}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

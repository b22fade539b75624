import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Device, ExamDetail } from '@yyp/contracts';
import { Alert, App, Checkbox, Form, Modal, Radio, Select, Space, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasCode } from '../../api/errors';
import { errorMessage } from '../../api/errorMessage';
import { fetchExamDetail } from '../../api/exams';
import { sendExam } from '../../api/forwarding';
import { fetchProcedureList } from '../../api/procedures';
import { useNotify } from '../../shared/notify/useNotify';
import { studyKeys } from '../../shared/queries/studyQueries';
import { FormModalActions } from '../../ui/FormModal';
import { ExamSends, examSendsKey } from './SendStudyDialogSends';

/** The exam the dialog sends, and the name its title gives it (the patient's). */
export interface SendStudyTarget {
  examId: string;
  bucketId: string;
  name: string;
}

interface SendValues {
  destinationId: string | undefined;
  scope: 'whole' | 'series';
  seriesUids: string[];
}

/** The devices a study can be sent to: those with a host and a port (the server refuses others, 400). */
const canReceive = (d: Device): boolean => Boolean(d.host) && d.port !== null;

/**
 * "Send to…" of an exam (issue 28): a device of its organization with a host and a port, the whole
 * study or some of its series; the send is queued and a job sends it by C-STORE. Below, the exam's
 * sends with their progress (asked again while one is under way), a failed one sent again on demand.
 * Enter sends once the form is valid; Esc closes.
 */
export function SendStudyDialog({ target, onClose }: { target: SendStudyTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={target !== null}
      title={target ? t('studyList.send.title', { name: target.name }) : ''}
      onCancel={onClose}
      footer={null}
      width={820}
      destroyOnHidden
    >
      {target && <SendStudyForm target={target} onClose={onClose} />}
    </Modal>
  );
}

function seriesLabel(t: TFunction, s: ExamDetail['series'][number]) {
  const parts = [s.seriesNumber === null ? '' : `#${s.seriesNumber}`, s.modality, s.description || s.bodyPart];
  return `${parts.filter(Boolean).join(' ')} · ${t('studyList.send.images', { count: s.instanceCount })}`;
}

function SendStudyForm({ target, onClose }: { target: SendStudyTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SendValues>();
  const scope = Form.useWatch('scope', form);
  const { examId, bucketId } = target;
  // the same caches as procedure management's devices and the detail drawer's exam
  const devices = useQuery({
    queryKey: ['buckets', bucketId, 'procedure-management', 'devices'],
    queryFn: ({ signal }) => fetchProcedureList(bucketId, 'devices', signal),
  });
  const detail = useQuery({
    queryKey: studyKeys.detail(examId),
    queryFn: ({ signal }) => fetchExamDetail(examId, signal),
  });
  const destinations = (devices.data ?? []).filter(canReceive);
  const series = detail.data?.series ?? [];

  /** 400 and 409 say what about this send was refused; anything else as every call says it. */
  const refused = (error: unknown) => {
    if (hasCode(error, 'ValidationError')) void message.error(t('studyList.send.invalid'));
    else if (hasCode(error, 'Conflict')) void message.error(t('studyList.send.notRetriable'));
    else notify.error(error);
  };
  const send = useMutation({
    mutationFn: (values: SendValues) =>
      sendExam(examId, {
        destinationId: values.destinationId ?? '',
        ...(values.scope === 'series' ? { seriesUids: values.seriesUids } : {}),
      }),
    onSuccess: async () => {
      notify.success(t('studyList.send.queued'));
      await queryClient.invalidateQueries({ queryKey: examSendsKey(examId) });
    },
    onError: refused,
  });

  const handleKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const field = event.target as HTMLElement;
    // Enter in an open list picks its option; elsewhere it sends (when the form is valid)
    if (event.key !== 'Enter' || field.getAttribute('aria-expanded') === 'true' || field.tagName === 'BUTTON') return;
    event.preventDefault();
    form.submit();
  };

  const noDestination = devices.isSuccess && destinations.length === 0;
  return (
    <Space orientation="vertical" size="middle" className="yyp-full-width">
      <Form<SendValues>
        name="sendStudy"
        form={form}
        layout="vertical"
        disabled={send.isPending}
        initialValues={{ destinationId: undefined, scope: 'whole', seriesUids: [] }}
        onFinish={(values) => send.mutate(values)}
        onKeyDown={handleKeyDown}
      >
        {noDestination && (
          <Alert type="warning" showIcon title={t('studyList.send.noDestination')} style={{ marginBottom: 16 }} />
        )}
        <Form.Item
          name="destinationId"
          label={t('studyList.send.destination')}
          rules={[{ required: true, message: t('common.required', { field: t('studyList.send.destination') }) }]}
        >
          <Select
            autoFocus
            placeholder={t('studyList.send.destinationPlaceholder')}
            showSearch={{ optionFilterProp: 'label' }}
            loading={devices.isPending}
            notFoundContent={devices.isError ? errorMessage(t, devices.error) : undefined}
            options={destinations.map((d) => ({
              value: d.id,
              label: `${d.name} · ${d.aeTitle} (${d.host}:${d.port})`,
            }))}
          />
        </Form.Item>
        <Form.Item name="scope" label={t('studyList.send.what')}>
          <Radio.Group>
            <Radio value="whole">{t('studyList.send.whole')}</Radio>
            <Radio value="series" disabled={series.length === 0}>
              {t('studyList.send.chosen')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {detail.isSuccess && series.length === 0 && (
          <Typography.Paragraph type="secondary">{t('studyList.send.noSeries')}</Typography.Paragraph>
        )}
        {scope === 'series' && (
          <Form.Item
            name="seriesUids"
            rules={[{ type: 'array', min: 1, required: true, message: t('studyList.send.seriesRequired') }]}
          >
            <Checkbox.Group style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
              {series.map((s) => (
                <Checkbox key={s.seriesUid} value={s.seriesUid}>
                  {seriesLabel(t, s)}
                </Checkbox>
              ))}
            </Checkbox.Group>
          </Form.Item>
        )}
        <FormModalActions onCancel={onClose} pending={send.isPending} submitText={t('studyList.send.send')} />
      </Form>
      <ExamSends examId={examId} devices={devices.data ?? []} onRefused={refused} />
    </Space>
  );
}

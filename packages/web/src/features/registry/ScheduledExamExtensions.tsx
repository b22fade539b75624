import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  scheduledExamExtensionCalls,
  type ExamExtensionConfig,
  type ScheduledExam,
  type ScheduledExamExtension,
} from '@yyp/contracts';
import { Flex, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/call';
import { useNotify } from '../../shared/notify/useNotify';

type Value = string | number;

const extensionKey = (id: string) => ['scheduled-exams', id, 'exam-extension'] as const;

/**
 * The organization's exam extension fields of one scheduled exam, in the registration form when it
 * is edited (GET scheduled-exams/{id}/exam-extension). Each value is saved as it is left
 * (POST upsert-extension; an emptied optional field is cleared). Read only once the exam has its
 * images, when the exam's own fields are the record; nothing shows when the organization has none.
 */
export function ScheduledExamExtensions({ exam }: { exam: ScheduledExam | undefined }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const id = exam?.id ?? '';
  const loaded = useQuery({
    queryKey: extensionKey(id),
    queryFn: ({ signal }) => callApi(scheduledExamExtensionCalls.get, { params: { id } }, { signal }),
    enabled: Boolean(id),
  });
  const save = useMutation({
    mutationFn: ({ configId, value }: { configId: string; value: Value }) =>
      callApi(scheduledExamExtensionCalls.upsert, { params: { id }, body: { configId, value } }),
    onSuccess: (answer: ScheduledExamExtension) => {
      queryClient.setQueryData(extensionKey(id), answer);
      notify.success(t('registry.extensions.saved'));
    },
    onError: notify.error,
  });
  if (!exam || !loaded.data || loaded.data.configs.length === 0) return null;
  const values = loaded.data.values;
  const readOnly = Boolean(exam.examId) || exam.status === 'Cancelled';

  function commit(config: ExamExtensionConfig, value: Value | null) {
    const next = value ?? '';
    if ((values[config.id] ?? '') === next) return;
    save.mutate({ configId: config.id, value: next });
  }

  return (
    <div className="yyp-registry-form__extensions" data-testid="registry-exam-extensions">
      <Typography.Text strong>{t('registry.extensions.title')}</Typography.Text>
      {readOnly && <Typography.Text type="secondary"> {t('registry.extensions.readOnly')}</Typography.Text>}
      <div className="yyp-registry-form__grid">
        {loaded.data.configs.map((config) => (
          <Flex key={config.id} vertical gap={4} component="label">
            <span>
              {config.label}
              {config.required && ' *'}
            </span>
            <ExtensionInput
              config={config}
              value={values[config.id]}
              disabled={readOnly || save.isPending}
              onCommit={(value) => commit(config, value)}
            />
          </Flex>
        ))}
      </div>
    </div>
  );
}

/** One field's control by its type; it reports its value when left (text, number, date) or picked (select). */
function ExtensionInput({
  config,
  value,
  disabled,
  onCommit,
}: {
  config: ExamExtensionConfig;
  value: Value | undefined;
  disabled: boolean;
  onCommit: (value: Value | null) => void;
}) {
  const key = `${config.id}:${String(value ?? '')}`;
  switch (config.type) {
    case 'number':
      return (
        <InputNumber
          key={key}
          aria-label={config.label}
          defaultValue={typeof value === 'number' ? value : undefined}
          disabled={disabled}
          onBlur={(e) => onCommit(e.target.value === '' ? null : Number(e.target.value))}
        />
      );
    case 'select':
      return (
        <Select
          aria-label={config.label}
          allowClear={!config.required}
          value={typeof value === 'string' ? value : undefined}
          disabled={disabled}
          options={config.options.map((o) => ({ value: o, label: o }))}
          onChange={(picked: string | undefined) => onCommit(picked ?? null)}
        />
      );
    case 'date':
      return (
        <Input
          key={key}
          type="date"
          aria-label={config.label}
          defaultValue={typeof value === 'string' ? value : ''}
          disabled={disabled}
          onBlur={(e) => onCommit(e.target.value)}
        />
      );
    case 'text':
      return (
        <Input
          key={key}
          aria-label={config.label}
          maxLength={256}
          defaultValue={typeof value === 'string' ? value : ''}
          disabled={disabled}
          onBlur={(e) => onCommit(e.target.value.trim())}
        />
      );
  }
}

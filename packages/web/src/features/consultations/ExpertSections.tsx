import { useMutation } from '@tanstack/react-query';
import { CONSULTATION_TEXT_MAX, type ConsultationDetail } from '@yyp/contracts';
import { Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveResult, saveSuggestion } from '../../api/consultations';
import { formatTime } from '../../shared/format/dates';
import { requiredRule } from '../../shared/forms/formRules';
import { FileList, UploadFilesButton } from './FileList';
import { EditButton, SaveButtons } from './SectionButtons';
import { useDetailChange } from './useConsultation';

function Text({ value }: { value: string }) {
  const { t } = useTranslation();
  return value ? (
    <Typography.Paragraph className="yyp-consultation__text">{value}</Typography.Paragraph>
  ) : (
    <Typography.Text type="secondary">{t('consultations.detail.empty')}</Typography.Text>
  );
}

/** The experts' suggestion and treatment plan; a writing expert edits them while scheduled ('suggest'). */
export function SuggestionSection({ detail, can }: { detail: ConsultationDetail; can: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const { applied, failed } = useDetailChange(detail.id);
  const save = useMutation({
    mutationFn: (v: { suggestion: string; treatmentPlan: string }) =>
      saveSuggestion(detail.id, {
        suggestion: (v.suggestion ?? '').trim(),
        treatmentPlan: (v.treatmentPlan ?? '').trim(),
        version: detail.version,
      }),
    onSuccess: (d) => {
      setEditing(false);
      applied(d, t('consultations.detail.saved'));
    },
    onError: failed,
  });
  return (
    <Card
      title={t('consultations.detail.suggestion')}
      extra={can.has('suggest') && !editing ? <EditButton onClick={() => setEditing(true)} /> : null}
    >
      {editing ? (
        <Form
          layout="vertical"
          name="consultationSuggestion"
          initialValues={{ suggestion: detail.suggestion, treatmentPlan: detail.treatmentPlan }}
          onFinish={(v: { suggestion: string; treatmentPlan: string }) => save.mutate(v)}
        >
          <Form.Item name="suggestion" label={t('consultations.detail.suggestion')}>
            <Input.TextArea rows={5} maxLength={CONSULTATION_TEXT_MAX} />
          </Form.Item>
          <Form.Item name="treatmentPlan" label={t('consultations.detail.treatmentPlan')}>
            <Input.TextArea rows={4} maxLength={CONSULTATION_TEXT_MAX} />
          </Form.Item>
          <SaveButtons onCancel={() => setEditing(false)} pending={save.isPending} />
        </Form>
      ) : (
        <>
          <Text value={detail.suggestion} />
          <Typography.Title level={5}>{t('consultations.detail.treatmentPlan')}</Typography.Title>
          <Text value={detail.treatmentPlan} />
        </>
      )}
    </Card>
  );
}

/** The result (spec 000 §5: not empty) and its attachments; a writing expert writes them ('writeResult', 'uploadResult'). */
export function ResultSection({ detail, can }: { detail: ConsultationDetail; can: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const { applied, failed } = useDetailChange(detail.id);
  const save = useMutation({
    mutationFn: (v: { result: string }) => saveResult(detail.id, { result: v.result.trim(), version: detail.version }),
    onSuccess: (d) => {
      setEditing(false);
      applied(d, t('consultations.detail.saved'));
    },
    onError: failed,
  });
  return (
    <Card
      title={t('consultations.detail.result')}
      extra={can.has('writeResult') && !editing ? <EditButton onClick={() => setEditing(true)} /> : null}
    >
      {editing ? (
        <Form
          layout="vertical"
          name="consultationResult"
          initialValues={{ result: detail.result }}
          onFinish={(v: { result: string }) => save.mutate(v)}
        >
          <Form.Item
            name="result"
            label={t('consultations.detail.result')}
            rules={[requiredRule(t, t('consultations.detail.result'))]}
          >
            <Input.TextArea
              rows={6}
              maxLength={CONSULTATION_TEXT_MAX}
              placeholder={t('consultations.result.placeholder')}
            />
          </Form.Item>
          <SaveButtons onCancel={() => setEditing(false)} pending={save.isPending} />
        </Form>
      ) : (
        <>
          <Text value={detail.result} />
          {detail.resultAt && (
            <Typography.Text type="secondary">
              {t('consultations.result.by', { name: detail.resultByName, time: formatTime(detail.resultAt) })}
            </Typography.Text>
          )}
        </>
      )}
      <Typography.Title level={5}>{t('consultations.detail.resultAttachments')}</Typography.Title>
      <FileList consultationId={detail.id} files={detail.resultAttachments} removable={can.has('uploadResult')} />
      {can.has('uploadResult') && (
        <UploadFilesButton consultationId={detail.id} label={t('consultations.result.upload')} />
      )}
    </Card>
  );
}

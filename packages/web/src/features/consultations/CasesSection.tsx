import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import {
  CONSULTATION_CASE_TYPES,
  MAX_NOTE_LENGTH,
  type ConsultationCaseType,
  type ConsultationDetail,
} from '@yyp/contracts';
import { App, Button, Card, Empty, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addConsultationCase, removeConsultationCase } from '../../api/consultations';
import { requiredRule } from '../../shared/forms/formRules';
import { FormModal, FormModalActions } from '../../ui/FormModal';
import { FileList, UploadFilesButton } from './FileList';
import { useDetailChange } from './useConsultation';

interface CaseValues {
  name: string;
  type: ConsultationCaseType;
  note: string;
}

/** Case documents (name, type, note, files); the requester adds ('addCase') and deletes ('deleteCase') them. */
export function CasesSection({ detail, can }: { detail: ConsultationDetail; can: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { applied, failed } = useDetailChange(detail.id);
  const [adding, setAdding] = useState(false);
  const add = useMutation({
    mutationFn: (v: CaseValues) =>
      addConsultationCase(detail.id, { name: v.name.trim(), type: v.type, note: (v.note ?? '').trim() }),
    onSuccess: (d) => {
      setAdding(false);
      applied(d);
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (caseId: string) => removeConsultationCase(detail.id, caseId),
    onSuccess: (d) => applied(d),
    onError: failed,
  });
  return (
    <Card
      title={t('consultations.detail.cases')}
      extra={
        can.has('addCase') ? (
          <Button size="small" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('consultations.cases.add')}
          </Button>
        ) : null
      }
    >
      {detail.cases.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('consultations.detail.empty')} />
      )}
      <Space direction="vertical" style={{ width: '100%' }}>
        {detail.cases.map((c) => (
          <Card
            key={c.id}
            size="small"
            type="inner"
            title={`${c.name} · ${t(`consultations.cases.types.${c.type}`)}`}
            extra={
              can.has('deleteCase') ? (
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`${t('consultations.cases.remove')} ${c.name}`}
                  onClick={() =>
                    modal.confirm({
                      title: t('consultations.cases.remove'),
                      content: t('consultations.cases.confirmRemove'),
                      okButtonProps: { danger: true },
                      onOk: () => remove.mutateAsync(c.id),
                    })
                  }
                />
              ) : null
            }
          >
            {c.note && <Typography.Paragraph className="yyp-consultation__text">{c.note}</Typography.Paragraph>}
            <FileList consultationId={detail.id} files={c.files} removable={can.has('deleteCase')} />
            {can.has('addCase') && (
              <UploadFilesButton consultationId={detail.id} caseId={c.id} label={t('consultations.cases.upload')} />
            )}
          </Card>
        ))}
      </Space>
      <FormModal open={adding} title={t('consultations.cases.add')} onClose={() => setAdding(false)}>
        <Form<CaseValues>
          layout="vertical"
          name="consultationCase"
          initialValues={{ name: '', type: 'record', note: '' }}
          onFinish={(v) => add.mutate(v)}
        >
          <Form.Item
            name="name"
            label={t('consultations.cases.name')}
            rules={[requiredRule(t, t('consultations.cases.name')), { max: 128 }]}
          >
            <Input maxLength={128} autoFocus />
          </Form.Item>
          <Form.Item name="type" label={t('consultations.cases.type')}>
            <Select
              aria-label={t('consultations.cases.type')}
              options={CONSULTATION_CASE_TYPES.map((type) => ({
                value: type,
                label: t(`consultations.cases.types.${type}`),
              }))}
            />
          </Form.Item>
          <Form.Item name="note" label={t('consultations.cases.note')} rules={[{ max: MAX_NOTE_LENGTH }]}>
            <Input.TextArea rows={2} maxLength={MAX_NOTE_LENGTH} />
          </Form.Item>
          <FormModalActions onCancel={() => setAdding(false)} pending={add.isPending} />
        </Form>
      </FormModal>
    </Card>
  );
}

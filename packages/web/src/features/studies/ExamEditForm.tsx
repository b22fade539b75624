import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  MAX_BODYPART_COUNT,
  PATIENT_GENDERS,
  PATIENT_SOURCES,
  patientClassKeys,
  type ExamDetail,
  type ExamUpdate,
} from '@yyp/contracts';
import { Alert, Button, DatePicker, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { updateExam } from '../../api/exams';
import { useNotify } from '../../shared/notify/useNotify';
import { useStudyLabels, type FieldKey } from '../../shared/labels/studyLabels';
import { studyKeys } from '../../shared/queries/studyQueries';

type Values = Omit<ExamUpdate, 'patientDob' | 'extensions'> & { patientDob?: Dayjs | null };

const PRIVATE = [
  'patientName',
  'patientId',
  'patientPhone',
  'accessionNumber',
  'inpatientId',
  'outpatientId',
  'physicalExamId',
] as const;

/** Only the fields the user changed go to POST exams/{id}; a masked caller cannot edit private fields. */
export function changedFields(exam: ExamDetail, values: Values): ExamUpdate {
  const out: Record<string, unknown> = {};
  const dob = values.patientDob ? values.patientDob.format('YYYYMMDD') : '';
  if (!exam.masked && dob !== exam.patientDob) {
    out.patientDob = dob;
  }
  for (const [key, value] of Object.entries(values)) {
    if (key === 'patientDob' || value === undefined) {
      continue;
    }
    const before = (exam as Record<string, unknown>)[key];
    const normalized = typeof value === 'string' ? value.trim() : value;
    if (normalized !== before && !(normalized === '' && (before === null || before === undefined))) {
      out[key] =
        normalized === '' && (key === 'weight' || key === 'height' || key === 'bodyPartCount') ? null : normalized;
    }
  }
  return out as ExamUpdate;
}

export function ExamEditForm({
  exam,
  onDone,
  onCancel,
}: {
  exam: ExamDetail;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const source = Form.useWatch('patientSource', form) ?? exam.patientSource;
  const keys: readonly string[] = source
    ? (patientClassKeys[source as keyof typeof patientClassKeys] ?? [])
    : ['inpatientId', 'outpatientId', 'bedNum', 'physicalExamId'];
  const save = useMutation({
    mutationFn: (body: ExamUpdate) => updateExam(exam.id, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(studyKeys.detail(exam.id), saved);
      notify.success(t('studyList.detail.saved'));
      onDone();
    },
    onError: notify.error,
  });
  const { field: f, gender, source: sourceLabel } = useStudyLabels();
  const locked = (key: string) => exam.masked && (PRIVATE as readonly string[]).includes(key);
  const text = (name: keyof Values & FieldKey, max: number) => (
    <Form.Item name={name} label={f(name)} rules={[{ max, message: `≤ ${max}` }]}>
      <Input disabled={locked(name)} maxLength={max} />
    </Form.Item>
  );

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={{ ...exam, patientDob: exam.patientDob ? dayjs(exam.patientDob, 'YYYYMMDD') : null }}
      onFinish={(values) => {
        const body = changedFields(exam, values);
        if (Object.keys(body).length === 0) {
          onCancel();
          return;
        }
        save.mutate(body);
      }}
    >
      {exam.masked && <Alert type="info" showIcon title={t('studyList.detail.private')} className="yyp-form-note" />}
      <div className="yyp-form-grid">
        <Form.Item
          name="patientName"
          label={f('patientName')}
          rules={[{ required: !exam.masked, whitespace: true }, { max: 64 }]}
        >
          <Input disabled={locked('patientName')} maxLength={64} />
        </Form.Item>
        {text('patientId', 64)}
        <Form.Item name="patientGender" label={f('gender')}>
          <Select options={PATIENT_GENDERS.map((g) => ({ value: g, label: gender(g) }))} />
        </Form.Item>
        <Form.Item name="patientDob" label={f('birthDate')}>
          <DatePicker disabled={exam.masked} disabledDate={(d) => d.isAfter(dayjs())} />
        </Form.Item>
        <Form.Item
          name="patientPhone"
          label={f('phone')}
          rules={[{ pattern: /^(\+?[0-9-]{5,20})?$/, message: f('phone') }]}
        >
          <Input disabled={locked('patientPhone')} maxLength={20} />
        </Form.Item>
        {text('accessionNumber', 64)}
        <Form.Item name="patientSource" label={f('source')}>
          <Select allowClear options={PATIENT_SOURCES.map((s) => ({ value: s, label: sourceLabel(s) }))} />
        </Form.Item>
        {keys.includes('inpatientId') && text('inpatientId', 64)}
        {keys.includes('bedNum') && text('bedNum', 16)}
        {keys.includes('outpatientId') && text('outpatientId', 64)}
        {keys.includes('physicalExamId') && text('physicalExamId', 64)}
        {text('applyDept', 64)}
        {text('orderPlacer', 64)}
        {text('bodyPart', 64)}
        {text('studyDesc', 64)}
        {text('scanTech', 64)}
        {text('physician', 64)}
        <Form.Item name="bodyPartCount" label={f('bodyPartCount')}>
          <InputNumber min={1} max={MAX_BODYPART_COUNT} precision={0} />
        </Form.Item>
        <Form.Item name="weight" label={f('weight')}>
          <InputNumber min={0.1} max={500} />
        </Form.Item>
        <Form.Item name="height" label={f('height')}>
          <InputNumber min={10} max={300} />
        </Form.Item>
        <Form.Item name="urgentFlag" label={f('urgent')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="teleMedFlag" label={f('tele')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="isPrivacy" label={f('confidential')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
      <Form.Item name="clinicImpression" label={f('clinicImpression')} rules={[{ max: 1024 }]}>
        <Input.TextArea rows={3} maxLength={1024} showCount />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('studyList.detail.save')}
        </Button>
        <Button onClick={onCancel}>{t('studyList.detail.cancel')}</Button>
      </Space>
    </Form>
  );
}

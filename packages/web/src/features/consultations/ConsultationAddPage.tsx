import { useMutation, useQuery } from '@tanstack/react-query';
import type { ConsultationBuckets, ExamDetail } from '@yyp/contracts';
import { Alert, Button, Card, Col, Form, Row, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { createConsultation, fetchConsultationBuckets } from '../../api/consultations';
import { fetchExamDetail } from '../../api/exams';
import { requiredRule } from '../../shared/forms/formRules';
import { useFieldLabel } from './useFieldLabel';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';
import { PageHeading } from '../../ui/PageHeading';
import { PageSpinner } from '../../ui/PageSpinner';
import { usePersonName } from '../../ui/usePersonName';
import { useSessionState } from '../../shared/session/useSessionState';
import { markConsultationSeen } from './consultationPoll';
import { EMPTY_PATIENT, RequestFields, requestBody, type RequestValues } from './RequestFields';

interface AddValues extends RequestValues {
  sourceBucketId?: string;
  targetBucketId?: string;
  experts: string[];
}

/** DICOM AS (045Y) as people write it (45Y). */
function ageText(age: string | null): string {
  return age ? age.replace(/^0+(?=\d)/, '') : '';
}

/** The form's first values: the exam's patient and organization when it starts from an exam, the default target. */
function initialValues(
  exam: ExamDetail | undefined,
  buckets: ConsultationBuckets | undefined,
  personName: (name: string) => string,
): AddValues {
  const name = exam ? personName(exam.patientName) : '';
  const sources = buckets?.sources ?? [];
  const source = sources.find((s) => s.bucketId === exam?.bucketId) ?? (sources.length === 1 ? sources[0] : undefined);
  const target = buckets?.targets.find((b) => b.isDefault);
  const gender = exam?.patientGender.toUpperCase();
  return {
    title: exam ? [name, exam.modality.replace(/\\/g, '/'), exam.bodyPart].filter(Boolean).join(' ') : '',
    patient: {
      ...EMPTY_PATIENT,
      name,
      age: ageText(exam?.age ?? null),
      gender: gender === 'M' || gender === 'F' || gender === 'O' ? gender : '',
      tel: exam?.patientPhone.replace(/[^0-9+\-() ]/g, '').slice(0, 32) ?? '',
    },
    scheduledAt: null,
    reason: '',
    note: '',
    clinicImpression: exam?.clinicImpression.slice(0, 2000) ?? '',
    sourceBucketId: source?.bucketId,
    targetBucketId: target?.bucketId,
    experts: [],
  };
}

/**
 * /consultations/add?examId&reportId (spec 000 §2): the request form. From an exam (the report
 * editor's or the study list's "申请会诊") it starts with the exam's patient and organization and the
 * exam is bound when saved; the start time and the reason are required (spec 000 §5).
 */
export function ConsultationAddPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const personName = usePersonName();
  const { session } = useSessionState();
  const [params] = useSearchParams();
  const examId = params.get('examId') ?? undefined;
  const reportId = params.get('reportId') ?? undefined;
  const [form] = Form.useForm<AddValues>();
  const label = useFieldLabel();
  const [targetId, setTargetId] = useState<string | undefined>();
  const buckets = useQuery({
    queryKey: ['consultations', 'buckets'],
    queryFn: ({ signal }) => fetchConsultationBuckets(signal),
  });
  const exam = useQuery({
    queryKey: ['consultations', 'add', 'exam', examId],
    queryFn: ({ signal }) => fetchExamDetail(examId ?? '', signal),
    enabled: Boolean(examId),
  });
  const create = useMutation({
    mutationFn: (values: AddValues) =>
      createConsultation({
        ...requestBody(values),
        sourceBucketId: values.sourceBucketId ?? '',
        targetBucketId: values.targetBucketId ?? '',
        experts: values.experts ?? [],
        ...(examId ? { examId } : {}),
        ...(reportId ? { reportId } : {}),
      }),
    onSuccess: (detail) => {
      markConsultationSeen(session?.username ?? '', detail.id);
      notify.success(t('consultations.add.created'));
      void navigate(`/consultations/${encodeURIComponent(detail.id)}`);
    },
    onError: notify.error,
  });

  if (buckets.isPending || (examId && exam.isPending)) return <PageSpinner />;
  if (buckets.error) return <LoadFailedAlert error={buckets.error} onRetry={() => void buckets.refetch()} />;
  if (exam.error) return <LoadFailedAlert error={exam.error} onRetry={() => void exam.refetch()} />;
  const initial = initialValues(exam.data, buckets.data, personName);
  const target = buckets.data.targets.find((b) => b.bucketId === (targetId ?? initial.targetBucketId));

  return (
    <div className="yyp-consultations">
      <PageHeading title={t('consultations.add.title')} />
      {examId && (
        <Alert type="info" showIcon className="yyp-consultations__filters" title={t('consultations.add.fromExam')} />
      )}
      {buckets.data.sources.length === 0 && (
        <Alert
          type="warning"
          showIcon
          className="yyp-consultations__filters"
          title={t('consultations.add.noSources')}
        />
      )}
      {buckets.data.targets.length === 0 && (
        <Alert
          type="warning"
          showIcon
          className="yyp-consultations__filters"
          title={t('consultations.add.noTargets')}
        />
      )}
      <Card>
        <Form<AddValues>
          form={form}
          name="consultationAdd"
          layout="vertical"
          initialValues={initial}
          onFinish={(values) => create.mutate(values)}
          onValuesChange={(changed: Partial<AddValues>) => {
            if ('targetBucketId' in changed) {
              setTargetId(changed.targetBucketId);
              form.setFieldValue('experts', []);
            }
          }}
        >
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="sourceBucketId" label={label('source')} rules={[requiredRule(t, label('source'))]}>
                <Select
                  aria-label={label('source')}
                  options={buckets.data.sources.map((b) => ({ value: b.bucketId, label: b.name }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="targetBucketId"
                label={label('target')}
                rules={[requiredRule(t, label('target'))]}
                extra={target && <TargetPrice price={target.price} />}
              >
                <Select
                  aria-label={label('target')}
                  options={buckets.data.targets.map((b) => ({
                    value: b.bucketId,
                    label: b.isDefault ? `${b.name} (${t('consultations.defaultTarget')})` : b.name,
                  }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="experts" label={label('experts')}>
                <Select
                  mode="multiple"
                  aria-label={label('experts')}
                  optionFilterProp="label"
                  options={(target?.experts ?? []).map((e) => ({ value: e.accountId, label: e.name }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <RequestFields />
          <Space>
            <Button onClick={() => void navigate(-1)}>{t('common.cancel')}</Button>
            <Button type="primary" htmlType="submit" loading={create.isPending}>
              {t('consultations.add.submit')}
            </Button>
          </Space>
        </Form>
      </Card>
    </div>
  );
}

/** What a consultation asked of the chosen target costs (its consultation product), or that it is free. */
function TargetPrice({ price }: { price: ConsultationBuckets['targets'][number]['price'] }) {
  const { t } = useTranslation();
  if (!price) return <span data-testid="consultation-target-price">{t('consultations.add.free')}</span>;
  return (
    <span data-testid="consultation-target-price">
      {t('consultations.add.price', { name: price.productName })}
      <Money fen={price.priceFen} currency={price.currency} strong />
    </span>
  );
}

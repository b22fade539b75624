import { PATIENT_GENDERS, type UploadCorrection } from '@yyp/contracts';
import { Button, DatePicker, Form, Input, Select, Skeleton, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadableBucket } from '../../api/contractTypes';
import { formatBytes } from '../../ui/formatBytes';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { totalBytes, type PickedFile } from './pickedFiles';
import type { useUploadableBuckets } from '../../shared/upload/useUploadableBuckets';

interface ExamInfoStepProps {
  buckets: ReturnType<typeof useUploadableBuckets>;
  files: PickedFile[];
  bucketId: string | undefined;
  onBucketChange: (bucketId: string) => void;
  starting: boolean;
  onBack: () => void;
  onStart: (corrections: UploadCorrection | undefined) => void;
}

interface CorrectionValues {
  patientName?: string;
  patientId?: string;
  patientGender?: UploadCorrection['patientGender'];
  patientDob?: Dayjs | null;
  accessionNumber?: string;
}

/** The fields the sender filled in; an empty one keeps what the files say. Undefined when none. */
export function correctionsOf(values: CorrectionValues): UploadCorrection | undefined {
  const out: UploadCorrection = {};
  for (const key of ['patientName', 'patientId', 'accessionNumber'] as const) {
    const value = values[key]?.trim();
    if (value) {
      out[key] = value;
    }
  }
  if (values.patientGender) {
    out.patientGender = values.patientGender;
  }
  if (values.patientDob) {
    out.patientDob = values.patientDob.format('YYYYMMDD');
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Step 2: where the exams go, and what to correct before they land. Patient and study details
 * come from the DICOM files; a field filled in here replaces the files' value on the stored exam
 * (the files themselves are kept as received). Limits are those of POST exams/{id}.
 */
export function ExamInfoStep(props: ExamInfoStepProps) {
  const { buckets, files, bucketId, onBucketChange, starting, onBack, onStart } = props;
  const { t } = useTranslation();
  const selectId = useId();
  const [form] = Form.useForm<CorrectionValues>();

  async function handleStart() {
    try {
      onStart(correctionsOf(await form.validateFields()));
    } catch {
      // The form shows what is wrong.
    }
  }

  if (buckets.isError) {
    return <LoadFailedAlert error={buckets.error} onRetry={() => void buckets.refetch()} />;
  }
  if (!buckets.data) {
    return <Skeleton active paragraph={{ rows: 3 }} />;
  }
  // An organization whose plan refuses uploads is listed, disabled, with the reason.
  const options = buckets.data.map((bucket: UploadableBucket) => ({
    value: bucket.id,
    label: bucket.blocked
      ? t('upload.organizationBlocked', { organization: bucket.name, reason: t(`errors.${bucket.blocked}`) })
      : bucket.name,
    disabled: bucket.blocked !== null,
  }));

  return (
    <div className="yyp-wizard-step">
      <Form<CorrectionValues> form={form} layout="vertical" requiredMark={false} className="yyp-form-narrow">
        <Form.Item label={t('upload.organization')} htmlFor={selectId} extra={t('upload.organizationHint')} required>
          <Select
            id={selectId}
            value={bucketId}
            options={options}
            onChange={onBucketChange}
            placeholder={t('upload.organizationPlaceholder')}
            showSearch={{ optionFilterProp: 'label' }}
            autoFocus={!bucketId}
          />
        </Form.Item>
        <Typography.Title level={5}>{t('upload.correction.title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('upload.correction.hint')}</Typography.Paragraph>
        <div className="yyp-form-grid">
          <Form.Item
            name="patientName"
            label={t('upload.correction.patientName')}
            rules={[{ max: 64, message: t('upload.correction.tooLong', { max: 64 }) }]}
          >
            <Input placeholder={t('upload.correction.keep')} maxLength={64} allowClear />
          </Form.Item>
          <Form.Item
            name="patientId"
            label={t('upload.correction.patientId')}
            rules={[{ max: 64, message: t('upload.correction.tooLong', { max: 64 }) }]}
          >
            <Input placeholder={t('upload.correction.keep')} maxLength={64} allowClear />
          </Form.Item>
          <Form.Item name="patientGender" label={t('upload.correction.sex')}>
            <Select
              allowClear
              placeholder={t('upload.correction.keep')}
              options={PATIENT_GENDERS.map((g) => ({ value: g, label: t(`upload.correction.sexes.${g}`) }))}
            />
          </Form.Item>
          <Form.Item name="patientDob" label={t('upload.correction.birthDate')}>
            <DatePicker
              placeholder={t('upload.correction.keep')}
              disabledDate={(d) => d.isAfter(dayjs()) || d.year() < 1880}
              style={{ width: '100%' }}
            />
          </Form.Item>
          <Form.Item
            name="accessionNumber"
            label={t('upload.correction.accessionNumber')}
            extra={t('upload.correction.accessionHint')}
            rules={[{ max: 64, message: t('upload.correction.tooLong', { max: 64 }) }]}
          >
            <Input placeholder={t('upload.correction.keep')} maxLength={64} allowClear />
          </Form.Item>
        </div>
      </Form>
      <Space size="large" wrap>
        <Typography.Text type="secondary">{t('upload.fileCount', { count: files.length })}</Typography.Text>
        <Typography.Text type="secondary">
          {t('upload.totalSize', { size: formatBytes(totalBytes(files)) })}
        </Typography.Text>
      </Space>
      <div className="yyp-wizard-actions">
        <Button onClick={onBack}>{t('common.back')}</Button>
        <Button
          type="primary"
          disabled={!bucketId}
          loading={starting}
          onClick={() => void handleStart()}
          autoFocus={Boolean(bucketId)}
        >
          {t('upload.startUpload')}
        </Button>
      </div>
    </div>
  );
}

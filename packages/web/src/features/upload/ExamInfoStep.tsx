import { Button, Form, Select, Skeleton, Space, Typography } from 'antd';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { UploadableBucket } from '../../api/contractTypes';
import { formatBytes } from '../../ui/formatBytes';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { totalBytes, type PickedFile } from './pickedFiles';
import type { useUploadableBuckets } from './useUploadableBuckets';

interface ExamInfoStepProps {
  buckets: ReturnType<typeof useUploadableBuckets>;
  files: PickedFile[];
  bucketId: string | undefined;
  onBucketChange: (bucketId: string) => void;
  starting: boolean;
  onBack: () => void;
  onStart: () => void;
}

/**
 * Step 2: where the exams go. The organization is all the server takes with an upload; patient
 * and study details come from the DICOM files, so nothing else is asked here.
 */
export function ExamInfoStep(props: ExamInfoStepProps) {
  const { buckets, files, bucketId, onBucketChange, starting, onBack, onStart } = props;
  const { t } = useTranslation();
  const selectId = useId();

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
      <Form layout="vertical" requiredMark={false} className="yyp-form-narrow">
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
      </Form>
      <Space size="large" wrap>
        <Typography.Text type="secondary">{t('upload.fileCount', { count: files.length })}</Typography.Text>
        <Typography.Text type="secondary">
          {t('upload.totalSize', { size: formatBytes(totalBytes(files)) })}
        </Typography.Text>
      </Space>
      <div className="yyp-wizard-actions">
        <Button onClick={onBack}>{t('common.back')}</Button>
        <Button type="primary" disabled={!bucketId} loading={starting} onClick={onStart} autoFocus={Boolean(bucketId)}>
          {t('upload.startUpload')}
        </Button>
      </div>
    </div>
  );
}

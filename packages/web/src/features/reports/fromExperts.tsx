import { LockOutlined } from '@ant-design/icons';
import type { Report } from '@yyp/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The experts' report published back to the requesting organization (issue 24; spec 000 §3 Report
 * sourceBucketId): read-only there in every part, its text, key images, sample graphs and critical
 * values (the server refuses those writes with 409 ReportNotEditable, status readOnly).
 */
export function isFromExperts(report: Pick<Report, 'bucketId' | 'sourceBucketId'>): boolean {
  return !!report.sourceBucketId && report.sourceBucketId !== report.bucketId;
}

/** The report editor's read-only mark, shown where a part of a read-only report has no controls. */
export function ReadOnlyMark({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Tag icon={<LockOutlined />} data-testid={testId}>
      {t('report.lock.readOnly')}
    </Tag>
  );
}

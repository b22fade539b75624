import type { UploadSummary } from '@yyp/contracts';
import { Card, Col, Result, Row, Statistic, Table, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { skipReason } from './skipReasons';

interface UploadCompleteStepProps {
  summary: UploadSummary;
  organization: string;
  /** "Upload more" and, signed in, "Go to the study list". */
  actions: ReactNode;
}

type SkippedRow = UploadSummary['skipped'][number] & { index: number };

/** Step 4: what the server stored, what it had already, and which files it skipped and why. */
export function UploadCompleteStep({ summary, organization, actions }: UploadCompleteStepProps) {
  const { t } = useTranslation();
  const columns: TableColumnsType<SkippedRow> = [
    { key: 'name', title: t('upload.colFile'), dataIndex: 'name', ellipsis: true },
    {
      key: 'reason',
      title: t('upload.colReason'),
      render: (_, row) => t(`skipReasons.${skipReason(row.reason)}`),
    },
  ];
  const stats = [
    { key: 'stored', title: t('upload.stored'), value: summary.stored },
    { key: 'duplicates', title: t('upload.duplicates'), value: summary.duplicates },
    { key: 'skipped', title: t('upload.skipped'), value: summary.skipped.length },
    { key: 'exams', title: t('upload.exams'), value: summary.examIds.length },
  ];
  const storedSomething = summary.stored + summary.duplicates > 0;

  return (
    <div className="yyp-wizard-step">
      <Result
        status={storedSomething ? 'success' : 'warning'}
        title={storedSomething ? t('upload.completeTitle') : t('upload.completeNothing')}
        subTitle={t('upload.completeTo', { organization })}
        extra={actions}
        className="yyp-upload-result"
      />
      <Row gutter={[16, 16]}>
        {stats.map((stat) => (
          <Col key={stat.key} xs={12} md={6}>
            <Card size="small" className="yyp-upload-stat">
              <Statistic title={stat.title} value={stat.value} />
            </Card>
          </Col>
        ))}
      </Row>
      {summary.skipped.length > 0 && (
        <div>
          <div className="yyp-section-title">{t('upload.skippedTitle')}</div>
          <Table<SkippedRow>
            rowKey="index"
            size="small"
            columns={columns}
            dataSource={summary.skipped.map((entry, index) => ({ ...entry, index }))}
            pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
          />
        </div>
      )}
    </div>
  );
}

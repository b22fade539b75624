import { UploadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageHeading } from '../../ui/PageHeading';
import { useUploadableBuckets } from '../upload/useUploadableBuckets';

/** One row of the exam list; the list call (POST exams/page-query) fills it in a later issue. */
interface StudyRow {
  id: string;
  patient: string;
  examDate: string;
  modality: string;
  bodyPart: string;
  organization: string;
  reportStatus: string;
}

const NO_STUDIES: StudyRow[] = [];

/** /studies, the report workstation: the default landing after login. */
export function StudiesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const uploadable = useUploadableBuckets();
  const canUpload = (uploadable.data?.length ?? 0) > 0;
  const columns: TableColumnsType<StudyRow> = [
    { key: 'patient', dataIndex: 'patient', title: t('studies.patient') },
    { key: 'examDate', dataIndex: 'examDate', title: t('studies.examDate') },
    { key: 'modality', dataIndex: 'modality', title: t('studies.modality') },
    { key: 'bodyPart', dataIndex: 'bodyPart', title: t('studies.bodyPart') },
    { key: 'organization', dataIndex: 'organization', title: t('studies.organization') },
    { key: 'reportStatus', dataIndex: 'reportStatus', title: t('studies.reportStatus') },
  ];

  const emptyState = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <div className="yyp-empty">
          <Typography.Text strong>{t('studies.emptyTitle')}</Typography.Text>
          <Typography.Text type="secondary">{t('studies.emptyDescription')}</Typography.Text>
        </div>
      }
    />
  );

  return (
    <div className="yyp-page">
      <PageHeading
        title={t('studies.title')}
        description={t('studies.subtitle')}
        extra={
          // Only for users who may upload somewhere (exam_upload in some organization).
          canUpload && (
            <Button type="primary" icon={<UploadOutlined />} onClick={() => void navigate('/upload')}>
              {t('upload.entry')}
            </Button>
          )
        }
      />
      <Card title={t('studies.listTitle')} variant="borderless">
        <Table<StudyRow>
          rowKey="id"
          columns={columns}
          dataSource={NO_STUDIES}
          pagination={false}
          locale={{ emptyText: emptyState }}
        />
      </Card>
    </div>
  );
}

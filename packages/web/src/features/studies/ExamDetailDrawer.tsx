import { EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { ExamDetail } from '@yyp/contracts';
import { Alert, Button, Descriptions, Drawer, Empty, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { fetchCoExams, fetchExamDetail, fetchPastExams } from '../../api/exams';
import { ExamActionsCard } from './ExamActionsCard';
import { ExamEditForm } from './ExamEditForm';
import { formatStudyTime } from './format';
import { useStudyLabels } from './labels';
import { studyKeys } from './useStudies';
import { usePersonName } from '../../ui/usePersonName';

interface ExamDetailDrawerProps {
  examId: string | null;
  onClose: () => void;
  onChanged: () => void;
}

/** The exam detail drawer (spec 000 §2 "Exam detail: assignment and sharing"). Esc closes it. */
export function ExamDetailDrawer({ examId, onClose, onChanged }: ExamDetailDrawerProps) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const [editing, setEditing] = useState(false);
  const detail = useQuery({
    queryKey: studyKeys.detail(examId ?? ''),
    queryFn: ({ signal }) => fetchExamDetail(examId!, signal),
    enabled: Boolean(examId),
  });
  const exam = detail.data;
  const handleClose = () => {
    setEditing(false);
    onClose();
  };
  return (
    <Drawer
      open={Boolean(examId)}
      onClose={handleClose}
      size="large"
      title={
        exam
          ? `${personName(exam.patientName)} · ${exam.modality.replace(/\\/g, '/')} ${exam.bodyPart}`
          : t('studyList.detail.title')
      }
      loading={detail.isPending && Boolean(examId)}
      extra={
        exam?.actions.includes('exam_update') && !editing ? (
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
            {t('studyList.detail.edit')}
          </Button>
        ) : null
      }
    >
      {detail.isError && <LoadFailedAlert error={detail.error} onRetry={() => void detail.refetch()} />}
      {exam &&
        (editing ? (
          <ExamEditForm
            exam={exam}
            onDone={() => {
              setEditing(false);
              onChanged();
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <Tabs
            items={[
              {
                key: 'info',
                label: t('studyList.detail.info'),
                children: <ExamInfo exam={exam} onChanged={onChanged} />,
              },
              { key: 'past', label: t('studyList.detail.past'), children: <PastExams examId={exam.id} /> },
              { key: 'co', label: t('studyList.detail.coExams'), children: <CoExams examId={exam.id} /> },
            ]}
          />
        ))}
    </Drawer>
  );
}

function ExamInfo({ exam, onChanged }: { exam: ExamDetail; onChanged: () => void }) {
  const { t, field: f, gender, source, status, age, personName } = useStudyLabels();
  return (
    <Space direction="vertical" size="middle" className="yyp-full-width">
      {exam.masked && <Alert type="info" showIcon title={t('studyList.detail.private')} />}
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={f('patientName')}>{personName(exam.patientName)}</Descriptions.Item>
        <Descriptions.Item label={f('patientId')}>{exam.patientId}</Descriptions.Item>
        <Descriptions.Item label={f('gender')}>{gender(exam.patientGender)}</Descriptions.Item>
        <Descriptions.Item label={f('age')}>{age(exam.age)}</Descriptions.Item>
        <Descriptions.Item label={f('accessionNumber')}>{exam.accessionNumber}</Descriptions.Item>
        <Descriptions.Item label={f('studyTime')}>
          {formatStudyTime(exam.studyDate, exam.studyTime, exam.created)}
        </Descriptions.Item>
        <Descriptions.Item label={f('studyDesc')}>{exam.studyDesc}</Descriptions.Item>
        <Descriptions.Item label={f('organization')}>{exam.bucketName}</Descriptions.Item>
        <Descriptions.Item label={f('source')}>{source(exam.patientSource)}</Descriptions.Item>
        <Descriptions.Item label={f('applyDept')}>{exam.applyDept}</Descriptions.Item>
        {exam.inpatientId ? <Descriptions.Item label={f('inpatientId')}>{exam.inpatientId}</Descriptions.Item> : null}
        {exam.bedNum ? <Descriptions.Item label={f('bedNum')}>{exam.bedNum}</Descriptions.Item> : null}
        {exam.outpatientId ? (
          <Descriptions.Item label={f('outpatientId')}>{exam.outpatientId}</Descriptions.Item>
        ) : null}
        {exam.physicalExamId && (
          <Descriptions.Item label={f('physicalExamId')}>{exam.physicalExamId}</Descriptions.Item>
        )}
        <Descriptions.Item label={f('orderPlacer')}>{exam.orderPlacer}</Descriptions.Item>
        <Descriptions.Item label={f('reportStatus')}>{status(exam.reportStatus)}</Descriptions.Item>
        <Descriptions.Item label={f('clinicImpression')} span={2}>
          {exam.clinicImpression}
        </Descriptions.Item>
        <Descriptions.Item label={f('institution')} span={2}>
          {exam.institution}
        </Descriptions.Item>
      </Descriptions>
      <ExamActionsCard exam={exam} onChanged={onChanged} />
      <Typography.Title level={5}>{t('studyList.detail.series')}</Typography.Title>
      <Table
        size="small"
        rowKey="seriesUid"
        pagination={false}
        dataSource={exam.series}
        columns={[
          { key: 'n', title: '#', render: (_, s) => s.seriesNumber ?? '' },
          { key: 'm', title: t('studyList.col.modality'), dataIndex: 'modality' },
          { key: 'd', title: t('studyList.field.studyDesc'), render: (_, s) => s.description || s.bodyPart },
          { key: 'c', title: '', render: (_, s) => t('studyList.detail.seriesCount', { count: s.instanceCount }) },
        ]}
      />
    </Space>
  );
}

function PastExams({ examId }: { examId: string }) {
  const { t, status } = useStudyLabels();
  const past = useQuery({
    queryKey: studyKeys.past(examId),
    queryFn: ({ signal }) => fetchPastExams(examId, 0, signal),
  });
  if (past.data && past.data.exams.length === 0) {
    return <Empty description={t('studyList.detail.noPast')} />;
  }
  return (
    <Table
      size="small"
      rowKey="id"
      loading={past.isPending}
      dataSource={past.data?.exams ?? []}
      pagination={false}
      columns={[
        {
          key: 't',
          title: t('studyList.col.examTime'),
          render: (_, e) => formatStudyTime(e.studyDate, e.studyTime, e.created),
        },
        { key: 'm', title: t('studyList.col.modality'), render: (_, e) => e.modality },
        { key: 'b', title: t('studyList.col.bodyPart'), render: (_, e) => e.bodyPart || e.studyDesc },
        { key: 'o', title: t('studyList.col.organization'), dataIndex: 'bucketName' },
        { key: 's', title: t('studyList.col.reportStatus'), render: (_, e) => <Tag>{status(e.reportStatus)}</Tag> },
      ]}
    />
  );
}

function CoExams({ examId }: { examId: string }) {
  const { t } = useTranslation();
  const co = useQuery({ queryKey: studyKeys.coExams(examId), queryFn: ({ signal }) => fetchCoExams(examId, signal) });
  if (co.data && co.data.exams.length <= 1) {
    return <Empty description={t('studyList.detail.noCoExams')} />;
  }
  return (
    <Table
      size="small"
      rowKey="id"
      loading={co.isPending}
      dataSource={co.data?.exams ?? []}
      pagination={false}
      columns={[
        {
          key: 't',
          title: t('studyList.col.examTime'),
          render: (_, e) => formatStudyTime(e.studyDate, e.studyTime, e.created),
        },
        { key: 'm', title: t('studyList.col.modality'), render: (_, e) => e.modality },
        { key: 'b', title: t('studyList.col.bodyPart'), render: (_, e) => e.bodyPart || e.studyDesc },
      ]}
    />
  );
}

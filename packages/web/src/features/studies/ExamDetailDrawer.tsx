import { EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { ExamDetail, ExamItem } from '@yyp/contracts';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Space,
  Table,
  Tabs,
  type TableColumnsType,
  Tag,
  Typography,
  type DescriptionsProps,
} from 'antd';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { fetchCoExams, fetchExamDetail } from '../../api/exams';
import { ExamActionsCard } from './ExamActionsCard';
import { ExamEditForm } from './ExamEditForm';
import { formatStudyTime } from '../../shared/format/dates';
import { useStudyLabels } from '../../shared/labels/studyLabels';
import { studyKeys, usePastExams } from '../../shared/queries/studyQueries';
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

/** A label, its value and the columns it spans. */
type InfoItem = [label: string, value: string | null | undefined, span?: number];

/**
 * The detail's label–value pairs without the labels that have no value: an empty cell says
 * nothing and pushes the filled ones apart (issue 20 item 7). The last one of an odd count spans
 * the row, so no empty cell closes the table either.
 */
export function filledItems(items: InfoItem[]): NonNullable<DescriptionsProps['items']> {
  const out: { key: string; label: string; children: string; span: number }[] = [];
  // The item alone so far on its row of two, which widens when nothing fills the other half.
  let open: { span: number } | null = null;
  for (const [label, value, span = 1] of items) {
    if ((value ?? '').trim() === '') {
      continue;
    }
    const item = { key: label, label, children: value ?? '', span: Math.min(span, 2) };
    if (item.span === 2) {
      if (open) {
        open.span = 2;
      }
      open = null;
    } else {
      open = open ? null : item;
    }
    out.push(item);
  }
  if (open) {
    open.span = 2;
  }
  return out;
}

function ExamInfo({ exam, onChanged }: { exam: ExamDetail; onChanged: () => void }) {
  const { t, field: f, gender, source, status, age, personName } = useStudyLabels();
  const info: InfoItem[] = [
    [f('patientName'), personName(exam.patientName)],
    [f('patientId'), exam.patientId],
    [f('gender'), gender(exam.patientGender)],
    [f('age'), exam.age ? age(exam.age) : ''],
    [f('accessionNumber'), exam.accessionNumber],
    [f('studyTime'), formatStudyTime(exam.studyDate, exam.studyTime, exam.created)],
    [f('studyDesc'), exam.studyDesc],
    [f('organization'), exam.bucketName],
    [f('source'), source(exam.patientSource)],
    [f('applyDept'), exam.applyDept],
    [f('inpatientId'), exam.inpatientId],
    [f('bedNum'), exam.bedNum],
    [f('outpatientId'), exam.outpatientId],
    [f('physicalExamId'), exam.physicalExamId],
    [f('orderPlacer'), exam.orderPlacer],
    [f('reportStatus'), status(exam.reportStatus)],
    [f('clinicImpression'), exam.clinicImpression, 2],
    [f('institution'), exam.institution, 2],
  ];
  return (
    <Space direction="vertical" size="middle" className="yyp-full-width">
      {exam.masked && <Alert type="info" showIcon title={t('studyList.detail.private')} />}
      <Descriptions size="small" column={2} bordered items={filledItems(info)} />
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

/** The first columns of the past and co-exam tables: exam time, modality, body part. */
function examColumns(t: TFunction): TableColumnsType<ExamItem> {
  return [
    {
      key: 't',
      title: t('studyList.col.examTime'),
      render: (_, e) => formatStudyTime(e.studyDate, e.studyTime, e.created),
    },
    { key: 'm', title: t('studyList.col.modality'), render: (_, e) => e.modality },
    { key: 'b', title: t('studyList.col.bodyPart'), render: (_, e) => e.bodyPart || e.studyDesc },
  ];
}

function PastExams({ examId }: { examId: string }) {
  const { t, status } = useStudyLabels();
  const past = usePastExams(examId);
  if (past.isError) {
    return <LoadFailedAlert error={past.error} onRetry={() => void past.refetch()} />;
  }
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
        ...examColumns(t),
        { key: 'o', title: t('studyList.col.organization'), dataIndex: 'bucketName' },
        { key: 's', title: t('studyList.col.reportStatus'), render: (_, e) => <Tag>{status(e.reportStatus)}</Tag> },
      ]}
    />
  );
}

function CoExams({ examId }: { examId: string }) {
  const { t } = useTranslation();
  const co = useQuery({ queryKey: studyKeys.coExams(examId), queryFn: ({ signal }) => fetchCoExams(examId, signal) });
  if (co.isError) {
    return <LoadFailedAlert error={co.error} onRetry={() => void co.refetch()} />;
  }
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
      columns={[...examColumns(t)]}
    />
  );
}

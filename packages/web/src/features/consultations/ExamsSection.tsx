import { DeleteOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { VIEWER_WINDOW, type ConsultationDetail, type ConsultationExam, type ExamItem } from '@yyp/contracts';
import { App, Button, Card, Input, Modal, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addConsultationExams, removeConsultationExam } from '../../api/consultations';
import { queryExams, viewerPath } from '../../api/exams';
import { formatStudyDate } from '../../shared/format/dates';
import { useNotify } from '../../shared/notify/useNotify';
import { usePersonName } from '../../ui/usePersonName';
import { useDetailChange } from './useConsultation';

/**
 * The bound exams: each opens in the viewer as the caller may open it (`openExamId`: the source's
 * exam for the requester, the shared copy for the target; none once unshared). The requester adds
 * exams of the source organization by the patient's name ('bindExam') and removes them ('unbindExam').
 */
export function ExamsSection({ detail, can }: { detail: ConsultationDetail; can: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const { applied, failed } = useDetailChange(detail.id);
  const [adding, setAdding] = useState(false);
  const remove = useMutation({
    mutationFn: (examId: string) => removeConsultationExam(detail.id, examId),
    onSuccess: (d) => applied(d),
    onError: failed,
  });
  const open = useMutation({
    mutationFn: (examId: string) => viewerPath(examId, 'path', examId),
    onSuccess: (path, examId) => {
      // the viewer joins the consultation's room: shared viewing (features/viewer useFollowMode)
      const url = new URL(path.url, window.location.href);
      url.searchParams.set('consultation', detail.id);
      window.open(
        url.toString(),
        `yyp-viewer-${examId}`,
        `width=${VIEWER_WINDOW.width},height=${VIEWER_WINDOW.height}`,
      );
    },
    onError: notify.error,
  });
  const columns: TableColumnsType<ConsultationExam> = [
    { title: t('consultations.exams.name'), dataIndex: 'name', key: 'name' },
    { title: t('consultations.exams.modality'), dataIndex: 'modality', key: 'modality' },
    { title: t('consultations.exams.bodyPart'), dataIndex: 'bodyPart', key: 'bodyPart' },
    {
      title: t('consultations.exams.studyDate'),
      key: 'studyDate',
      render: (_: unknown, e) => formatStudyDate(e.studyDate ?? ''),
    },
    {
      key: 'actions',
      render: (_: unknown, e) => (
        <>
          {e.openExamId ? (
            <Button
              size="small"
              icon={<EyeOutlined />}
              loading={open.isPending && open.variables === e.openExamId}
              onClick={() => open.mutate(e.openExamId!)}
            >
              {t('consultations.exams.open')}
            </Button>
          ) : (
            <Tag>{t('consultations.exams.unshared')}</Tag>
          )}
          {can.has('unbindExam') && (
            <Button
              size="small"
              danger
              type="text"
              icon={<DeleteOutlined />}
              aria-label={`${t('consultations.exams.remove')} ${e.name}`}
              onClick={() =>
                modal.confirm({
                  title: t('consultations.exams.remove'),
                  content: t('consultations.exams.confirmRemove'),
                  okButtonProps: { danger: true },
                  onOk: () => remove.mutateAsync(e.examId),
                })
              }
            />
          )}
        </>
      ),
    },
  ];
  return (
    <Card
      title={t('consultations.detail.exams')}
      extra={
        can.has('bindExam') ? (
          <Button size="small" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('consultations.exams.add')}
          </Button>
        ) : null
      }
    >
      <Table<ConsultationExam>
        rowKey="examId"
        size="small"
        pagination={false}
        columns={columns}
        dataSource={detail.exams}
        locale={{ emptyText: t('consultations.detail.empty') }}
      />
      {adding && (
        <AddExamsDialog
          detail={detail}
          onClose={() => setAdding(false)}
          onAdded={(d) => {
            setAdding(false);
            applied(d);
          }}
        />
      )}
    </Card>
  );
}

/** The source organization's exams with the patient's name (the study list's call), to bind. */
function AddExamsDialog(props: {
  detail: ConsultationDetail;
  onClose: () => void;
  onAdded: (d: ConsultationDetail) => void;
}) {
  const { detail } = props;
  const { t } = useTranslation();
  const personName = usePersonName();
  const { failed } = useDetailChange(detail.id);
  const [name, setName] = useState(detail.patient.name);
  const [selected, setSelected] = useState<string[]>([]);
  const bound = new Set(detail.exams.map((e) => e.examId));
  const exams = useQuery({
    queryKey: ['consultations', 'exam-pick', detail.sourceBucketId, name],
    queryFn: ({ signal }) =>
      queryExams(
        {
          filters: [
            { field: 'bucketId', operator: 'eq', values: [detail.sourceBucketId] },
            ...(name.trim()
              ? [{ field: 'patientName' as const, operator: 'contains' as const, values: [name.trim()] }]
              : []),
          ],
          sorts: [],
          skip: 0,
          limit: 50,
        },
        signal,
      ),
  });
  const add = useMutation({
    mutationFn: () => addConsultationExams(detail.id, selected),
    onSuccess: props.onAdded,
    onError: failed,
  });
  const columns: TableColumnsType<ExamItem> = [
    { title: t('consultations.col.patient'), key: 'patient', render: (_: unknown, e) => personName(e.patientName) },
    { title: t('consultations.exams.modality'), dataIndex: 'modality', key: 'modality' },
    { title: t('consultations.exams.bodyPart'), dataIndex: 'bodyPart', key: 'bodyPart' },
    {
      title: t('consultations.exams.studyDate'),
      key: 'studyDate',
      render: (_: unknown, e) => formatStudyDate(e.studyDate),
    },
    { title: t('consultations.exams.organization'), dataIndex: 'bucketName', key: 'bucket' },
  ];
  return (
    <Modal
      open
      width={760}
      title={t('consultations.exams.pickTitle')}
      onCancel={props.onClose}
      okText={t('consultations.exams.add')}
      okButtonProps={{ disabled: selected.length === 0, loading: add.isPending }}
      onOk={() => add.mutate()}
    >
      <Input.Search
        defaultValue={name}
        aria-label={t('consultations.exams.search')}
        placeholder={t('consultations.exams.search')}
        onSearch={setName}
        style={{ marginBottom: 12 }}
      />
      <Table<ExamItem>
        rowKey="id"
        size="small"
        loading={exams.isFetching}
        columns={columns}
        dataSource={(exams.data?.exams ?? []).filter((e) => !bound.has(e.id))}
        pagination={false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
        locale={{ emptyText: t('consultations.exams.none') }}
      />
    </Modal>
  );
}

import { useMutation, useQuery } from '@tanstack/react-query';
import type { ExamItem, MatchCandidate, MatchResult } from '@yyp/contracts';
import { Alert, Form, Input, Modal, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bindExam, matchCandidates, matchExam } from '../../api/binding';
import { useNotify } from '../../shared/notify/useNotify';
import { usePermissions } from '../../shared/permissions/permissions';
import { usePersonName } from '../../ui/usePersonName';
import { useInvalidateExams } from './useStudies';

interface MatchScheduleDialogProps {
  exam: ExamItem;
  open: boolean;
  onClose: () => void;
}

/**
 * Ties an exam's images to a scheduled exam of its organization (issue 22; contracts binding.ts):
 * search the candidates, pick one, type its accession number to confirm. A candidate holding images
 * already is replaced (admins, exam_bind); the dialog says how many images go.
 */
export function MatchScheduleDialog({ exam, open, onClose }: MatchScheduleDialogProps) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const notify = useNotify();
  const invalidate = useInvalidateExams();
  const { can } = usePermissions();
  const [q, setQ] = useState('');
  const [picked, setPicked] = useState<MatchCandidate | null>(null);
  const [confirm, setConfirm] = useState('');
  const isAdmin = can(exam.bucketId, 'exam_bind');

  const candidates = useQuery({
    queryKey: ['binding', 'candidates', exam.id, q],
    queryFn: ({ signal }) => matchCandidates(exam.id, q, signal),
    enabled: open,
  });
  const replaces = picked?.examId ? picked.instanceCount : 0;
  const blocked = Boolean(picked?.examId) && !isAdmin;
  const confirmed = picked !== null && confirm.trim() === picked.accessionNumber;

  const handleDone = async (result: MatchResult) => {
    notify.success(
      result.replacedInstances > 0
        ? t('binding.doneReplaced', { accession: result.accessionNumber, count: result.replacedInstances })
        : t('binding.done', { accession: result.accessionNumber }),
    );
    await invalidate();
    handleClose();
  };
  const submit = useMutation({
    mutationFn: (target: MatchCandidate) =>
      isAdmin ? bindExam(exam.id, target.id, confirm.trim()) : matchExam(exam.id, target.id),
    onSuccess: handleDone,
    onError: notify.error,
  });

  const handleClose = () => {
    setPicked(null);
    setConfirm('');
    setQ('');
    onClose();
  };
  const handlePick = (candidate: MatchCandidate) => {
    setPicked(candidate);
    setConfirm('');
  };

  const columns: TableColumnsType<MatchCandidate> = [
    {
      key: 'patient',
      title: t('binding.column.patient'),
      render: (_v, c) => `${personName(c.patientName)} · ${c.patientId}`,
    },
    { key: 'accession', title: t('binding.column.accession'), dataIndex: 'accessionNumber' },
    {
      key: 'procedure',
      title: t('binding.column.procedure'),
      render: (_v, c) => c.procedureName || c.studyDesc || c.modality,
    },
    {
      key: 'scheduled',
      title: t('binding.column.scheduled'),
      render: (_v, c) => `${c.scheduledDate} ${c.scheduledTime}`.trim(),
    },
    { key: 'status', title: t('binding.column.status'), render: (_v, c) => t(`registry.status.${c.status}`) },
    {
      key: 'images',
      title: t('binding.column.images'),
      render: (_v, c) =>
        c.examId ? (
          <Tag color="orange">{t('binding.hasImages', { count: c.instanceCount })}</Tag>
        ) : (
          t('binding.noImages')
        ),
    },
  ];

  return (
    <Modal
      open={open}
      title={t('binding.title')}
      width={860}
      destroyOnHidden
      onCancel={handleClose}
      okText={replaces > 0 ? t('binding.okReplace') : t('binding.ok')}
      okButtonProps={{ danger: replaces > 0, disabled: !confirmed || blocked, 'data-testid': 'binding-ok' }}
      confirmLoading={submit.isPending}
      onOk={() => picked && submit.mutate(picked)}
    >
      <Typography.Paragraph>{t('binding.intro', { org: exam.bucketName })}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={t('binding.search')}
        aria-label={t('binding.search')}
        onSearch={(value) => setQ(value.trim())}
        style={{ marginBottom: 12 }}
      />
      {candidates.isError && <Alert type="error" showIcon title={t('binding.loadFailed')} />}
      <Table<MatchCandidate>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={candidates.data ?? []}
        loading={candidates.isLoading}
        pagination={false}
        scroll={{ y: 280 }}
        locale={{ emptyText: t('binding.empty') }}
        rowSelection={{
          type: 'radio',
          selectedRowKeys: picked ? [picked.id] : [],
          onChange: (_keys, rows) => rows[0] && handlePick(rows[0]),
        }}
        onRow={(c) => ({ onClick: () => handlePick(c) })}
      />
      {picked && (
        <div style={{ marginTop: 12 }}>
          {replaces > 0 && <Alert type="warning" showIcon title={t('binding.replaceWarning', { count: replaces })} />}
          {blocked && <Alert type="error" showIcon title={t('binding.needsAdmin')} />}
          <Form layout="vertical" style={{ marginTop: 12 }}>
            <Form.Item
              label={t('binding.confirmLabel', { accession: picked.accessionNumber })}
              validateStatus={confirm && !confirmed ? 'error' : undefined}
              help={confirm && !confirmed ? t('binding.confirmMismatch') : undefined}
            >
              <Input
                value={confirm}
                autoComplete="off"
                data-testid="binding-confirm"
                onChange={(e) => setConfirm(e.target.value)}
              />
            </Form.Item>
          </Form>
        </div>
      )}
    </Modal>
  );
}

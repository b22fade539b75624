import {
  CommentOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  LinkOutlined,
  MoreOutlined,
  PrinterOutlined,
  RollbackOutlined,
  SendOutlined,
  SolutionOutlined,
} from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { VIEWER_WINDOW, type ExamItem } from '@yyp/contracts';
import { App, Button, Dropdown, Space, Tooltip, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteExam, destroyExam, recoverExam, setPrinted, viewerPath } from '../../api/exams';
import { useNotify } from '../../shared/notify/useNotify';
import { MatchScheduleDialog } from './MatchScheduleDialog';
import { SendStudyDialog } from './SendStudyDialog';
import { downloadStudyPackage } from './useExportExams';
import { useReadOrdering } from './useExpertOrdering';
import { useInvalidateExams } from './useStudies';
import { usePermissions } from '../../shared/permissions/permissions';
import { usePersonName } from '../../ui/usePersonName';

interface ExamRowActionsProps {
  exam: ExamItem;
  deleted: boolean;
  onOpen: () => void;
}

/** A row's actions, each shown only where the caller holds its action in the exam's organization. */
export function ExamRowActions({ exam, deleted, onOpen }: ExamRowActionsProps) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const notify = useNotify();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const { can } = usePermissions();
  const invalidate = useInvalidateExams();
  const [matching, setMatching] = useState(false);
  const [sending, setSending] = useState(false);
  const ordering = useReadOrdering(exam.bucketId);
  const name = personName(exam.patientName) || exam.patientId || exam.accessionNumber;
  const done = (text: string) => async () => {
    notify.success(text);
    await invalidate();
  };
  const remove = useMutation({
    mutationFn: () => deleteExam(exam.id),
    onSuccess: done(t('studyList.deleted')),
    onError: notify.error,
  });
  const recover = useMutation({
    mutationFn: () => recoverExam(exam.id),
    onSuccess: done(t('studyList.recovered')),
    onError: notify.error,
  });
  const destroy = useMutation({
    mutationFn: () => destroyExam(exam.id),
    onSuccess: done(t('studyList.destroyed')),
    onError: notify.error,
  });
  const printed = useMutation({
    mutationFn: () => setPrinted([exam.storeUid], !exam.printed),
    onSuccess: done(t('studyList.printedSaved')),
    onError: notify.error,
  });
  const viewer = useMutation({
    // Until reports have their own ids (the reporting issue) an exam's report id is the exam id.
    mutationFn: () => viewerPath(exam.id, 'path', exam.id),
    onSuccess: (path) =>
      window.open(path.url, `yyp-viewer-${exam.id}`, `width=${VIEWER_WINDOW.width},height=${VIEWER_WINDOW.height}`),
    onError: notify.error,
  });

  if (deleted) {
    return (
      <Space size={4}>
        <Button size="small" icon={<RollbackOutlined />} loading={recover.isPending} onClick={() => recover.mutate()}>
          {t('studyList.action.recover')}
        </Button>
        <Button
          size="small"
          danger
          onClick={() =>
            modal.confirm({
              title: t('studyList.action.destroy'),
              content: t('studyList.confirmDestroy', { name }),
              okButtonProps: { danger: true },
              onOk: () => destroy.mutateAsync(),
            })
          }
        >
          {t('studyList.action.destroy')}
        </Button>
      </Space>
    );
  }

  const menu: MenuProps['items'] = [
    // A stored file carries the private fields unmasked: not offered where the exam shows masked.
    ...(can(exam.bucketId, 'study_package') && exam.hasImage && !exam.masked
      ? [
          { key: 'download', icon: <DownloadOutlined />, label: t('studyList.action.download') },
          // Sending to a DICOM node (issue 28) takes a copy out as the package does: same action.
          { key: 'send', icon: <SendOutlined />, label: t('studyList.action.sendDicom') },
        ]
      : []),
    ...(can(exam.bucketId, 'exam_update')
      ? [
          {
            key: 'printed',
            icon: <PrinterOutlined />,
            label: exam.printed ? t('studyList.action.markNotPrinted') : t('studyList.action.markPrinted'),
          },
        ]
      : []),
    // Image binding (issue 22): the desk matches, admins bind (replacing a scheduled exam's images).
    ...(exam.hasImage && (can(exam.bucketId, 'exam_bind') || can(exam.bucketId, 'registry_arrive'))
      ? [{ key: 'match', icon: <LinkOutlined />, label: t('binding.menu') }]
      : []),
    // Ordering an expert read (issue 24) where the group has expert organizations.
    ...(ordering.expert
      ? [{ key: 'expert', icon: <SolutionOutlined />, label: t('studyList.action.requestExpert') }]
      : []),
    ...(ordering.remote
      ? [{ key: 'remote', icon: <SolutionOutlined />, label: t('studyList.action.requestRemote') }]
      : []),
    // Requesting a consultation on the exam (issue 25): its form starts from the exam and binds it.
    ...(can(exam.bucketId, 'consultation_create')
      ? [{ key: 'consult', icon: <CommentOutlined />, label: t('consultations.request') }]
      : []),
    ...(can(exam.bucketId, 'exam_delete')
      ? [{ key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('studyList.action.delete') }]
      : []),
  ];
  const handleMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'download') {
      void downloadStudyPackage(exam.id).catch(notify.error);
    } else if (key === 'expert' || key === 'remote') {
      void navigate(`/exams/${encodeURIComponent(exam.id)}/apply-report?type=${key}`);
    } else if (key === 'consult') {
      const query = new URLSearchParams({ examId: exam.id, reportId: exam.id });
      void navigate(`/consultations/add?${query.toString()}`);
    } else if (key === 'send') {
      setSending(true);
    } else if (key === 'match') {
      setMatching(true);
    } else if (key === 'printed') {
      printed.mutate();
    } else if (key === 'delete') {
      modal.confirm({
        title: t('studyList.action.delete'),
        content: t('studyList.confirmDelete', { name }),
        okButtonProps: { danger: true },
        onOk: () => remove.mutateAsync(),
      });
    }
  };

  return (
    <Space size={4}>
      {exam.hasImage && (
        <Tooltip title={t('studyList.action.view')}>
          <Button
            size="small"
            icon={<EyeOutlined />}
            aria-label={t('studyList.action.view')}
            loading={viewer.isPending}
            onClick={() => viewer.mutate()}
          />
        </Tooltip>
      )}
      <Button
        size="small"
        icon={<EditOutlined />}
        data-testid={`report-${exam.id}`}
        onClick={() => void navigate(`/studies/${encodeURIComponent(exam.id)}/reports/${encodeURIComponent(exam.id)}`)}
      >
        {t('studyList.action.report')}
      </Button>
      <Button size="small" onClick={onOpen}>
        {t('studyList.action.detail')}
      </Button>
      {menu.length > 0 && (
        <Dropdown menu={{ items: menu, onClick: handleMenu }} trigger={['click']}>
          <Button
            size="small"
            icon={<MoreOutlined />}
            aria-label={t('studyList.col.actions')}
            data-testid={`more-${exam.id}`}
          />
        </Dropdown>
      )}
      {matching && <MatchScheduleDialog exam={exam} open={matching} onClose={() => setMatching(false)} />}
      <SendStudyDialog
        target={sending ? { examId: exam.id, bucketId: exam.bucketId, name } : null}
        onClose={() => setSending(false)}
      />
    </Space>
  );
}

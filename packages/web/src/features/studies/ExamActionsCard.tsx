import { CopyOutlined, RobotOutlined, SendOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExamDetail } from '@yyp/contracts';
import { App, Button, Card, Input, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import { isApiError } from '../../api/errors';
import { addExamTag, assignExam, fetchReporters, removeExamTag, sendAiTask, viewerPath } from '../../api/exams';
import { fetchDictionary } from '../../api/organizations';
import { useNotify } from '../../shared/notify/useNotify';
import { studyKeys } from '../../shared/queries/studyQueries';
import { usePersonName } from '../../ui/usePersonName';
import { SendStudyDialog } from './SendStudyDialog';

interface ExamActionsCardProps {
  exam: ExamDetail;
  onChanged: () => void;
}

/** Assignment, tags, sharing and the AI task of one exam, each shown only where the caller may act. */
export function ExamActionsCard({ exam, onChanged }: ExamActionsCardProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const can = (action: string) => exam.actions.includes(action);
  const [assignee, setAssignee] = useState<string | undefined>(exam.assigneeId ?? undefined);
  const [share, setShare] = useState<{ url: string; expires: number } | null>(null);
  const [sending, setSending] = useState(false);
  const personName = usePersonName();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: studyKeys.detail(exam.id) });
    onChanged();
  };
  const reporters = useQuery({
    queryKey: studyKeys.reporters(exam.bucketId),
    queryFn: ({ signal }) => fetchReporters([exam.bucketId], signal),
    enabled: can('report_assign'),
  });
  const tags = useQuery({
    queryKey: ['buckets', exam.bucketId, 'dictionary', 'tags'],
    queryFn: ({ signal }) => fetchDictionary(exam.bucketId, 'tags', signal),
    enabled: can('exam_update'),
  });
  const assign = useMutation({
    mutationFn: (accountId: string | null) => assignExam(exam.id, accountId),
    onSuccess: async (_r, accountId) => {
      notify.success(t(accountId ? 'studyList.detail.assigned' : 'studyList.detail.unassigned'));
      await refresh();
    },
    onError: notify.error,
  });
  const tag = useMutation({
    mutationFn: ({ tagId, add }: { tagId: string; add: boolean }) =>
      add ? addExamTag(exam.id, tagId) : removeExamTag(exam.id, tagId),
    onSuccess: refresh,
    onError: notify.error,
  });
  const shareLink = useMutation({
    mutationFn: () => viewerPath(exam.id, 'share-path'),
    onSuccess: (path) => setShare({ url: new URL(path.url, window.location.origin).toString(), expires: path.expires }),
    onError: notify.error,
  });
  const ai = useMutation({
    mutationFn: (force: boolean) => sendAiTask(exam.id, exam.bucketId, force),
    onSuccess: async () => {
      notify.success(t('studyList.detail.aiQueued'));
      await refresh();
    },
    onError: (error) => {
      if (isApiError(error) && error.code === 'NotChestCt') {
        modal.confirm({
          title: t('studyList.detail.ai'),
          content: t('errors.NotChestCt'),
          okText: t('studyList.detail.aiNotChest'),
          onOk: () => ai.mutate(true),
        });
      } else {
        notify.error(error);
      }
    },
  });

  const handleCopy = async () => {
    if (share) {
      await navigator.clipboard?.writeText(share.url).catch(() => undefined);
      notify.success(t('studyList.detail.shareCopied'));
    }
  };
  const tagIds = new Set(exam.tags.map((x) => x.id));
  // Tags show when there are some or the caller may add them; a caller with nothing to do or see
  // here (a note-taker) gets no empty card.
  const showTags = exam.tags.length > 0 || can('exam_update');
  if (!can('report_assign') && !showTags && !can('study_package') && !can('exam_update')) {
    return null;
  }

  return (
    <Card size="small" className="yyp-exam-actions">
      <Space direction="vertical" size="middle" className="yyp-full-width">
        {can('report_assign') && (
          <div>
            <Typography.Text strong>{t('studyList.detail.assignment')}</Typography.Text>
            <Space.Compact className="yyp-full-width">
              <Select
                className="yyp-grow"
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('studyList.detail.assignTo')}
                aria-label={t('studyList.detail.assignTo')}
                value={assignee}
                notFoundContent={
                  reporters.isError ? errorMessage(t, reporters.error) : t('studyList.detail.noReporters')
                }
                options={(reporters.data ?? []).map((r) => ({ value: r.id, label: r.name || r.username }))}
                onChange={setAssignee}
              />
              <Button
                type="primary"
                disabled={!assignee || assignee === exam.assigneeId}
                loading={assign.isPending}
                onClick={() => assign.mutate(assignee!)}
              >
                {t('studyList.detail.assign')}
              </Button>
              <Button disabled={!exam.assigneeId} onClick={() => assign.mutate(null)}>
                {t('studyList.detail.unassign')}
              </Button>
            </Space.Compact>
          </div>
        )}
        {showTags && (
          <div>
            <Typography.Text strong>{t('studyList.detail.tags')}</Typography.Text>
            <div className="yyp-tag-row">
              {exam.tags.map((x) => (
                <Tag
                  key={x.id}
                  color={x.color ?? undefined}
                  closable={can('exam_update')}
                  onClose={() => tag.mutate({ tagId: x.id, add: false })}
                >
                  {x.name}
                </Tag>
              ))}
              {can('exam_update') && (
                <Select
                  size="small"
                  className="yyp-tag-picker"
                  placeholder={t('studyList.detail.addTag')}
                  aria-label={t('studyList.detail.addTag')}
                  value={null}
                  notFoundContent={tags.isError ? errorMessage(t, tags.error) : undefined}
                  options={(tags.data ?? [])
                    .filter((x) => !tagIds.has(x.id))
                    .map((x) => ({ value: x.id, label: x.name }))}
                  onChange={(tagId: string) => tag.mutate({ tagId, add: true })}
                />
              )}
            </div>
          </div>
        )}
        {can('study_package') && (
          <div>
            <Typography.Text strong>{t('studyList.detail.sharing')}</Typography.Text>
            {share ? (
              <Space direction="vertical" className="yyp-full-width">
                <Space.Compact className="yyp-full-width">
                  <Input readOnly value={share.url} aria-label={t('studyList.detail.sharing')} />
                  <Button icon={<CopyOutlined />} onClick={() => void handleCopy()} />
                </Space.Compact>
                <Typography.Text type="secondary">
                  {t('studyList.detail.shareHint', { time: new Date(share.expires * 1000).toLocaleString() })}
                </Typography.Text>
              </Space>
            ) : (
              <Space wrap>
                <Button icon={<ShareAltOutlined />} loading={shareLink.isPending} onClick={() => shareLink.mutate()}>
                  {t('studyList.detail.shareLink')}
                </Button>
                {/* a stored file carries the private fields unmasked: not sent where the exam shows masked */}
                {exam.hasImage && !exam.masked && (
                  <Button icon={<SendOutlined />} onClick={() => setSending(true)}>
                    {t('studyList.action.sendDicom')}
                  </Button>
                )}
              </Space>
            )}
            <SendStudyDialog
              target={
                sending
                  ? {
                      examId: exam.id,
                      bucketId: exam.bucketId,
                      name: personName(exam.patientName) || exam.patientId || exam.accessionNumber,
                    }
                  : null
              }
              onClose={() => setSending(false)}
            />
          </div>
        )}
        {can('exam_update') && (
          <div>
            <Typography.Text strong>{t('studyList.detail.ai')}</Typography.Text>
            <div>
              <Space>
                <Button
                  icon={<RobotOutlined />}
                  loading={ai.isPending}
                  disabled={exam.aiStatus === 'queued' || exam.aiStatus === 'sent'}
                  onClick={() => ai.mutate(false)}
                >
                  {t('studyList.detail.sendAi')}
                </Button>
                {exam.aiStatus && <Tag>{t(`studyList.ai.${exam.aiStatus}`)}</Tag>}
              </Space>
            </div>
          </div>
        )}
      </Space>
    </Card>
  );
}

import { ShareAltOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SHARE_EXPIRES_DEFAULT_DAYS, type Report, type ShareLinkCreated } from '@yyp/contracts';
import { Button, Checkbox, Modal, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../shared/notify/useNotify';
import { usePermissions } from '../../shared/permissions/permissions';
import { CreatedLink, LinkList } from './ShareLinks';
import { createShareLink, fetchShareLinks } from './sharingApi';
import { usePublishReport } from './usePublishReport';
import './sharing.css';

const APPROVED = ['corrected', 'printed'];
const DAY_CHOICES = [1, 3, 7, 30, 90];
const linksKey = (reportId: string) => ['reports', reportId, 'shares'] as const;

/**
 * The report editor's Share button: for an approved report and a caller who may print it and see
 * the exam (sharing hands the report out as printing does; report-sharing.service asks exam_get
 * too, so a note-taker who prints does not share). It makes a link, shows it once with a copy
 * button, and lists the report's links with their state, views and a revoke.
 */
export function ShareReportButton({ report }: { report: Report }) {
  const { t } = useTranslation();
  const { can } = usePermissions();
  const [open, setOpen] = useState(false);
  if (!APPROVED.includes(report.status) || !can(report.bucketId, 'report_print') || !can(report.bucketId, 'exam_get')) {
    return null;
  }
  return (
    <>
      <Button icon={<ShareAltOutlined />} onClick={() => setOpen(true)} data-testid="share-report">
        {t('sharing.share.button')}
      </Button>
      {open && (
        <ShareDialog
          reportId={report.id}
          canImages={can(report.bucketId, 'study_package')}
          canPublish={can(report.bucketId, 'order_report_publish')}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

interface ShareDialogProps {
  reportId: string;
  canImages: boolean;
  canPublish: boolean;
  onClose: () => void;
}

function ShareDialog({ reportId, canImages, canPublish, onClose }: ShareDialogProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [days, setDays] = useState(SHARE_EXPIRES_DEFAULT_DAYS);
  const [allowImages, setAllowImages] = useState(false);
  const [created, setCreated] = useState<ShareLinkCreated | null>(null);
  const links = useQuery({
    queryKey: linksKey(reportId),
    queryFn: ({ signal }) => fetchShareLinks(reportId, signal),
  });
  const create = useMutation({
    mutationFn: () => createShareLink(reportId, { expiresInDays: days, allowImages }),
    onSuccess: (link) => {
      setCreated(link);
      void queryClient.invalidateQueries({ queryKey: linksKey(reportId) });
    },
    onError: notify.error,
  });
  const publish = usePublishReport(reportId, {
    onLink: setCreated,
    onAnswered: () => queryClient.invalidateQueries({ queryKey: linksKey(reportId) }),
  });

  function handleCreate() {
    create.mutate();
  }

  function handlePublish() {
    publish.mutate();
  }

  return (
    <Modal
      open
      title={t('sharing.share.title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.cancel')}</Button>}
      width={640}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('sharing.share.intro')}</Typography.Paragraph>
      <Space wrap className="yyp-share-dialog__form">
        <span>{t('sharing.share.expires')}</span>
        <Select
          value={days}
          onChange={setDays}
          style={{ minWidth: 110 }}
          aria-label={t('sharing.share.expires')}
          options={DAY_CHOICES.map((d) => ({ value: d, label: t('sharing.share.days', { count: d }) }))}
        />
        {canImages && (
          <Checkbox checked={allowImages} onChange={(e) => setAllowImages(e.target.checked)}>
            {t('sharing.share.allowImages')}
          </Checkbox>
        )}
        <Button type="primary" onClick={handleCreate} loading={create.isPending} data-testid="share-create">
          {t('sharing.share.create')}
        </Button>
        {canPublish && (
          <Button onClick={handlePublish} loading={publish.isPending} data-testid="share-publish">
            {t('sharing.publish.button')}
          </Button>
        )}
      </Space>
      {created && <CreatedLink link={created} />}
      <LinkList
        reportId={reportId}
        links={links.data ?? []}
        loading={links.isPending}
        onChanged={() => void queryClient.invalidateQueries({ queryKey: linksKey(reportId) })}
      />
    </Modal>
  );
}

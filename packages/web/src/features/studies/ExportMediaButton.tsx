import { DownloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { MAX_STUDY_PACKAGE_EXAMS, mediaCalls, type ExamItem, type Language } from '@yyp/contracts';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/call';
import { useNotify } from '../../shared/notify/useNotify';
import { usePermissions } from '../../shared/permissions/permissions';

/** Starts the browser's own download of a link (the zip streams to disk, not through memory). */
function startDownload(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * The selected studies as one DICOM disc (issue 28 item 9): POST exams/study-packages answers a
 * 10-minute link to a zip of DICOM media (one DICOMDIR for all), which the browser downloads. Only
 * studies the caller may download (study_package in their organization, not shown masked) go; the
 * tooltip says which are left out. Shown to callers who download studies somewhere.
 */
export function ExportMediaButton({ selected }: { selected: ExamItem[] }) {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  const { can, anywhere } = usePermissions();
  const exportable = selected.filter((e) => can(e.bucketId, 'study_package') && !e.masked);
  const mutation = useMutation({
    mutationFn: () =>
      callApi(mediaCalls.studyPackages, {
        body: { examIds: exportable.map((e) => e.id), language: i18n.language as Language },
      }),
    onSuccess: (link) => {
      startDownload(link.url);
      notify.info(t('studyMedia.started', { count: link.count }));
    },
    onError: notify.error,
  });
  if (!anywhere('study_package')) return null;
  const tooMany = exportable.length > MAX_STUDY_PACKAGE_EXAMS;
  const why =
    selected.length === 0
      ? t('studyMedia.selectHint')
      : exportable.length === 0
        ? t('studyMedia.none')
        : tooMany
          ? t('studyMedia.tooMany', { max: MAX_STUDY_PACKAGE_EXAMS })
          : exportable.length < selected.length
            ? t('studyMedia.someLeft', { count: selected.length - exportable.length })
            : t('studyMedia.tip');
  return (
    <Tooltip title={why}>
      <Button
        size="small"
        icon={<DownloadOutlined />}
        disabled={exportable.length === 0 || tooMany}
        loading={mutation.isPending}
        onClick={() => mutation.mutate()}
        data-testid="export-media"
      >
        {t('studyMedia.action', { count: exportable.length })}
      </Button>
    </Tooltip>
  );
}

import { DeleteOutlined, DownloadOutlined, EyeOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadRules, type ConsultationFile } from '@yyp/contracts';
import { App, Button, List, Modal, Progress, Tag, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAttachmentUrl, removeConsultationAttachment } from '../../api/consultations';
import { useNotify } from '../../shared/notify/useNotify';
import { formatBytes } from '../../ui/formatBytes';
import { formatTime } from '../../shared/format/dates';
import { useAttachmentUpload } from './useAttachmentUpload';
import { consultationKey } from './useConsultation';

/** What the browser shows by itself: images and PDF open in a preview, anything else downloads. */
export function previewable(fileType: string): 'image' | 'pdf' | null {
  if (fileType.startsWith('image/') && fileType !== 'image/tiff') return 'image';
  if (fileType === 'application/pdf') return 'pdf';
  return null;
}

interface Preview {
  name: string;
  url: string;
  kind: 'image' | 'pdf';
}

/** Files of a case document or of the result, with their upload status; preview, download, delete. */
export function FileList({
  consultationId,
  files,
  removable,
}: {
  consultationId: string;
  files: readonly ConsultationFile[];
  removable: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [preview, setPreview] = useState<Preview | null>(null);
  const open = useMutation({
    mutationFn: (file: ConsultationFile) => fetchAttachmentUrl(consultationId, file.id),
    onSuccess: ({ url }, file) => {
      const kind = previewable(file.fileType);
      if (kind) {
        setPreview({ name: file.fileName, url, kind });
        return;
      }
      const link = document.createElement('a');
      link.href = url;
      link.download = file.fileName;
      document.body.appendChild(link);
      link.click();
      link.remove();
    },
    onError: notify.error,
  });
  const remove = useMutation({
    mutationFn: (fileId: string) => removeConsultationAttachment(consultationId, fileId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: consultationKey(consultationId) }),
    onError: notify.error,
  });
  if (files.length === 0) return null;
  return (
    <>
      <List<ConsultationFile>
        size="small"
        dataSource={[...files]}
        renderItem={(file) => {
          const done = file.uploadStatus === 'completed';
          const kind = previewable(file.fileType);
          return (
            <List.Item
              actions={[
                done && (
                  <Button
                    key="open"
                    size="small"
                    type="link"
                    icon={kind ? <EyeOutlined /> : <DownloadOutlined />}
                    loading={open.isPending && open.variables?.id === file.id}
                    onClick={() => open.mutate(file)}
                  >
                    {kind ? t('consultations.files.preview') : t('consultations.files.download')}
                  </Button>
                ),
                removable && (
                  <Button
                    key="remove"
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`${t('consultations.files.remove')} ${file.fileName}`}
                    onClick={() =>
                      modal.confirm({
                        title: t('consultations.files.remove'),
                        content: t('consultations.files.confirmRemove'),
                        okButtonProps: { danger: true },
                        onOk: () => remove.mutateAsync(file.id),
                      })
                    }
                  />
                ),
              ].filter(Boolean)}
            >
              <List.Item.Meta
                title={file.fileName}
                description={`${formatBytes(file.size)} · ${file.createdByName} · ${formatTime(file.createdAt)}`}
              />
              <Tag color={done ? 'green' : 'processing'}>
                {done ? t('consultations.files.completed') : t('consultations.files.processing')}
              </Tag>
            </List.Item>
          );
        }}
      />
      <Modal
        open={preview !== null}
        width={900}
        footer={null}
        title={preview ? t('consultations.files.previewTitle', { name: preview.name }) : ''}
        onCancel={() => setPreview(null)}
        destroyOnHidden
      >
        {preview?.kind === 'image' && (
          <img src={preview.url} alt={preview.name} className="yyp-consultation__preview-image" />
        )}
        {preview?.kind === 'pdf' && (
          <iframe src={preview.url} title={preview.name} className="yyp-consultation__preview" />
        )}
      </Modal>
    </>
  );
}

/** Choose files (keyboard: the button) and upload them with their progress. */
export function UploadFilesButton({
  consultationId,
  caseId,
  label,
}: {
  consultationId: string;
  caseId?: string;
  label: string;
}) {
  const { upload, progress, clearFailed } = useAttachmentUpload(consultationId, caseId);
  return (
    <div>
      <Upload
        multiple
        showUploadList={false}
        accept={uploadRules.consultations.accept.join(',') + ',.xps,.oxps,.doc,.docx,.xls,.xlsx'}
        beforeUpload={(file, list) => {
          if (file === list[0]) {
            clearFailed();
            void upload(list);
          }
          return Upload.LIST_IGNORE;
        }}
      >
        <Button size="small" icon={<UploadOutlined />}>
          {label}
        </Button>
      </Upload>
      {progress.map((p) => (
        <div key={p.name}>
          {p.name}
          <Progress percent={p.percent} size="small" status={p.failed ? 'exception' : 'active'} />
        </div>
      ))}
    </div>
  );
}

import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import {
  checkUpload,
  resolveUploadType,
  uploadTypes,
  type AttachmentKind,
  type ServiceAttachment,
} from '@yyp/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, List, Result, Space, Spin, Typography, Upload } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/errorMessage';
import { isApiError } from '../../api/errors';
import { uploadWithPolicy } from '../../api/policies';
import { fetchAttachmentPolicy, fetchServiceAttachment, uploadByCode } from '../../api/uploadCodes';
import { PublicUploadFrame } from '../../shared/layout/PublicUploadFrame';
import '../../shared/layout/codes.css';
import { usePersonName } from '../../ui/usePersonName';

const CODE_PROBLEMS = ['invalid', 'expired', 'used'] as const;
const MB = 1024 * 1024;

interface Line {
  name: string;
  status: 'uploading' | 'done' | 'failed';
  text: string;
}

/** The reason of a refused code, for the page's own message. */
function codeProblem(error: unknown): (typeof CODE_PROBLEMS)[number] | null {
  if (!isApiError(error) || error.code !== 'LinkInvalid') {
    return null;
  }
  const problem = (error.details as { problem?: string } | undefined)?.problem;
  return CODE_PROBLEMS.find((p) => p === problem) ?? 'invalid';
}

/**
 * /service-orders/upload?code and /attachments/upload?code: what the code is for (organization,
 * exam, masked patient), then files checked here, sent with the code's upload policy and recorded.
 */
export function CodeUploadPage({ kind }: { kind: AttachmentKind }) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState<File[]>([]);
  const [lines, setLines] = useState<Line[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const info = useQuery({
    queryKey: ['service-attachment', code],
    queryFn: () => fetchServiceAttachment(code),
    enabled: code !== '',
    retry: false,
  });
  const title = kind === 'form' ? t('codeUpload.titleForm') : t('codeUpload.titleAttachment');

  if (!code) {
    return (
      <PublicUploadFrame>
        <Result status="warning" title={t('codeUpload.missingCode')} />
      </PublicUploadFrame>
    );
  }
  if (info.isPending) {
    return (
      <PublicUploadFrame>
        <Spin tip={t('codeUpload.loading')} fullscreen />
      </PublicUploadFrame>
    );
  }
  if (info.isError) {
    const reason = codeProblem(info.error);
    return (
      <PublicUploadFrame>
        <Result
          status="warning"
          title={title}
          subTitle={reason ? t(`codeUpload.${reason}`) : errorMessage(t, info.error)}
        />
      </PublicUploadFrame>
    );
  }

  const data: ServiceAttachment = info.data;
  const remaining = Math.max(0, data.maxFiles - data.uploads.length);
  const types = [...new Set(data.accept.map((type) => uploadTypes[type as keyof typeof uploadTypes] ?? type))]
    .map((ext) => ext.toUpperCase())
    .join(', ');
  const size = Math.round(data.maxBytes / MB);
  const uploadKind = kind === 'form' ? 'forms' : 'attachments';

  function handleChoose(file: File, fileList: File[]) {
    // Called once per file of a selection: check the whole selection once, on its last file.
    if (file !== fileList[fileList.length - 1]) {
      return Upload.LIST_IGNORE;
    }
    const next = [...picked, ...fileList];
    for (const f of fileList) {
      const issue = checkUpload(uploadKind, resolveUploadType(f.type, f.name), f.size);
      if (issue === 'FileTooLarge') {
        setProblem(t('codeUpload.tooLarge', { name: f.name, size }));
        return Upload.LIST_IGNORE;
      }
      if (issue) {
        setProblem(t('codeUpload.wrongType', { name: f.name }));
        return Upload.LIST_IGNORE;
      }
    }
    if (next.length > remaining) {
      setProblem(t('codeUpload.tooMany', { count: remaining }));
      return Upload.LIST_IGNORE;
    }
    setProblem(null);
    setPicked(next);
    return Upload.LIST_IGNORE;
  }

  async function handleSend() {
    setSending(true);
    const files = picked;
    setPicked([]);
    for (const file of files) {
      setLines((all) => [
        ...all,
        { name: file.name, status: 'uploading', text: t('codeUpload.uploading', { name: file.name }) },
      ]);
      const update = (line: Line) =>
        setLines((all) => all.map((l) => (l.name === file.name && l.status === 'uploading' ? line : l)));
      try {
        const policy = await fetchAttachmentPolicy(code, file);
        await uploadWithPolicy(policy, file);
        await uploadByCode(code, policy.key, file.name);
        update({ name: file.name, status: 'done', text: t('codeUpload.uploaded', { name: file.name }) });
      } catch (error) {
        const reason = codeProblem(error);
        update({
          name: file.name,
          status: 'failed',
          text: t('codeUpload.failed', {
            name: file.name,
            reason: reason ? t(`codeUpload.${reason}`) : errorMessage(t, error),
          }),
        });
      }
    }
    setSending(false);
    await queryClient.invalidateQueries({ queryKey: ['service-attachment', code] });
  }

  return (
    <PublicUploadFrame>
      <div className="yyp-code-upload">
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Title level={3}>{title}</Typography.Title>
          <Card>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('codeUpload.organization')}>{data.organizationName}</Descriptions.Item>
              <Descriptions.Item label={t('codeUpload.patient')}>{personName(data.exam.patientName)}</Descriptions.Item>
              <Descriptions.Item label={t('codeUpload.modality')}>{data.exam.modality}</Descriptions.Item>
              <Descriptions.Item label={t('codeUpload.studyDate')}>
                {dayjs(data.exam.studyDate, 'YYYYMMDD').isValid()
                  ? dayjs(data.exam.studyDate, 'YYYYMMDD').format('YYYY-MM-DD')
                  : data.exam.studyDate}
              </Descriptions.Item>
              <Descriptions.Item label={t('codeUpload.expires')}>
                {dayjs.unix(data.expiresAt).format('YYYY-MM-DD HH:mm')}
              </Descriptions.Item>
            </Descriptions>
          </Card>
          <Card>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Typography.Text type="secondary">
                {t('codeUpload.accepts', { types, size, count: data.maxFiles })}
              </Typography.Text>
              {remaining > 0 ? (
                <Typography.Text>{t('codeUpload.remaining', { count: remaining })}</Typography.Text>
              ) : (
                <Alert type="info" showIcon message={t('codeUpload.full')} />
              )}
              {problem ? <Alert type="error" showIcon message={problem} /> : null}
              <Space wrap>
                <Upload
                  multiple
                  accept={data.accept.join(',')}
                  showUploadList={false}
                  beforeUpload={handleChoose}
                  disabled={remaining === 0 || sending}
                >
                  <Button icon={<PaperClipOutlined />} disabled={remaining === 0 || sending}>
                    {t('codeUpload.choose')}
                  </Button>
                </Upload>
                <Button
                  type="primary"
                  icon={<UploadOutlined />}
                  disabled={picked.length === 0}
                  loading={sending}
                  onClick={() => void handleSend()}
                >
                  {t('codeUpload.send')}
                </Button>
              </Space>
              {picked.length > 0 ? (
                <List size="small" dataSource={picked} renderItem={(f) => <List.Item>{f.name}</List.Item>} />
              ) : null}
              {lines.length > 0 ? (
                <List
                  size="small"
                  dataSource={lines}
                  renderItem={(line) => (
                    <List.Item>
                      <Typography.Text type={line.status === 'failed' ? 'danger' : undefined}>
                        {line.text}
                      </Typography.Text>
                    </List.Item>
                  )}
                />
              ) : null}
            </Space>
          </Card>
          <Card title={t('codeUpload.sent')}>
            <List
              size="small"
              locale={{ emptyText: t('codeUpload.noneSent') }}
              dataSource={data.uploads}
              renderItem={(u) => (
                <List.Item data-testid="code-upload-item">
                  <Typography.Text>{u.fileName}</Typography.Text>
                  <Typography.Text type="secondary">
                    {u.size < 1024 ? `${u.size} B` : `${(u.size / 1024).toFixed(1)} KB`}
                  </Typography.Text>
                </List.Item>
              )}
            />
          </Card>
        </Space>
      </div>
    </PublicUploadFrame>
  );
}

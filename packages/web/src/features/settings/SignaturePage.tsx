import { DeleteOutlined, MobileOutlined, UploadOutlined } from '@ant-design/icons';
import { MAX_SIGNATURE_BYTES, resolveUploadType, SIGNATURE_POLL_MS, type UploadCode } from '@yyp/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Image, Popconfirm, QRCode, Space, Typography, Upload, type UploadProps } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUploadPolicy, uploadWithPolicy } from '../../api/policies';
import { fetchMySignature, issueSignatureCode, removeMySignature, setMySignature } from '../../api/uploadCodes';
import { useNotify } from '../../shared/notify/useNotify';

type UploadRequest = Parameters<NonNullable<UploadProps['customRequest']>>[0];

const SIGNATURE_KEY = ['signature', 'mine'] as const;
const maxMegabytes = MAX_SIGNATURE_BYTES / (1024 * 1024);

/** Settings → Signature: sign on a phone through a QR code, upload an image, or remove it. */
export function SignaturePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [code, setCode] = useState<UploadCode | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState<'code' | 'upload' | 'remove' | null>(null);
  const codeOpen = code !== null && code.expiresAt * 1000 > now;
  const signature = useQuery({
    queryKey: SIGNATURE_KEY,
    queryFn: fetchMySignature,
    refetchInterval: codeOpen ? SIGNATURE_POLL_MS : false,
  });
  const seenAt = useRef<string | null | undefined>(undefined);

  useEffect(() => {
    if (!code) {
      return undefined;
    }
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [code]);

  // A signature saved on the phone ends the code on this page.
  useEffect(() => {
    const updatedAt = signature.data?.updatedAt;
    if (code && seenAt.current !== undefined && updatedAt && updatedAt !== seenAt.current) {
      setCode(null);
      notify.success(t('signature.updated'));
    }
    seenAt.current = updatedAt ?? null;
  }, [signature.data?.updatedAt, code, notify, t]);

  async function handleStartPhone() {
    setBusy('code');
    try {
      setCode(await issueSignatureCode());
      setNow(Date.now());
    } catch (error) {
      notify.error(error);
    } finally {
      setBusy(null);
    }
  }

  function handleBeforeUpload(file: File) {
    const type = resolveUploadType(file.type, file.name);
    if (type !== 'image/png' && type !== 'image/jpeg') {
      void message.error(t('signature.wrongType'));
      return Upload.LIST_IGNORE;
    }
    if (file.size > MAX_SIGNATURE_BYTES) {
      void message.error(t('signature.tooLarge', { size: maxMegabytes }));
      return Upload.LIST_IGNORE;
    }
    return true;
  }

  async function handleUpload(request: UploadRequest) {
    const file = request.file as File;
    setBusy('upload');
    try {
      const policy = await fetchUploadPolicy('images', file);
      await uploadWithPolicy(policy, file);
      queryClient.setQueryData(SIGNATURE_KEY, await setMySignature(policy.key));
      request.onSuccess?.(policy.key);
      notify.success(t('signature.updated'));
    } catch (error) {
      request.onError?.(error as Error);
      notify.error(error);
    } finally {
      setBusy(null);
    }
  }

  async function handleRemove() {
    setBusy('remove');
    try {
      queryClient.setQueryData(SIGNATURE_KEY, await removeMySignature());
      notify.success(t('signature.removed'));
    } catch (error) {
      notify.error(error);
    } finally {
      setBusy(null);
    }
  }

  async function handleCopy(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      void message.success(t('signature.linkCopied'));
    } catch {
      // The link stays on screen to copy by hand.
    }
  }

  const link = code ? `${window.location.origin}${code.url}` : '';
  const url = signature.data?.signature ?? null;

  return (
    <Space direction="vertical" size="large" className="yyp-signature" style={{ width: '100%' }}>
      <Typography.Title level={3}>{t('signature.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('signature.intro')}</Typography.Paragraph>
      <Card title={t('signature.current')} loading={signature.isPending}>
        {url ? (
          <Space direction="vertical">
            <Image
              src={url}
              alt={t('signature.alt')}
              data-testid="signature-image"
              style={{ maxHeight: 160, maxWidth: '100%', background: '#fff', border: '1px solid #eee' }}
            />
            <Popconfirm title={t('signature.removeConfirm')} onConfirm={() => void handleRemove()}>
              <Button danger icon={<DeleteOutlined />} loading={busy === 'remove'}>
                {t('signature.remove')}
              </Button>
            </Popconfirm>
          </Space>
        ) : (
          <Empty description={t('signature.none')} />
        )}
      </Card>
      <Card title={t('signature.phoneTitle')}>
        <Space direction="vertical">
          <Typography.Text>{t('signature.phoneHint')}</Typography.Text>
          {code && codeOpen ? (
            <Space align="start" wrap size="large">
              <QRCode value={link} size={180} bordered />
              <Space direction="vertical">
                <Typography.Text data-testid="signature-link" copyable={false} code>
                  {link}
                </Typography.Text>
                <Space>
                  <Button onClick={() => void handleCopy(link)}>{t('signature.copyLink')}</Button>
                  <Button onClick={() => void handleStartPhone()} loading={busy === 'code'}>
                    {t('signature.phoneNew')}
                  </Button>
                </Space>
                <Typography.Text type="secondary">
                  {t('signature.phoneExpires', { time: dayjs.unix(code.expiresAt).format('HH:mm') })}
                </Typography.Text>
                <Typography.Text type="secondary">{t('signature.phoneWaiting')}</Typography.Text>
              </Space>
            </Space>
          ) : (
            <Space direction="vertical">
              {code ? <Typography.Text type="warning">{t('signature.phoneExpired')}</Typography.Text> : null}
              <Button
                type="primary"
                icon={<MobileOutlined />}
                onClick={() => void handleStartPhone()}
                loading={busy === 'code'}
              >
                {code ? t('signature.phoneNew') : t('signature.phoneStart')}
              </Button>
            </Space>
          )}
        </Space>
      </Card>
      <Card title={t('signature.uploadTitle')}>
        <Space direction="vertical">
          <Typography.Text type="secondary">{t('signature.uploadHint', { size: maxMegabytes })}</Typography.Text>
          <Upload
            accept="image/png,image/jpeg"
            showUploadList={false}
            beforeUpload={handleBeforeUpload}
            customRequest={(request) => void handleUpload(request)}
          >
            <Button icon={<UploadOutlined />} loading={busy === 'upload'}>
              {t('signature.upload')}
            </Button>
          </Upload>
        </Space>
      </Card>
    </Space>
  );
}

import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { checkUpload, resolveUploadType, uploadRules, type User } from '@yyp/contracts';
import { App, Avatar, Button, Space, Typography, Upload, type UploadProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUploadPolicy, uploadWithPolicy } from '../../api/policies';
import { useNotify } from '../../shared/notify/useNotify';
import { useUpdateMe } from '../../shared/account/useMe';

type UploadRequest = Parameters<NonNullable<UploadProps['customRequest']>>[0];

const rule = uploadRules.avatars;
const maxMegabytes = rule.maxBytes / (1024 * 1024);

/**
 * The profile picture: chosen, checked here against the avatar rules, sent with an upload policy
 * (GET policies/avatars, then PUT to the answered URL), then saved on the profile at once. The
 * chosen picture shows while it uploads; the account menu shows the saved one.
 */
export function AvatarField({ user }: { user: User }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notify = useNotify();
  const updateMe = useUpdateMe();
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);

  useEffect(
    () => () => {
      if (preview) {
        URL.revokeObjectURL(preview);
      }
    },
    [preview],
  );

  function handleBeforeUpload(file: File) {
    const problem = checkUpload('avatars', resolveUploadType(file.type, file.name), file.size);
    if (problem === 'FileTooLarge') {
      void message.error(t('settings.avatarTooLarge', { size: maxMegabytes }));
      return Upload.LIST_IGNORE;
    }
    if (problem) {
      void message.error(t('settings.avatarWrongType'));
      return Upload.LIST_IGNORE;
    }
    return true;
  }

  async function handleUpload(request: UploadRequest) {
    const file = request.file as File;
    setBusy('upload');
    if (typeof URL.createObjectURL === 'function') {
      setPreview(URL.createObjectURL(file));
    }
    try {
      const policy = await fetchUploadPolicy('avatars', file);
      await uploadWithPolicy(policy, file);
      await updateMe.mutateAsync({ avatar: policy.key });
      request.onSuccess?.(policy.key);
      notify.success(t('settings.avatarUpdated'));
    } catch (error) {
      request.onError?.(error as Error);
      notify.error(error);
    } finally {
      setPreview(null);
      setBusy(null);
    }
  }

  async function handleRemove() {
    setBusy('remove');
    try {
      await updateMe.mutateAsync({ avatar: null });
      notify.success(t('settings.avatarRemoved'));
    } catch (error) {
      notify.error(error);
    } finally {
      setBusy(null);
    }
  }

  const src = preview ?? user.avatar ?? undefined;
  const initial = (user.name || user.username).slice(0, 1).toUpperCase();
  return (
    <div className="yyp-avatar-field">
      <Avatar
        size={72}
        src={src}
        alt={t('settings.avatar')}
        className={src ? 'yyp-avatar-field__picture' : 'yyp-avatar-field__picture yyp-avatar-field__picture--initial'}
      >
        {initial}
      </Avatar>
      <Space orientation="vertical" size={6}>
        <Typography.Text strong>{t('settings.avatar')}</Typography.Text>
        <Space wrap>
          <Upload
            accept={rule.accept.join(',')}
            showUploadList={false}
            maxCount={1}
            beforeUpload={handleBeforeUpload}
            customRequest={(request) => void handleUpload(request)}
            disabled={busy !== null}
          >
            <Button icon={<UploadOutlined />} loading={busy === 'upload'}>
              {user.avatar ? t('settings.avatarChange') : t('settings.avatarUpload')}
            </Button>
          </Upload>
          {user.avatar && (
            <Button
              icon={<DeleteOutlined />}
              onClick={() => void handleRemove()}
              loading={busy === 'remove'}
              disabled={busy === 'upload'}
            >
              {t('settings.avatarRemove')}
            </Button>
          )}
        </Space>
        <Typography.Text type="secondary">{t('settings.avatarHint', { size: maxMegabytes })}</Typography.Text>
      </Space>
    </div>
  );
}

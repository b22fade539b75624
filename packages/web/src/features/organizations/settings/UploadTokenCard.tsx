import { DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MAX_UPLOAD_NOTIFY_USERS, type Organization } from '@yyp/contracts';
import { Button, Card, Empty, Form, Popconfirm, QRCode, Select, Skeleton, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { revokeUploadToken, rotateUploadToken } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { useOrgMembers, useUploadToken } from '../useOrganization';
import { useUpdateOrganization } from './useUpdateOrganization';
import { memberOptions } from '../../../shared/labels/accountOptions';

/** The upload page address as a full URL: what the static QR encodes. */
export function uploadUrl(uploadPath: string): string {
  return `${window.location.origin}${uploadPath}`;
}

/** Public upload token: QR and link, issue a new one or revoke it, and who is notified of uploads. */
export function UploadTokenCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const token = useUploadToken(organization.id);
  const members = useOrgMembers(organization.id);
  const update = useUpdateOrganization(organization.id);
  const [form] = Form.useForm<{ notifyAccountIds: string[] }>();
  const rotate = useMutation({ mutationFn: () => rotateUploadToken(organization.id) });
  const revoke = useMutation({ mutationFn: () => revokeUploadToken(organization.id) });

  useEffect(() => {
    if (token.data) {
      form.setFieldsValue({ notifyAccountIds: token.data.notifyAccountIds });
    }
  }, [form, token.data]);

  async function handleRotate() {
    try {
      queryClient.setQueryData(queryKeys.uploadToken(organization.id), await rotate.mutateAsync());
      notify.success(t('org.tokenIssued'));
    } catch (error) {
      notify.error(error);
    }
  }

  async function handleRevoke() {
    try {
      queryClient.setQueryData(queryKeys.uploadToken(organization.id), await revoke.mutateAsync());
      notify.success(t('org.tokenRevoked'));
    } catch (error) {
      notify.error(error);
    }
  }

  async function handleNotifyFinish(values: { notifyAccountIds: string[] }) {
    try {
      await update.mutateAsync({ notifications: { uploadNotifyAccountIds: values.notifyAccountIds } });
      notify.success(t('org.saved'));
    } catch (error) {
      notify.error(error);
    }
  }

  const path = token.data?.uploadPath ?? null;

  return (
    <Card variant="borderless" title={t('org.uploadTitle')}>
      <Typography.Paragraph type="secondary">{t('org.uploadDescription')}</Typography.Paragraph>
      {token.isError && <LoadFailedAlert error={token.error} onRetry={() => void token.refetch()} />}
      {token.isPending && <Skeleton active />}
      {token.data &&
        (path ? (
          <div className="yyp-upload-token">
            <QRCode value={uploadUrl(path)} size={148} bordered />
            <div className="yyp-upload-token__info">
              <Typography.Text type="secondary">{t('org.uploadLink')}</Typography.Text>
              <Typography.Paragraph copyable={{ text: uploadUrl(path) }} className="yyp-upload-token__link">
                <code>{uploadUrl(path)}</code>
              </Typography.Paragraph>
              <Space wrap>
                <Popconfirm
                  title={t('org.rotateConfirm')}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  onConfirm={handleRotate}
                >
                  <Button icon={<ReloadOutlined />} loading={rotate.isPending}>
                    {t('org.rotateToken')}
                  </Button>
                </Popconfirm>
                <Popconfirm
                  title={t('org.revokeConfirm')}
                  okText={t('org.revokeToken')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={handleRevoke}
                >
                  <Button danger icon={<DeleteOutlined />} loading={revoke.isPending}>
                    {t('org.revokeToken')}
                  </Button>
                </Popconfirm>
              </Space>
            </div>
          </div>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('org.noToken')}>
            <Button type="primary" onClick={() => void handleRotate()} loading={rotate.isPending}>
              {t('org.issueToken')}
            </Button>
          </Empty>
        ))}
      <Form
        name="uploadNotify"
        form={form}
        layout="vertical"
        onFinish={handleNotifyFinish}
        className="yyp-upload-token__notify"
      >
        <Form.Item
          name="notifyAccountIds"
          label={t('org.notifyUsers')}
          extra={t('org.notifyUsersHint', { max: MAX_UPLOAD_NOTIFY_USERS })}
          rules={[
            {
              type: 'array',
              max: MAX_UPLOAD_NOTIFY_USERS,
              message: t('org.notifyTooMany', { max: MAX_UPLOAD_NOTIFY_USERS }),
            },
          ]}
        >
          <Select
            mode="multiple"
            allowClear
            maxCount={MAX_UPLOAD_NOTIFY_USERS}
            loading={members.isPending}
            options={memberOptions(members.data ?? [])}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
        <Button htmlType="submit" loading={update.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

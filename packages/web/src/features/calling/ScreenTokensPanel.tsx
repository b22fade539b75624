import { DesktopOutlined } from '@ant-design/icons';
import type { ScreenToken } from '@yyp/contracts';
import { Button, Form, Input, Modal, Popconfirm, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format/dates';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { screenUrl } from './screenToken';
import { useScreenTokenCommands, useScreenTokens } from './useCallQueueSettings';

/** Waiting-room screens: issue an address (shown once, with a copy button), list them, revoke one. */
export function ScreenTokensPanel({ bucketId }: { bucketId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const tokens = useScreenTokens(bucketId);
  const { issue, revoke } = useScreenTokenCommands(bucketId);
  const [form] = Form.useForm<{ label: string }>();
  const [issued, setIssued] = useState<string | null>(null);

  async function handleIssue({ label }: { label: string }) {
    try {
      const answer = await issue.mutateAsync(label);
      setIssued(screenUrl(window.location.origin, bucketId, answer.token));
      form.resetFields();
    } catch (error) {
      notify.error(error);
    }
  }

  async function handleRevoke(token: ScreenToken) {
    try {
      await revoke.mutateAsync(token.id);
      notify.success(t('callQueues.tokens.revokedNotice'));
    } catch (error) {
      notify.error(error);
    }
  }

  const columns: TableColumnsType<ScreenToken> = [
    { title: t('callQueues.tokens.label'), dataIndex: 'label' },
    { title: t('callQueues.tokens.createdAt'), dataIndex: 'created', render: (iso: string) => formatTime(iso) },
    {
      title: t('callQueues.tokens.lastUsedAt'),
      dataIndex: 'lastUsedAt',
      render: (iso: string | null) => (iso ? formatTime(iso) : t('callQueues.tokens.never')),
    },
    {
      title: t('callQueues.tokens.status'),
      key: 'status',
      render: (_, token) =>
        token.revokedAt ? (
          <Tag>{t('callQueues.tokens.revoked')}</Tag>
        ) : (
          <Tag color="green">{t('callQueues.tokens.active')}</Tag>
        ),
    },
    {
      key: 'actions',
      render: (_, token) =>
        !token.revokedAt && (
          <Popconfirm
            title={t('callQueues.tokens.revokeConfirm', { label: token.label })}
            okText={t('callQueues.tokens.revoke')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => handleRevoke(token)}
          >
            <Button size="small" danger>
              {t('callQueues.tokens.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <section>
      <Typography.Title level={5}>{t('callQueues.tokens.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('callQueues.tokens.description')}</Typography.Paragraph>
      <Form form={form} name="screenToken" layout="inline" onFinish={handleIssue} className="yyp-callqueues__issue">
        <Form.Item name="label" rules={[{ required: true, whitespace: true, max: 64 }]}>
          <Input aria-label={t('callQueues.tokens.label')} placeholder={t('callQueues.tokens.label')} maxLength={64} />
        </Form.Item>
        <Button htmlType="submit" icon={<DesktopOutlined />} loading={issue.isPending}>
          {t('callQueues.tokens.issue')}
        </Button>
      </Form>
      {tokens.isError && <LoadFailedAlert error={tokens.error} onRetry={() => void tokens.refetch()} />}
      <Table<ScreenToken>
        size="small"
        rowKey="id"
        pagination={false}
        columns={columns}
        dataSource={tokens.data ?? []}
        loading={tokens.isPending}
        locale={{ emptyText: t('callQueues.tokens.empty') }}
      />
      <Modal
        open={issued !== null}
        title={t('callQueues.tokens.issuedTitle')}
        onCancel={() => setIssued(null)}
        footer={<Button onClick={() => setIssued(null)}>{t('callQueues.tokens.close')}</Button>}
        destroyOnHidden
      >
        <Space direction="vertical">
          <Typography.Text type="warning">{t('callQueues.tokens.issuedHint')}</Typography.Text>
          <Typography.Paragraph
            copyable={{ text: issued ?? '', tooltips: [t('callQueues.tokens.copy'), t('callQueues.tokens.copied')] }}
            className="yyp-callqueues__url"
          >
            <code>{issued}</code>
          </Typography.Paragraph>
        </Space>
      </Modal>
    </section>
  );
}

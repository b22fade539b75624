import { CopyOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import type { ShareLink, ShareLinkCreated } from '@yyp/contracts';
import { Alert, App, Button, Input, List, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../shared/notify/useNotify';
import { formatTime } from '../../shared/format/dates';
import { absoluteUrl } from './format';
import { revokeShareLink } from './sharingApi';

/** A link just made: shown this once, with a copy button (only its hash is kept). */
export function CreatedLink({ link }: { link: ShareLinkCreated }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const url = absoluteUrl(link.url);

  function handleCopy() {
    navigator.clipboard.writeText(url).then(
      () => notify.success(t('sharing.share.copied')),
      () => undefined,
    );
  }

  return (
    <div className="yyp-share-dialog__created">
      <Alert type="success" showIcon title={t('sharing.share.created')} />
      <Space.Compact block>
        <Input
          readOnly
          value={url}
          aria-label={t('sharing.share.link')}
          data-testid="share-url"
          onFocus={(e) => e.target.select()}
        />
        <Button icon={<CopyOutlined />} onClick={handleCopy}>
          {t('sharing.share.copy')}
        </Button>
      </Space.Compact>
      <Typography.Text type="secondary">
        {t('sharing.share.until', { time: formatTime(link.expiresAt) })}
      </Typography.Text>
    </div>
  );
}

const STATE_COLORS: Record<ShareLink['state'], string> = { live: 'green', expired: 'default', revoked: 'red' };

/** A report's share and publish links (never their ids): state, views, who made them, revoke. */
export function LinkList({
  reportId,
  links,
  loading,
  onChanged,
}: {
  reportId: string;
  links: ShareLink[];
  loading: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const revoke = useMutation({
    mutationFn: (shareId: string) => revokeShareLink(reportId, shareId),
    onSuccess: () => {
      notify.success(t('sharing.share.revoked'));
      onChanged();
    },
    onError: notify.error,
  });

  function handleRevoke(link: ShareLink) {
    modal.confirm({
      title: t('sharing.share.revoke'),
      content: t('sharing.share.revokeConfirm'),
      okButtonProps: { danger: true },
      onOk: () => revoke.mutateAsync(link.id).catch(() => undefined),
    });
  }

  return (
    <section className="yyp-share-dialog__links">
      <Typography.Title level={5}>{t('sharing.share.existing')}</Typography.Title>
      <List
        size="small"
        loading={loading}
        dataSource={links}
        locale={{ emptyText: t('sharing.share.none') }}
        renderItem={(link) => (
          <List.Item
            actions={
              link.state === 'live'
                ? [
                    <Button key="revoke" type="link" danger size="small" onClick={() => handleRevoke(link)}>
                      {t('sharing.share.revoke')}
                    </Button>,
                  ]
                : []
            }
          >
            <Space wrap size={6}>
              <Tag>{t(`sharing.share.kind.${link.kind}`)}</Tag>
              <Tag color={STATE_COLORS[link.state]}>{t(`sharing.share.state.${link.state}`)}</Tag>
              {link.superseded && <Tag color="orange">{t('sharing.share.superseded')}</Tag>}
              <Typography.Text type="secondary">
                {formatTime(link.createdAt)}
                {link.createdBy ? ` · ${t('sharing.share.by', { name: link.createdBy.name })}` : ''}
                {` · ${t('sharing.share.until', { time: formatTime(link.expiresAt) })}`}
                {` · ${t('sharing.share.views', { count: link.viewCount })}`}
              </Typography.Text>
            </Space>
          </List.Item>
        )}
      />
    </section>
  );
}

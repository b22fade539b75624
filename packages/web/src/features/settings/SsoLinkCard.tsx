import { LoginOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, List, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { fetchSsoLinks, startSsoLink, unlinkSso } from '../../api/sso';
import { useNotify } from '../../shared/notify/useNotify';

const SSO_LINKS_KEY = ['accounts', 'me', 'sso'] as const;

/**
 * The single-sign-on card of /settings/mobile (issue 27): the account's links to its groups'
 * OpenID providers (GET accounts/me/sso), a "Link with …" button per group that offers one (POST
 * accounts/me/sso/{groupId}/link sends the browser to the provider; /loginCallback comes back here
 * with ?linked=sso) and unlinking (DELETE), which an account without a password may not do.
 * Nothing shows when no group of the account offers single sign-on.
 */
export function SsoLinkCard() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const links = useQuery({ queryKey: SSO_LINKS_KEY, queryFn: ({ signal }) => fetchSsoLinks(signal) });
  const start = useMutation({ mutationFn: startSsoLink });
  const unlink = useMutation({ mutationFn: unlinkSso });

  async function handleLink(groupId: string) {
    try {
      window.location.assign(await start.mutateAsync(groupId));
    } catch (error) {
      notify.error(error);
    }
  }

  async function handleUnlink(groupId: string) {
    try {
      await unlink.mutateAsync(groupId);
      notify.success(t('ssoLink.unlinked'));
      await queryClient.invalidateQueries({ queryKey: SSO_LINKS_KEY });
    } catch (error) {
      notify.error(error);
    }
  }

  const data = links.data;
  if (!data || (data.linked.length === 0 && data.offered.length === 0)) return null;
  const day = (iso: string) => new Date(iso).toLocaleDateString();
  return (
    <Card
      variant="borderless"
      className="yyp-form-narrow"
      style={{ marginTop: 16 }}
      title={
        <Space>
          <SafetyCertificateOutlined />
          {t('ssoLink.title')}
        </Space>
      }
    >
      {search.get('linked') === 'sso' && data.linked.length > 0 && (
        <Alert type="success" showIcon title={t('ssoLink.justLinked')} style={{ marginBottom: 12 }} />
      )}
      {data.linked.length > 0 && (
        <List
          size="small"
          dataSource={data.linked}
          rowKey="groupId"
          renderItem={(link) => (
            <List.Item
              actions={
                data.hasPassword
                  ? [
                      <Popconfirm
                        key="unlink"
                        title={t('ssoLink.unlinkConfirm')}
                        onConfirm={() => handleUnlink(link.groupId)}
                      >
                        <Button danger size="small" loading={unlink.isPending && unlink.variables === link.groupId}>
                          {t('ssoLink.unlink')}
                        </Button>
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <Space direction="vertical" size={0}>
                <Typography.Text>
                  {t('ssoLink.linked', { label: link.label, date: day(link.linkedAt) })}
                </Typography.Text>
                {link.lastLoginAt && (
                  <Typography.Text type="secondary">
                    {t('ssoLink.lastUsed', { date: day(link.lastLoginAt) })}
                  </Typography.Text>
                )}
              </Space>
            </List.Item>
          )}
        />
      )}
      {data.linked.length > 0 && !data.hasPassword && <Alert type="info" showIcon title={t('ssoLink.cannotUnlink')} />}
      {data.offered.length > 0 && (
        <>
          <Typography.Paragraph type="secondary">{t('ssoLink.hint')}</Typography.Paragraph>
          <Space wrap>
            {data.offered.map((offer) => (
              <Button
                key={offer.groupId}
                icon={<LoginOutlined />}
                loading={start.isPending && start.variables === offer.groupId}
                onClick={() => handleLink(offer.groupId)}
              >
                {t('ssoLink.linkWith', { label: offer.label })}
              </Button>
            ))}
          </Space>
        </>
      )}
    </Card>
  );
}

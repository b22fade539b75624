import { WechatOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Avatar, Button, Card, Popconfirm, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchWxLink, unlinkWx } from '../../api/wxLogin';
import { useNotify } from '../../shared/notify/useNotify';

const WX_LINK_KEY = ['accounts', 'me', 'wx'] as const;

/**
 * The WeChat card of /settings/mobile (issue 27): whether a WeChat is linked to this account (GET
 * accounts/me/wx) and unlinking it (DELETE accounts/me/wx), which an account without a password may
 * not do. A WeChat is linked on /loginCallback, after a WeChat login.
 */
export function WxLinkCard() {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const link = useQuery({ queryKey: WX_LINK_KEY, queryFn: ({ signal }) => fetchWxLink(signal) });
  const unlink = useMutation({ mutationFn: unlinkWx });

  async function handleUnlink() {
    try {
      await unlink.mutateAsync();
      notify.success(t('wx.unlinked'));
      await queryClient.invalidateQueries({ queryKey: WX_LINK_KEY });
    } catch (error) {
      notify.error(error);
    }
  }

  // A server that answers nothing here (an error) leaves the page without the card.
  if (link.isError) return null;
  const data = link.data;
  return (
    <Card
      variant="borderless"
      className="yyp-form-narrow"
      style={{ marginTop: 16 }}
      title={
        <Space>
          <WechatOutlined style={{ color: '#07c160' }} />
          {t('wx.settingsTitle')}
        </Space>
      }
    >
      {link.isPending && <Skeleton active paragraph={{ rows: 1 }} />}
      {data && !data.linked && <Typography.Paragraph type="secondary">{t('wx.notLinked')}</Typography.Paragraph>}
      {data?.linked && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space>
            <Avatar src={data.headimgurl ?? undefined} icon={<WechatOutlined />} alt="" />
            <Typography.Text>
              {t('wx.linkedAs', {
                nickname: data.nickname ?? '',
                date: data.linkedAt ? new Date(data.linkedAt).toLocaleDateString() : '',
              })}
            </Typography.Text>
          </Space>
          {data.canUnlink ? (
            <Popconfirm title={t('wx.unlinkConfirm')} onConfirm={() => handleUnlink()}>
              <Button danger loading={unlink.isPending}>
                {t('wx.unlink')}
              </Button>
            </Popconfirm>
          ) : (
            <Alert type="info" showIcon title={t('wx.cannotUnlink')} />
          )}
        </Space>
      )}
    </Card>
  );
}

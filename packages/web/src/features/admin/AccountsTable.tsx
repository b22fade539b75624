import { useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { App, Button, Modal, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryRealmAccounts, resetAccountPassword, setAccountStatus, unlockAccount } from '../../api/admin';
import type { RealmAccount } from '../../api/contractTypes';
import { queryKeys } from '../../api/queryClient';
import { useNotify } from '../../shared/notify/useNotify';
import { fixedPagination, PagedQueryTable } from '../../ui/QueryTable';
import { useMe } from '../../shared/account/useMe';
import { GroupLevelTag } from '../../shared/labels/GroupLevelTag';

const PAGE_SIZE = 20;

interface TemporaryPassword {
  name: string;
  password: string;
}

/** The accounts of one group with status and lock, and the security administrator's actions. */
export function AccountsTable({ groupId, q }: { groupId: string; q: string }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const me = useMe();
  const [page, setPage] = useState(1);
  const [temporary, setTemporary] = useState<TemporaryPassword | null>(null);
  const accounts = useQuery({
    queryKey: [...queryKeys.realm(groupId), q, page],
    queryFn: ({ signal }) =>
      queryRealmAccounts(groupId, { q: q || undefined, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  const status = useMutation({
    mutationFn: ({ account, disable }: { account: RealmAccount; disable: boolean }) =>
      setAccountStatus(account.id, disable ? 1 : 0),
  });
  const unlock = useMutation({ mutationFn: (account: RealmAccount) => unlockAccount(account.id) });
  const reset = useMutation({ mutationFn: (account: RealmAccount) => resetAccountPassword(account.id) });

  function refresh() {
    return queryClient.invalidateQueries({ queryKey: queryKeys.realm(groupId) });
  }

  function handleStatus(account: RealmAccount) {
    const disable = account.disabled === 0;
    void modal.confirm({
      title: disable
        ? t('accountsAdmin.disableTitle', { name: account.name })
        : t('accountsAdmin.enableTitle', { name: account.name }),
      content: disable ? t('accountsAdmin.disableDescription') : t('accountsAdmin.enableDescription'),
      okText: disable ? t('accountsAdmin.disable') : t('accountsAdmin.enable'),
      okButtonProps: { danger: disable },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await status.mutateAsync({ account, disable });
          notify.success(
            disable
              ? t('accountsAdmin.disabledDone', { name: account.name })
              : t('accountsAdmin.enabled', { name: account.name }),
          );
          await refresh();
        } catch (error) {
          notify.error(error);
        }
      },
    });
  }

  async function handleUnlock(account: RealmAccount) {
    try {
      await unlock.mutateAsync(account);
      notify.success(t('accountsAdmin.unlocked', { name: account.name }));
      await refresh();
    } catch (error) {
      notify.error(error);
    }
  }

  function handleReset(account: RealmAccount) {
    void modal.confirm({
      title: t('accountsAdmin.resetTitle', { name: account.name }),
      content: t('accountsAdmin.resetDescription', { name: account.name }),
      okText: t('accountsAdmin.resetPassword'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          const result = await reset.mutateAsync(account);
          if (result.temporaryPassword) {
            setTemporary({ name: account.name, password: result.temporaryPassword });
          }
          await refresh();
        } catch (error) {
          notify.error(error);
        }
      },
    });
  }

  const columns: TableColumnsType<RealmAccount> = [
    { key: 'username', dataIndex: 'username', title: t('accountsAdmin.username') },
    { key: 'name', dataIndex: 'name', title: t('accountsAdmin.name') },
    {
      key: 'groups',
      title: t('accountsAdmin.groups'),
      render: (_, account) => (
        <div className="yyp-tag-wrap">
          {account.groups.map((g) => (
            <span key={g.id} className="yyp-group-level">
              {g.displayName} <GroupLevelTag level={g.accessLevel} />
            </span>
          ))}
        </div>
      ),
    },
    {
      key: 'status',
      title: t('accountsAdmin.status'),
      render: (_, account) =>
        account.disabled ? (
          <Tag color="red">{t('accountsAdmin.disabled')}</Tag>
        ) : (
          <Tag color="green">{t('accountsAdmin.active')}</Tag>
        ),
    },
    {
      key: 'locked',
      title: t('accountsAdmin.login'),
      render: (_, account) =>
        account.locked ? (
          <Tag color="orange">{t('accountsAdmin.locked')}</Tag>
        ) : (
          <Typography.Text type="secondary">{t('accountsAdmin.notLocked')}</Typography.Text>
        ),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, account) => {
        const self = account.id === me.data?.id;
        return (
          <Space size={0} wrap>
            <Tooltip title={self ? t('accountsAdmin.self') : undefined}>
              <Button
                type="link"
                size="small"
                danger={account.disabled === 0}
                disabled={self}
                onClick={() => handleStatus(account)}
              >
                {account.disabled ? t('accountsAdmin.enable') : t('accountsAdmin.disable')}
              </Button>
            </Tooltip>
            <Button type="link" size="small" disabled={!account.locked} onClick={() => void handleUnlock(account)}>
              {t('accountsAdmin.unlock')}
            </Button>
            <Button type="link" size="small" disabled={self} onClick={() => handleReset(account)}>
              {t('accountsAdmin.resetPassword')}
            </Button>
          </Space>
        );
      },
    },
  ];

  return (
    <>
      <PagedQueryTable<RealmAccount>
        query={accounts}
        rows={accounts.data?.accounts}
        rowKey="id"
        size="middle"
        columns={columns}
        pagination={fixedPagination(page, PAGE_SIZE, accounts.data?.count ?? 0, setPage)}
      />
      <Modal
        open={temporary !== null}
        title={t('accountsAdmin.temporaryTitle')}
        onCancel={() => setTemporary(null)}
        footer={
          <Button type="primary" onClick={() => setTemporary(null)}>
            {t('common.confirm')}
          </Button>
        }
        mask={{ closable: false }}
        destroyOnHidden
      >
        {temporary && (
          <div className="yyp-temp-password">
            <Typography.Paragraph>
              {t('accountsAdmin.temporaryDescription', { name: temporary.name })}
            </Typography.Paragraph>
            <Typography.Text code copyable={{ text: temporary.password }} className="yyp-temp-password__value">
              {temporary.password}
            </Typography.Text>
          </div>
        )}
      </Modal>
    </>
  );
}

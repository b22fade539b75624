import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group } from '@yyp/contracts';
import { App, Button, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { quitGroup } from '../../api/groups';
import { queryKeys } from '../../api/queryClient';
import { useNotify } from '../../shared/notify/useNotify';
import { PageHeading } from '../../ui/PageHeading';
import { groupColumns, GroupsTableCard } from '../../shared/groups/groupColumns';
import { useMyGroups } from '../../shared/groups/useGroups';

/** /settings/groups: the user's groups with their level, and leaving one (POST groups/:id/quit). */
export function MyGroupsPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const groups = useMyGroups();
  const quit = useMutation({ mutationFn: (group: Group) => quitGroup(group.id) });

  function handleLeave(group: Group) {
    void modal.confirm({
      title: t('myGroups.leaveTitle', { name: group.displayName }),
      content: t('myGroups.leaveDescription'),
      okText: t('myGroups.leave'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await quit.mutateAsync(group);
          notify.success(t('myGroups.left', { name: group.displayName }));
          queryClient.removeQueries({ queryKey: queryKeys.group(group.id) });
          await queryClient.invalidateQueries({ queryKey: queryKeys.groups });
          await queryClient.invalidateQueries({ queryKey: queryKeys.permissions });
          await queryClient.invalidateQueries({ queryKey: queryKeys.organizations });
        } catch (error) {
          notify.error(error);
        }
      },
    });
  }

  const columns: TableColumnsType<Group> = [
    ...groupColumns(t),
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, group) => (
        <Button type="link" size="small" danger onClick={() => handleLeave(group)}>
          {t('myGroups.leave')}
        </Button>
      ),
    },
  ];

  return (
    <div className="yyp-page">
      <PageHeading title={t('myGroups.title')} description={t('myGroups.description')} />
      <GroupsTableCard groups={groups} columns={columns} emptyText={t('myGroups.empty')} />
    </div>
  );
}

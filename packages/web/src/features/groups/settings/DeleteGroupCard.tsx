import { useQueryClient } from '@tanstack/react-query';
import type { Group } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteGroup } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { DeleteByNameCard } from '../../../ui/DeleteByNameCard';

/** Deleting the group: spec 000 §5 asks to type its name first. */
export function DeleteGroupCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();

  async function handleDeleted() {
    notify.success(t('group.groupDeleted', { name: group.displayName }));
    queryClient.removeQueries({ queryKey: queryKeys.group(group.id) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.groups });
    await queryClient.invalidateQueries({ queryKey: queryKeys.permissions });
    await navigate('/groups', { replace: true });
  }

  return (
    <DeleteByNameCard
      label={t('group.deleteGroup')}
      description={t('group.deleteGroupDescription', { name: group.displayName })}
      name={group.displayName}
      remove={() => deleteGroup(group.id, group.displayName)}
      onDeleted={handleDeleted}
    />
  );
}

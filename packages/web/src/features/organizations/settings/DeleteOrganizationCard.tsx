import { useQueryClient } from '@tanstack/react-query';
import type { Group, Organization } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteOrganization } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { DeleteByNameCard } from '../../../ui/DeleteByNameCard';

/** Deleting the organization (group admins only), by typing its name. */
export function DeleteOrganizationCard({ group, organization }: { group: Group; organization: Organization }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();

  async function handleDeleted() {
    notify.success(t('group.orgDeleted', { name: organization.name }));
    queryClient.removeQueries({ queryKey: queryKeys.organization(organization.id) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.groups });
    await queryClient.invalidateQueries({ queryKey: queryKeys.permissions });
    await navigate(`/groups/${encodeURIComponent(group.id)}?tab=organizations`, { replace: true });
  }

  return (
    <DeleteByNameCard
      label={t('group.deleteOrganization')}
      description={t('group.deleteOrganizationDescription', { name: organization.name })}
      name={organization.name}
      remove={() => deleteOrganization(organization.id, organization.name)}
      onDeleted={handleDeleted}
    />
  );
}

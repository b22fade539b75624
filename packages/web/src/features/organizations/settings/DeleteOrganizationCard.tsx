import { DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group, Organization } from '@yyp/contracts';
import { Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteOrganization } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../app/useNotify';
import { ConfirmByNameModal } from '../../../ui/ConfirmByNameModal';

/** Deleting the organization (group admins only), by typing its name. */
export function DeleteOrganizationCard({ group, organization }: { group: Group; organization: Organization }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({ mutationFn: () => deleteOrganization(organization.id, organization.name) });

  async function handleConfirm() {
    try {
      await remove.mutateAsync();
    } catch (error) {
      notify.error(error);
      throw error;
    }
    notify.success(t('group.orgDeleted', { name: organization.name }));
    setOpen(false);
    queryClient.removeQueries({ queryKey: queryKeys.organization(organization.id) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.groups });
    await queryClient.invalidateQueries({ queryKey: queryKeys.permissions });
    await navigate(`/groups/${encodeURIComponent(group.id)}?tab=organizations`, { replace: true });
  }

  return (
    <Card variant="borderless" title={t('group.dangerTitle')} className="yyp-danger-card">
      <div className="yyp-danger-row">
        <div>
          <Typography.Text strong>{t('group.deleteOrganization')}</Typography.Text>
          <br />
          <Typography.Text type="secondary">
            {t('group.deleteOrganizationDescription', { name: organization.name })}
          </Typography.Text>
        </div>
        <Button danger icon={<DeleteOutlined />} onClick={() => setOpen(true)}>
          {t('group.deleteOrganization')}
        </Button>
      </div>
      <ConfirmByNameModal
        open={open}
        title={t('group.deleteOrganization')}
        description={t('group.deleteOrganizationDescription', { name: organization.name })}
        name={organization.name}
        confirmLabel={t('group.deleteOrganization')}
        onConfirm={handleConfirm}
        onCancel={() => setOpen(false)}
      />
    </Card>
  );
}

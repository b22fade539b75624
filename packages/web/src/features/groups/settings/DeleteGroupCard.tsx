import { DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Group } from '@yyp/contracts';
import { Button, Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteGroup } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../app/useNotify';
import { ConfirmByNameModal } from '../../../ui/ConfirmByNameModal';

/** Deleting the group: spec 000 §5 asks to type its name first. */
export function DeleteGroupCard({ group }: { group: Group }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({ mutationFn: () => deleteGroup(group.id, group.displayName) });

  async function handleConfirm() {
    try {
      await remove.mutateAsync();
    } catch (error) {
      notify.error(error);
      throw error;
    }
    notify.success(t('group.groupDeleted', { name: group.displayName }));
    setOpen(false);
    queryClient.removeQueries({ queryKey: queryKeys.group(group.id) });
    await queryClient.invalidateQueries({ queryKey: queryKeys.groups });
    await queryClient.invalidateQueries({ queryKey: queryKeys.permissions });
    await navigate('/groups', { replace: true });
  }

  return (
    <Card variant="borderless" title={t('group.dangerTitle')} className="yyp-danger-card">
      <div className="yyp-danger-row">
        <div>
          <Typography.Text strong>{t('group.deleteGroup')}</Typography.Text>
          <br />
          <Typography.Text type="secondary">
            {t('group.deleteGroupDescription', { name: group.displayName })}
          </Typography.Text>
        </div>
        <Button danger icon={<DeleteOutlined />} onClick={() => setOpen(true)}>
          {t('group.deleteGroup')}
        </Button>
      </div>
      <ConfirmByNameModal
        open={open}
        title={t('group.deleteGroup')}
        description={t('group.deleteGroupDescription', { name: group.displayName })}
        name={group.displayName}
        confirmLabel={t('group.deleteGroup')}
        onConfirm={handleConfirm}
        onCancel={() => setOpen(false)}
      />
    </Card>
  );
}

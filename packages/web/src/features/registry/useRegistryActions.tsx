import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input } from 'antd';
import type { RegistryItem } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { arriveScheduled, cancelArrival, confirmScheduled, deleteScheduled, revokeScheduled } from '../../api/registry';
import { useNotify } from '../../shared/notify/useNotify';
import { registryKeys } from './useRegistry';

/**
 * The desk's actions on scheduled exams: arrival and confirmation (one or several), cancelling an
 * arrival, revoking (with a reason) and deleting (both confirmed first). The list reloads after each.
 */
export function useRegistryActions(bucketId: string | undefined) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notify = useNotify();
  const queryClient = useQueryClient();

  const run = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onSuccess: () => notify.success(t('registry.done')),
    onError: (error) => notify.error(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: registryKeys.all(bucketId ?? '') }),
  });
  const act = (work: () => Promise<unknown>) => run.mutateAsync(work).catch(() => undefined);

  function askCancelArrival(row: RegistryItem) {
    void modal.confirm({
      title: t('registry.cancelArrivalTitle'),
      content: row.status === 'Performed' ? t('registry.cancelArrivalPerformed') : t('registry.cancelArrivalBody'),
      okText: t('registry.action.cancelArrival'),
      okButtonProps: { danger: row.status === 'Performed' },
      onOk: () => act(() => cancelArrival(row.id)),
    });
  }

  function askDelete(row: RegistryItem) {
    void modal.confirm({
      title: t('registry.deleteTitle'),
      content: t('registry.deleteBody'),
      okText: t('registry.action.delete'),
      okButtonProps: { danger: true },
      onOk: () => act(() => deleteScheduled(row.id)),
    });
  }

  function askRevoke(row: RegistryItem) {
    let reason = '';
    // the reason is required: Revoke stays disabled until one is written
    const dialog = modal.confirm({
      title: t('registry.revokeTitle'),
      content: (
        <Form layout="vertical">
          <Form.Item label={t('registry.revokeReason')} htmlFor="registry-revoke-reason" required>
            <Input.TextArea
              id="registry-revoke-reason"
              autoFocus
              maxLength={256}
              placeholder={t('registry.revokeReasonRequired')}
              onChange={(e) => {
                reason = e.target.value;
                dialog.update({ okButtonProps: { disabled: !reason.trim() } });
              }}
            />
          </Form.Item>
        </Form>
      ),
      okText: t('registry.action.revoke'),
      okButtonProps: { disabled: true },
      onOk: () => act(() => revokeScheduled(row.id, reason.trim())),
    });
  }

  return {
    busy: run.isPending,
    arrive: (ids: string[]) => act(() => arriveScheduled(ids)),
    confirm: (ids: string[]) => act(() => confirmScheduled(ids)),
    askCancelArrival,
    askDelete,
    askRevoke,
  };
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMoney, TOPUP_MAX_FEN, TOPUP_MIN_FEN, type ChargeCreated } from '@yyp/contracts';
import { Button, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchGroupCredit } from '../../api/credits';
import { weixinTopUp } from '../../api/purchases';
import { useMyGroups } from '../../shared/groups/useGroups';
import { useNotify } from '../../shared/notify/useNotify';
import { YuanInput } from '../../ui/YuanInput';
import { ChargeModal } from './ChargeModal';

/** The group's admins (access level 1) top up; the group keeps credit on. */
const GROUP_ADMIN = 1;

/**
 * "充值" (issue 24): a group's admin tops up the group's balance by WeChat Native: an amount (¥1 to
 * ¥50,000), then the QR with live status; once WeChat's notification settled it the balance and
 * statement are fetched again.
 */
export function WeixinTopUp({ groupId }: { groupId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const groups = useMyGroups();
  const credit = useQuery({
    queryKey: ['credits', 'group', groupId],
    queryFn: ({ signal }) => fetchGroupCredit(groupId, signal),
  });
  const [asking, setAsking] = useState(false);
  const [charge, setCharge] = useState<ChargeCreated | null>(null);
  const [form] = Form.useForm<{ amountFen: number | null }>();
  const open = useMutation({
    mutationFn: (amountFen: number) => weixinTopUp(groupId, amountFen),
    onSuccess: (created) => {
      setAsking(false);
      form.resetFields();
      setCharge(created);
    },
    onError: notify.error,
  });
  const isAdmin = groups.data?.some((g) => g.id === groupId && g.accessLevel === GROUP_ADMIN);
  if (!isAdmin || !credit.data?.enabled) return null;
  const range = { min: formatMoney(TOPUP_MIN_FEN, 'CNY'), max: formatMoney(TOPUP_MAX_FEN, 'CNY') };
  return (
    <>
      <Button type="primary" onClick={() => setAsking(true)} data-testid="weixin-top-up">
        {t('billing.purchase.topUp')}
      </Button>
      <Modal
        open={asking}
        title={t('billing.purchase.topUpTitle')}
        okText={t('billing.purchase.next')}
        confirmLoading={open.isPending}
        onOk={() => form.submit()}
        onCancel={() => setAsking(false)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => open.mutate(v.amountFen ?? 0)}>
          <Form.Item
            name="amountFen"
            label={t('billing.purchase.topUpAmount')}
            extra={t('billing.purchase.amountRange', range)}
            rules={[
              {
                validator: (_r, fen: number | null | undefined) =>
                  fen && fen >= TOPUP_MIN_FEN && fen <= TOPUP_MAX_FEN
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('billing.purchase.amountRange', range))),
              },
            ]}
          >
            <YuanInput currency="CNY" aria-label={t('billing.purchase.topUpAmount')} />
          </Form.Item>
        </Form>
      </Modal>
      <ChargeModal
        title={t('billing.purchase.topUpTitle')}
        charge={charge}
        onClose={() => setCharge(null)}
        onPaid={() => {
          notify.success(t('billing.purchase.toppedUp'));
          void queryClient.invalidateQueries({ queryKey: ['credits', 'group', groupId] });
          void queryClient.invalidateQueries({ queryKey: ['charges', 'mine'] });
        }}
      />
    </>
  );
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  INVOICE_READER_ACTIONS,
  INVOICE_SIDES,
  INVOICES_PAGE_SIZE,
  type InvoiceListItem,
  type InvoiceSide,
} from '@yyp/contracts';
import { Alert, Button, Card, Form, Input, Modal, Segmented, Select, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMyOrganizations } from '../../api/accounts';
import { issueInvoice } from '../../api/billing';
import { queryInvoices } from '../../api/invoices';
import { queryKeys } from '../../api/queryClient';
import { useNotify } from '../../shared/notify/useNotify';
import { usePermissions } from '../../shared/permissions/permissions';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';

const when = (v: string | null) => (v ? new Date(v).toLocaleString() : '—');

/**
 * The invoices part of /settings/billing (issue 24; invoices/page-query): per organization the
 * invoices it applied for, and at an expert organization those it is to issue, each with its
 * status; an issuer issues an applied one (payments/issue-invoice) after a confirmation that says
 * issuing cannot be undone. Shown only where the caller reads one of the sides.
 */
export function InvoicesCard() {
  const { t } = useTranslation();
  const held = usePermissions();
  const organizations = useQuery({
    queryKey: queryKeys.organizations,
    queryFn: ({ signal }) => fetchMyOrganizations(signal),
  });
  const sidesOf = (bucketId: string | undefined): InvoiceSide[] =>
    // The issuer's side first: at an expert organization it is the work to do.
    [...INVOICE_SIDES].reverse().filter((side) => INVOICE_READER_ACTIONS[side].some((a) => held.can(bucketId, a)));
  const readable = (organizations.data ?? []).filter((o) => sidesOf(o.id).length > 0);
  const [bucketId, setBucketId] = useState<string | undefined>();
  const [side, setSide] = useState<InvoiceSide | undefined>();
  const sides = sidesOf(bucketId);
  useEffect(() => {
    if (!bucketId && readable[0]) setBucketId(readable[0].id);
  }, [bucketId, readable]);
  useEffect(() => {
    if (sides.length && (!side || !sides.includes(side))) setSide(sides[0]);
  }, [side, sides]);

  if (readable.length === 0) return null;
  return (
    <Card title={t('invoiceList.title')}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          aria-label={t('invoiceList.organization')}
          style={{ minWidth: 220 }}
          value={bucketId}
          onChange={setBucketId}
          options={readable.map((o) => ({ value: o.id, label: o.name }))}
        />
        {sides.length > 1 && (
          <Segmented<InvoiceSide>
            value={side}
            onChange={setSide}
            options={sides.map((s) => ({ value: s, label: t(`invoiceList.${s}`) }))}
          />
        )}
      </Space>
      {bucketId && side && sides.includes(side) && (
        <InvoicesTable key={`${bucketId} ${side}`} bucketId={bucketId} side={side} />
      )}
    </Card>
  );
}

function InvoicesTable({ bucketId, side }: { bucketId: string; side: InvoiceSide }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [issuing, setIssuing] = useState<InvoiceListItem | null>(null);
  const list = useQuery({
    queryKey: ['invoices', bucketId, side, page],
    queryFn: ({ signal }) =>
      queryInvoices(bucketId, side, { limit: INVOICES_PAGE_SIZE, skip: (page - 1) * INVOICES_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });
  if (list.error) return <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <>
      <Table<InvoiceListItem>
        size="small"
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.data ?? []}
        locale={{ emptyText: t('invoiceList.empty') }}
        pagination={{ current: page, pageSize: INVOICES_PAGE_SIZE, total: list.data?.count ?? 0, onChange: setPage }}
        columns={[
          { title: t('invoiceList.appliedAt'), dataIndex: 'appliedAt', render: when },
          side === 'issuer'
            ? {
                title: t('invoiceList.requester'),
                dataIndex: 'requestBucketName',
                render: (n: string | null) => n ?? '—',
              }
            : { title: t('invoiceList.expert'), dataIndex: 'expertBucketName' },
          { title: t('invoiceList.invoiceTitle'), dataIndex: 'title' },
          { title: t('invoiceList.taxNo'), dataIndex: 'taxNo', render: (v: string) => v || '—' },
          {
            title: t('invoiceList.amount'),
            key: 'amount',
            align: 'right',
            render: (_: unknown, i) => <Money fen={i.amountFen} currency={i.currency} />,
          },
          {
            title: t('invoiceList.orders'),
            key: 'orders',
            render: (_: unknown, i) => i.orders.map((o) => o.orderNo).join(', '),
          },
          {
            title: t('invoiceList.status'),
            dataIndex: 'status',
            render: (s: InvoiceListItem['status']) =>
              s === 'issued' ? (
                <Tag color="green">{t('invoiceList.statusIssued')}</Tag>
              ) : (
                <Tag color="gold">{t('invoiceList.statusApplied')}</Tag>
              ),
          },
          { title: t('invoiceList.invoiceNo'), dataIndex: 'invoiceNo', render: (v: string | null) => v ?? '—' },
          { title: t('invoiceList.issuedAt'), dataIndex: 'issuedAt', render: when },
          ...(side === 'issuer'
            ? [
                {
                  key: 'issue',
                  render: (_: unknown, i: InvoiceListItem) =>
                    i.status === 'applied' && (
                      <Button size="small" type="primary" onClick={() => setIssuing(i)}>
                        {t('invoiceList.issue')}
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
      {issuing && <IssueDialog invoice={issuing} onClose={() => setIssuing(null)} />}
    </>
  );
}

/** payments/issue-invoice with the invoice's number, after saying it cannot be undone. */
function IssueDialog({ invoice, onClose }: { invoice: InvoiceListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ invoiceNo: string }>();
  const issue = useMutation({
    mutationFn: (invoiceNo: string) => issueInvoice({ invoiceId: invoice.id, invoiceNo }),
    onSuccess: () => {
      notify.success(t('invoiceList.issued'));
      void queryClient.invalidateQueries({ queryKey: ['invoices'] });
      onClose();
    },
    onError: notify.error,
  });
  return (
    <Modal
      open
      title={t('invoiceList.issueTitle')}
      okText={t('invoiceList.issueConfirm')}
      okButtonProps={{ danger: true, loading: issue.isPending }}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Alert type="warning" showIcon title={t('invoiceList.issueIrreversible')} style={{ marginBottom: 16 }} />
      <p>
        {invoice.title} · <Money fen={invoice.amountFen} currency={invoice.currency} />
      </p>
      <Form form={form} layout="vertical" onFinish={(v) => issue.mutate(v.invoiceNo.trim())}>
        <Form.Item
          name="invoiceNo"
          label={t('invoiceList.invoiceNo')}
          rules={[{ required: true, whitespace: true }, { max: 64 }]}
        >
          <Input maxLength={64} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

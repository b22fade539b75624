import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PRODUCT_TYPE, type Product, type ProductType } from '@yyp/contracts';
import { Alert, Button, Card, Form, Input, Popconfirm, Select, Space, Switch, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchMyOrganizations } from '../../api/accounts';
import { fetchInvoiceConfig, saveInvoiceConfig } from '../../api/billing';
import { hasCode } from '../../api/errors';
import { deleteProduct, fetchProducts } from '../../api/orders';
import { queryKeys } from '../../api/queryClient';
import { useNotify } from '../../shared/notify/useNotify';
import { Money } from '../../ui/Money';
import { ProductDialog } from './ProductDialog';

/**
 * An expert organization's selling side (issue 24), for its admins: its products (expert and remote
 * reads with price, turnaround and breach credit; consultations, issue 25, with a price) and its
 * invoice settings (buckets/{id}/invoice-config).
 */
export function ExpertSettingsCard() {
  const { t } = useTranslation();
  const organizations = useQuery({
    queryKey: queryKeys.organizations,
    queryFn: ({ signal }) => fetchMyOrganizations(signal),
  });
  const admin = (organizations.data ?? []).filter((o) => o.accessLevel === 'admin');
  const [bucketId, setBucketId] = useState<string | undefined>();
  useEffect(() => {
    if (!bucketId && admin[0]) setBucketId(admin[0].id);
  }, [bucketId, admin]);
  if (admin.length === 0) return null;
  return (
    <Card title={t('billing.expert.title')}>
      <Select
        aria-label={t('orders.list.organization')}
        style={{ minWidth: 220, marginBottom: 16 }}
        value={bucketId}
        onChange={setBucketId}
        options={admin.map((o) => ({ value: o.id, label: o.name }))}
      />
      {bucketId && (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <ProductsTable bucketId={bucketId} />
          <InvoiceConfigForm bucketId={bucketId} />
        </Space>
      )}
    </Card>
  );
}

const TYPE_LABEL = {
  [PRODUCT_TYPE.expert]: 'billing.expert.typeExpert',
  [PRODUCT_TYPE.remote]: 'billing.expert.typeRemote',
  [PRODUCT_TYPE.consultation]: 'billing.expert.typeConsultation',
} as const satisfies Record<ProductType, string>;

function ProductsTable({ bucketId }: { bucketId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const key = ['products', bucketId, 'all'];
  const products = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await Promise.all(Object.values(PRODUCT_TYPE).map((type) => fetchProducts(bucketId, signal, type)))).flat(),
  });
  const remove = useMutation({
    mutationFn: (id: string) => deleteProduct(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key }),
    onError: notify.error,
  });
  return (
    <section>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={5}>{t('billing.expert.products')}</Typography.Title>
        <Button onClick={() => setEditing('new')}>{t('billing.expert.addProduct')}</Button>
      </Space>
      <Table<Product>
        size="small"
        rowKey="id"
        pagination={false}
        loading={products.isFetching}
        dataSource={products.data ?? []}
        columns={[
          { title: t('billing.order.product'), dataIndex: 'name' },
          {
            title: t('billing.expert.type'),
            dataIndex: 'type',
            render: (type: ProductType) => t(TYPE_LABEL[type]),
          },
          {
            title: t('billing.expert.price'),
            key: 'price',
            render: (_: unknown, p) => <Money fen={p.priceFen} currency={p.currency} />,
          },
          {
            title: t('billing.expert.turnaround'),
            dataIndex: 'turnaroundMinutes',
            render: (m: number | null) => (m === null ? '—' : t('billing.expert.minutes', { count: m })),
          },
          {
            title: t('billing.expert.breachCredit'),
            dataIndex: 'breachCreditBp',
            render: (bp: number) => `${bp / 100}%`,
          },
          { title: t('billing.expert.active'), dataIndex: 'active', render: (a: boolean) => (a ? '✓' : '—') },
          {
            key: 'actions',
            render: (_: unknown, p) => (
              <Space>
                <Button size="small" onClick={() => setEditing(p)}>
                  {t('billing.expert.edit')}
                </Button>
                <Popconfirm title={t('billing.expert.deleteConfirm')} onConfirm={() => remove.mutate(p.id)}>
                  <Button size="small" danger>
                    {t('billing.expert.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <ProductDialog
          bucketId={bucketId}
          product={editing === 'new' ? null : editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) void queryClient.invalidateQueries({ queryKey: key });
          }}
        />
      )}
    </section>
  );
}

function InvoiceConfigForm({ bucketId }: { bucketId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ supportsInvoice: boolean; issuerName: string; taxNo: string; note: string }>();
  const [conflict, setConflict] = useState(false);
  const key = ['invoice-config', bucketId];
  const config = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchInvoiceConfig(bucketId, signal),
  });
  useEffect(() => {
    if (config.data) form.setFieldsValue(config.data);
  }, [config.data, form]);
  // Saved at the version loaded: a change by someone else meanwhile answers Conflict, and the
  // current settings are loaded again for a second look.
  const save = useMutation({
    mutationFn: (v: { supportsInvoice: boolean; issuerName: string; taxNo: string; note: string }) =>
      saveInvoiceConfig(bucketId, { ...v, version: config.data?.version ?? 0 }),
    onSuccess: (saved) => {
      setConflict(false);
      queryClient.setQueryData(key, saved);
      notify.success(t('billing.expert.saved'));
    },
    onError: (error) => {
      if (!hasCode(error, 'Conflict')) return notify.error(error);
      setConflict(true);
      void config.refetch();
    },
  });
  return (
    <section>
      <Typography.Title level={5}>{t('billing.expert.invoiceConfig')}</Typography.Title>
      {conflict && <Alert type="warning" showIcon title={t('invoiceConfig.conflict')} style={{ maxWidth: 480 }} />}
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)} style={{ maxWidth: 480 }}>
        <Form.Item name="supportsInvoice" label={t('billing.expert.supportsInvoice')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="issuerName" label={t('billing.expert.issuerName')}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="taxNo" label={t('orders.invoiceForm.taxNo')}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="note" label={t('billing.expert.note')}>
          <Input.TextArea maxLength={512} rows={2} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('billing.expert.save')}
        </Button>
      </Form>
    </section>
  );
}

import { useMutation } from '@tanstack/react-query';
import { PRODUCT_TYPE, type Product, type ProductType } from '@yyp/contracts';
import { Form, Input, InputNumber, Modal, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { addProduct, updateProduct } from '../../api/orders';
import { useNotify } from '../../shared/notify/useNotify';
import { YuanInput } from '../../ui/YuanInput';

interface ProductValues {
  type: ProductType;
  name: string;
  description: string;
  modality: string;
  priceFen: number | null;
  turnaroundMinutes: number | null;
  breachCreditPercent: number | null;
  active: boolean;
}

/**
 * Add or change a product: price typed in yuan (kept in fen), turnaround minutes, breach credit in
 * percent. A consultation (type 3, issue 25) is a fee for any consultation: no modality, turnaround or
 * breach credit.
 */
export function ProductDialog({
  bucketId,
  product,
  onClose,
}: {
  bucketId: string;
  product: Product | null;
  onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [form] = Form.useForm<ProductValues>();
  const type = Form.useWatch('type', form) ?? product?.type ?? PRODUCT_TYPE.expert;
  const report = type !== PRODUCT_TYPE.consultation;
  const save = useMutation({
    mutationFn: (v: ProductValues) => {
      const read = v.type !== PRODUCT_TYPE.consultation;
      const fields = {
        type: v.type,
        name: v.name.trim(),
        description: (v.description ?? '').trim(),
        modality: read && v.modality?.trim() ? v.modality.trim() : null,
        priceFen: v.priceFen ?? 0,
        currency: product?.currency ?? ('CNY' as const),
        turnaroundMinutes: read ? (v.turnaroundMinutes ?? null) : null,
        breachCreditBp: read ? Math.round((v.breachCreditPercent ?? 0) * 100) : 0,
        active: v.active,
      };
      return product
        ? updateProduct(product.id, { ...fields, version: product.version })
        : addProduct({ bucketId, ...fields });
    },
    onSuccess: () => onClose(true),
    onError: notify.error,
  });
  return (
    <Modal
      open
      title={t(product ? 'billing.expert.edit' : 'billing.expert.addProduct')}
      okButtonProps={{ loading: save.isPending }}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          type: product?.type ?? PRODUCT_TYPE.expert,
          name: product?.name ?? '',
          description: product?.description ?? '',
          modality: product?.modality ?? '',
          priceFen: product?.priceFen ?? null,
          turnaroundMinutes: product?.turnaroundMinutes ?? null,
          breachCreditPercent: product ? product.breachCreditBp / 100 : 0,
          active: product?.active ?? true,
        }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item name="type" label={t('billing.expert.type')}>
          <Radio.Group
            options={[
              { value: PRODUCT_TYPE.expert, label: t('billing.expert.typeExpert') },
              { value: PRODUCT_TYPE.remote, label: t('billing.expert.typeRemote') },
              { value: PRODUCT_TYPE.consultation, label: t('billing.expert.typeConsultation') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('billing.order.product')}
          rules={[{ required: true, whitespace: true }, { max: 100 }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        {report && (
          <Form.Item name="modality" label={t('orders.apply.modality')} rules={[{ max: 16 }]}>
            <Input maxLength={16} placeholder={t('billing.expert.anyModality')} />
          </Form.Item>
        )}
        <Form.Item
          name="priceFen"
          label={t('billing.expert.price')}
          rules={[
            {
              validator: (_r, fen: number | null | undefined) =>
                fen === null || fen === undefined
                  ? Promise.reject(new Error(t('billing.settings.amountInvalid')))
                  : Promise.resolve(),
            },
          ]}
        >
          <YuanInput currency={product?.currency ?? 'CNY'} aria-label={t('billing.expert.price')} />
        </Form.Item>
        {report && (
          <>
            <Form.Item name="turnaroundMinutes" label={t('billing.expert.turnaroundMinutes')}>
              <InputNumber min={1} max={86_400} precision={0} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="breachCreditPercent" label={t('billing.expert.breachCredit')}>
              <InputNumber min={0} max={100} precision={2} style={{ width: '100%' }} />
            </Form.Item>
          </>
        )}
        <Form.Item name="description" label={t('billing.expert.description')} rules={[{ max: 1000 }]}>
          <Input.TextArea rows={2} maxLength={1000} />
        </Form.Item>
        <Form.Item name="active" label={t('billing.expert.active')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

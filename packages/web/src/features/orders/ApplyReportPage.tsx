import { useMutation, useQuery } from '@tanstack/react-query';
import { PRODUCT_TYPE, type Product } from '@yyp/contracts';
import { Alert, Button, Card, Descriptions, Empty, Form, Input, Radio, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { fetchExamDetail } from '../../api/exams';
import { applyForReport, fetchExpertBuckets, fetchProducts, fetchRemoteReport } from '../../api/orders';
import { useMe } from '../../shared/account/useMe';
import { useNotify } from '../../shared/notify/useNotify';
import { usePermissionsQuery } from '../../shared/permissions/permissions';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { Money } from '../../ui/Money';
import { PageHeading } from '../../ui/PageHeading';
import { PageSpinner } from '../../ui/PageSpinner';
import { applyBody, splitMinutes, type ApplyFormValues } from './orderRules';
import './orders.css';

/** A product's promised turnaround, as text. */
export function Turnaround({ minutes }: { minutes: number | null }) {
  const { t } = useTranslation();
  const split = splitMinutes(minutes);
  return (
    <span className="yyp-turnaround">
      {split
        ? t('orders.turnaround.within', { hours: split.hours, minutes: split.minutes })
        : t('orders.turnaround.none')}
    </span>
  );
}

/**
 * /exams/{examId}/apply-report?type=expert|remote (spec 000 §2; issue 24): the requester picks one of
 * the group's expert organizations and one of its products (price, turnaround), gives a reason and a
 * contact, and applies; the order's payment page follows (/exams/{examId}/apply-report/{orderId}).
 * An exam with a live order shows it instead (once per exam, spec 000 §5).
 */
export function ApplyReportPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const navigate = useNavigate();
  const { examId = '' } = useParams();
  const [search] = useSearchParams();
  const type = search.get('type') === 'remote' ? 'remote' : 'expert';
  const { data: me } = useMe();
  const [form] = Form.useForm<ApplyFormValues>();
  const [bucketId, setBucketId] = useState<string | undefined>();

  const exam = useQuery({
    queryKey: ['exams', examId, 'detail'],
    queryFn: ({ signal }) => fetchExamDetail(examId, signal),
  });
  const permissions = usePermissionsQuery();
  const groupId = permissions.data?.find((p) => p.bucketId === exam.data?.bucketId)?.groupId;
  const experts = useQuery({
    queryKey: ['groups', groupId, 'expert-buckets'],
    queryFn: ({ signal }) => fetchExpertBuckets(groupId ?? '', signal),
    enabled: Boolean(groupId),
  });
  const existing = useQuery({
    queryKey: ['orders', 'by-exam', examId],
    queryFn: ({ signal }) => fetchRemoteReport(examId, signal),
  });
  const products = useQuery({
    queryKey: ['products', bucketId, type],
    queryFn: ({ signal }) => fetchProducts(bucketId ?? '', signal, PRODUCT_TYPE[type]),
    enabled: Boolean(bucketId),
  });
  useEffect(() => {
    // the group's default expert organization first (else the first)
    if (!bucketId && experts.data?.length) {
      setBucketId((experts.data.find((e) => e.isDefault) ?? experts.data[0])?.bucketId);
    }
  }, [bucketId, experts.data]);
  useEffect(() => {
    if (me?.mobile) form.setFieldValue('applicantMobile', me.mobile);
  }, [me?.mobile, form]);

  const apply = useMutation({
    mutationFn: (values: ApplyFormValues) =>
      applyForReport(type, applyBody(examId, { ...values, targetBucketId: bucketId })),
    onSuccess: (order) =>
      void navigate(`/exams/${encodeURIComponent(examId)}/apply-report/${encodeURIComponent(order.id)}?type=${type}`),
    onError: notify.error,
  });

  if (exam.isPending || existing.isPending) return <PageSpinner />;
  if (exam.error) return <LoadFailedAlert error={exam.error} onRetry={() => void exam.refetch()} />;
  const live = existing.data?.order && existing.data.order.status !== 'cancelled' ? existing.data.order : null;
  const activeProducts = (products.data ?? []).filter((p) => p.active);

  return (
    <div className="yyp-apply">
      <PageHeading title={t(`orders.apply.title.${type}`)} description={t('orders.apply.subtitle')} />
      <Card size="small" className="yyp-apply__exam">
        <Descriptions size="small" column={{ xs: 1, md: 4 }}>
          <Descriptions.Item label={t('billing.order.patient')}>{exam.data.patientName}</Descriptions.Item>
          <Descriptions.Item label={t('orders.apply.modality')}>{exam.data.modality}</Descriptions.Item>
          <Descriptions.Item label={t('orders.apply.bodyPart')}>{exam.data.bodyPart}</Descriptions.Item>
          <Descriptions.Item label={t('orders.apply.organization')}>{exam.data.bucketName}</Descriptions.Item>
        </Descriptions>
      </Card>
      {live ? (
        <Alert
          type="info"
          showIcon
          title={t('errors.AlreadyApplied')}
          description={t('orders.apply.existing', { no: live.orderNo })}
          action={
            <Button
              onClick={() =>
                void navigate(`/exams/${encodeURIComponent(examId)}/apply-report/${encodeURIComponent(live.id)}`)
              }
            >
              {t('orders.apply.openOrder')}
            </Button>
          }
        />
      ) : experts.data && experts.data.length === 0 ? (
        <Empty description={t('orders.apply.noExperts')} />
      ) : (
        <Form form={form} layout="vertical" onFinish={(values) => apply.mutate(values)} className="yyp-apply__form">
          <Form.Item label={t('orders.apply.expert')} required>
            <Radio.Group
              value={bucketId}
              onChange={(event) => {
                setBucketId(event.target.value as string);
                form.setFieldValue('productId', undefined);
              }}
              options={(experts.data ?? []).map((e) => ({
                value: e.bucketId,
                label: (
                  <span>
                    {e.bucketName} {!e.paid && <Tag color="green">{t('orders.apply.free')}</Tag>}
                  </span>
                ),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="productId"
            label={t('orders.apply.product')}
            rules={[{ required: activeProducts.length > 0, message: t('orders.apply.pickProduct') }]}
          >
            {products.isFetching ? (
              <PageSpinner />
            ) : activeProducts.length === 0 ? (
              <Typography.Text type="secondary">{t('orders.apply.noProducts')}</Typography.Text>
            ) : (
              <Radio.Group className="yyp-apply__products">
                {activeProducts.map((p) => (
                  <ProductOption key={p.id} product={p} />
                ))}
              </Radio.Group>
            )}
          </Form.Item>
          <Form.Item name="reason" label={t('orders.apply.reason')} rules={[{ max: 1000 }]}>
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item
              name="applicantMobile"
              label={t('orders.apply.mobile')}
              rules={[
                { required: true, message: t('orders.apply.mobileRequired') },
                { pattern: /^\+?[0-9][0-9 -]{4,19}$/, message: t('orders.apply.mobileInvalid') },
              ]}
            >
              <Input inputMode="tel" maxLength={20} />
            </Form.Item>
            <Form.Item name="applicantEmail" label={t('orders.apply.email')} rules={[{ type: 'email' }]}>
              <Input maxLength={200} />
            </Form.Item>
          </Space>
          <Typography.Paragraph type="secondary">{t('orders.apply.formsHint')}</Typography.Paragraph>
          <Button type="primary" htmlType="submit" loading={apply.isPending} data-testid="apply-submit">
            {t('orders.apply.submit')}
          </Button>
        </Form>
      )}
    </div>
  );
}

function ProductOption({ product }: { product: Product }) {
  const { t } = useTranslation();
  return (
    <Radio value={product.id} className="yyp-apply__product" data-testid={`product-${product.id}`}>
      <strong>{product.name}</strong> · <Money fen={product.priceFen} currency={product.currency} /> ·{' '}
      <Turnaround minutes={product.turnaroundMinutes} />
      {product.breachCreditBp > 0 && (
        <>
          {' · '}
          <Typography.Text type="secondary">
            {t('orders.apply.breachCredit', { percent: product.breachCreditBp / 100 })}
          </Typography.Text>
        </>
      )}
      {product.description && <div className="yyp-apply__product-desc">{product.description}</div>}
    </Radio>
  );
}

import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PRINT_IMAGE_COLUMNS,
  PRINT_FOOTER_MAX,
  PRINT_HOSPITAL_NAME_MAX,
  PRINT_IMAGE_COLUMNS_MAX,
  PRINT_IMAGE_COLUMNS_MIN,
  PRINT_LOGO_TYPES,
  PRINT_STAMP_TYPES,
  PRINT_TITLE_MAX,
  type Organization,
  type PrintTemplate,
} from '@yyp/contracts';
import { Alert, Button, Card, Form, Input, Radio, Skeleton, Space, Switch, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchUploadPolicy, uploadWithPolicy } from '../../../api/policies';
import { useNotify } from '../../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { formatTime } from '../../../shared/format/dates';
import { fetchPrintTemplate, printKeys, savePrintTemplate } from './printApi';
import './printTemplate.css';

interface FormValues {
  hospitalName: string;
  title: string;
  footerHtml: string;
  imageColumns: number;
  showSignatures: boolean;
}

/** A picture of the template: the key the server holds or a new upload, with something to show. */
interface Picture {
  key: string;
  url: string | null;
}

const columns = Array.from(
  { length: PRINT_IMAGE_COLUMNS_MAX - PRINT_IMAGE_COLUMNS_MIN + 1 },
  (_, i) => PRINT_IMAGE_COLUMNS_MIN + i,
);

/**
 * The organization's print template (spec 000 §3, §6 "only the organization admin sets print
 * templates", §9 logo 128×128 PNG/JPEG, stamp PNG, image columns default 2).
 */
export function PrintTemplateCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [logo, setLogo] = useState<Picture | null>(null);
  const [stamp, setStamp] = useState<Picture | null>(null);
  const [warnings, setWarnings] = useState<string[]>([]);
  const query = useQuery({
    queryKey: printKeys.template(organization.id),
    queryFn: ({ signal }) => fetchPrintTemplate(organization.id, signal),
  });
  const current: PrintTemplate | null = query.data?.template ?? null;

  useEffect(() => {
    if (!query.data) {
      return;
    }
    const tpl = query.data.template;
    form.setFieldsValue({
      hospitalName: tpl?.hospitalName ?? organization.name,
      title: tpl?.title ?? '',
      footerHtml: tpl?.footerHtml ?? '',
      imageColumns: tpl?.imageColumns ?? DEFAULT_PRINT_IMAGE_COLUMNS,
      showSignatures: tpl?.showSignatures ?? true,
    });
    setLogo(tpl?.logo ? { key: tpl.logo.key, url: tpl.logo.url } : null);
    setStamp(tpl?.stamp ? { key: tpl.stamp.key, url: tpl.stamp.url } : null);
  }, [form, query.data, organization.name]);

  const save = useMutation({
    mutationFn: (values: FormValues) =>
      savePrintTemplate(organization.id, { ...values, logoKey: logo?.key ?? null, stampKey: stamp?.key ?? null }),
    onSuccess: (answer) => {
      queryClient.setQueryData(printKeys.template(organization.id), { ...answer, warnings: [] });
      const logoWarning = answer.warnings.find((w) => w.code === 'LogoSize');
      setWarnings(
        logoWarning && answer.template?.logo
          ? [
              t('reportPrint.template.logoSize', {
                width: answer.template.logo.width,
                height: answer.template.logo.height,
              }),
            ]
          : [],
      );
      notify.success(t('reportPrint.template.saved'));
    },
    onError: notify.error,
  });

  async function upload(file: File, set: (p: Picture) => void) {
    try {
      const policy = await fetchUploadPolicy('images', file);
      await uploadWithPolicy(policy, file);
      set({ key: policy.key, url: typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null });
    } catch (error) {
      notify.error(error);
    }
  }

  const pictureField = (
    label: string,
    hint: string,
    accept: readonly string[],
    value: Picture | null,
    set: (p: Picture | null) => void,
    testId: string,
  ) => (
    <Form.Item label={label} extra={hint}>
      <Space align="center">
        {value?.url && <img className="yyp-print-template__picture" src={value.url} alt="" data-testid={testId} />}
        <Upload
          accept={accept.join(',')}
          showUploadList={false}
          beforeUpload={(file) => {
            void upload(file, set);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />}>{t('reportPrint.template.upload')}</Button>
        </Upload>
        {value && (
          <Button icon={<DeleteOutlined />} onClick={() => set(null)}>
            {t('reportPrint.template.remove')}
          </Button>
        )}
      </Space>
    </Form.Item>
  );

  return (
    <Card variant="borderless" title={t('reportPrint.template.title')} data-testid="print-template-card">
      <Typography.Paragraph type="secondary">{t('reportPrint.template.description')}</Typography.Paragraph>
      {query.isError && <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />}
      {query.isPending && <Skeleton active />}
      {query.data && (
        <>
          {current?.isDefault && (
            <Alert
              className="yyp-print-template__none"
              type="info"
              showIcon
              title={t('reportPrint.template.isDefault')}
              data-testid="print-template-default"
            />
          )}
          {warnings.map((w) => (
            <Alert key={w} className="yyp-print-template__none" type="warning" showIcon title={w} />
          ))}
          <Form form={form} layout="vertical" onFinish={(values) => save.mutate(values)}>
            <Form.Item
              name="hospitalName"
              label={t('reportPrint.template.hospitalName')}
              rules={[{ required: true, whitespace: true, max: PRINT_HOSPITAL_NAME_MAX }]}
            >
              <Input maxLength={PRINT_HOSPITAL_NAME_MAX} />
            </Form.Item>
            <Form.Item name="title" label={t('reportPrint.template.reportTitle')} rules={[{ max: PRINT_TITLE_MAX }]}>
              <Input maxLength={PRINT_TITLE_MAX} placeholder={t('reportPrint.template.reportTitlePlaceholder')} />
            </Form.Item>
            {pictureField(
              t('reportPrint.template.logo'),
              t('reportPrint.template.logoHint'),
              PRINT_LOGO_TYPES,
              logo,
              setLogo,
              'print-template-logo',
            )}
            {pictureField(
              t('reportPrint.template.stamp'),
              t('reportPrint.template.stampHint'),
              PRINT_STAMP_TYPES,
              stamp,
              setStamp,
              'print-template-stamp',
            )}
            <Form.Item name="imageColumns" label={t('reportPrint.template.imageColumns')}>
              <Radio.Group optionType="button" options={columns.map((n) => ({ value: n, label: String(n) }))} />
            </Form.Item>
            <Form.Item name="showSignatures" label={t('reportPrint.template.showSignatures')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item
              name="footerHtml"
              label={t('reportPrint.template.footer')}
              extra={t('reportPrint.template.footerHint')}
              rules={[{ max: PRINT_FOOTER_MAX }]}
            >
              <Input.TextArea rows={3} maxLength={PRINT_FOOTER_MAX} showCount />
            </Form.Item>
            <Space wrap>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {t('reportPrint.template.save')}
              </Button>
              {current?.updatedBy && (
                <Typography.Text type="secondary">
                  {t('reportPrint.template.updatedBy', {
                    name: current.updatedBy.name,
                    time: formatTime(current.updatedAt),
                  })}
                </Typography.Text>
              )}
            </Space>
          </Form>
        </>
      )}
    </Card>
  );
}

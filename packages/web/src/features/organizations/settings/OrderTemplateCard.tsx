import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ORDER_TEMPLATE_FIELDS,
  ORDER_TEMPLATE_FOOTER_MAX,
  ORDER_TEMPLATE_HEADER_LINE_MAX,
  ORDER_TEMPLATE_HEADER_LINES_MAX,
  ORDER_TEMPLATE_TITLE_MAX,
  type Organization,
  type OrderTemplate,
  type OrderTemplateField,
} from '@yyp/contracts';
import { Alert, Checkbox, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fetchOrderTemplate, saveOrderTemplate } from '../../../api/registryPrint';
import { SettingsFormCard, useRecordForm, useSaveWithNotice } from '../../../shared/forms/SettingsFormCard';
import { formatTime } from '../../../shared/format/dates';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';

interface TemplateValues {
  title: string;
  /** one header line a line */
  headerLines: string;
  fields: OrderTemplateField[];
  footerNote: string;
}

const EMPTY: TemplateValues = { title: '', headerLines: '', fields: [], footerNote: '' };

function toValues(template: OrderTemplate | undefined): TemplateValues {
  if (!template) return EMPTY;
  return {
    title: template.title,
    headerLines: template.headerLines.join('\n'),
    fields: template.fields,
    footerNote: template.footerNote,
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * The organization's referral form template (spec 001 §7 "Buckets … order-template"; issue 22):
 * the header lines, the title, the fields the desk's referral forms show and a note at the foot.
 * Until an admin saves one, the forms print the default the server answers.
 */
export function OrderTemplateCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = ['orderTemplate', organization.id];
  const template = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchOrderTemplate(organization.id, signal) });
  const form = useRecordForm(template.data, toValues);
  const save = useSaveWithNotice(form, t('registryPrint.template.saved'));
  const update = useMutation({
    mutationFn: (values: TemplateValues) =>
      saveOrderTemplate(organization.id, {
        title: values.title,
        headerLines: lines(values.headerLines),
        fields: values.fields,
        footerNote: values.footerNote,
      }),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  if (template.isError) return <LoadFailedAlert error={template.error} onRetry={() => void template.refetch()} />;
  const limits = { max: ORDER_TEMPLATE_HEADER_LINES_MAX, length: ORDER_TEMPLATE_HEADER_LINE_MAX };

  return (
    <SettingsFormCard<TemplateValues>
      title={t('registryPrint.template.title')}
      description={t('registryPrint.template.description')}
      name="orderTemplate"
      form={form}
      layout="vertical"
      initialValues={toValues(template.data)}
      onFinish={(values) => save(() => update.mutateAsync(values))}
      saving={update.isPending}
    >
      {template.data?.isDefault && <Alert type="info" showIcon title={t('registryPrint.template.isDefault')} />}
      {template.data?.updatedBy && template.data.updatedAt && (
        <Typography.Paragraph type="secondary">
          {t('registryPrint.template.updated', {
            name: template.data.updatedBy,
            time: formatTime(template.data.updatedAt),
          })}
        </Typography.Paragraph>
      )}
      <Form.Item
        name="headerLines"
        label={t('registryPrint.template.headerLines')}
        extra={t('registryPrint.template.headerLinesHelp', limits)}
        rules={[
          {
            validator: async (_, value: string) => {
              const given = lines(value ?? '');
              if (given.length > limits.max || given.some((l) => l.length > limits.length)) {
                throw new Error(t('registryPrint.template.tooManyLines', limits));
              }
            },
          },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      <Form.Item name="title" label={t('registryPrint.template.titleField')}>
        <Input maxLength={ORDER_TEMPLATE_TITLE_MAX} placeholder={t('registryPrint.template.titlePlaceholder')} />
      </Form.Item>
      <Form.Item name="fields" label={t('registryPrint.template.fields')}>
        <Checkbox.Group
          options={ORDER_TEMPLATE_FIELDS.map((f) => ({ value: f, label: t(`registryPrint.fields.${f}`) }))}
        />
      </Form.Item>
      <Form.Item name="footerNote" label={t('registryPrint.template.footerNote')}>
        <Input.TextArea maxLength={ORDER_TEMPLATE_FOOTER_MAX} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
    </SettingsFormCard>
  );
}

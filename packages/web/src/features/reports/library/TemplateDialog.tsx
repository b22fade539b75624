import {
  LIBRARY_CATEGORY_MAX,
  LIBRARY_MODALITY_MAX,
  LIBRARY_TEXT_MAX,
  LIBRARY_TITLE_MAX,
  type ReportTemplate,
  type ReportTemplateScope,
} from '@yyp/contracts';
import { AutoComplete, Form, Input, Modal, Radio, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export interface TemplateValues {
  scope: ReportTemplateScope;
  title: string;
  category: string;
  modality: string;
  findings: string;
  conclusion: string;
}

/** A new template from the editor's text, or a template of the library being changed. */
export type TemplateDraft = { kind: 'create'; values: TemplateValues } | { kind: 'edit'; template: ReportTemplate };

interface TemplateDialogProps {
  draft: TemplateDraft | null;
  /** the caller may write the organization's templates (template_upsert) */
  canOrganize: boolean;
  /** categories already used, offered while typing */
  categories: readonly string[];
  pending: boolean;
  onSubmit: (values: TemplateValues) => void;
  onClose: () => void;
}

function initialValues(draft: TemplateDraft | null): TemplateValues | undefined {
  if (draft?.kind !== 'edit') {
    return draft?.values;
  }
  const { scope, title, category, modality, findings, conclusion } = draft.template;
  return { scope, title, category, modality, findings, conclusion };
}

/** Title, category, modality and text of a report template; whose it is only when it is new. */
export function TemplateDialog({ draft, canOrganize, categories, pending, onSubmit, onClose }: TemplateDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TemplateValues>();
  const initial = initialValues(draft);
  // A dialog opened again before the last one was destroyed (closing animation) starts afresh.
  useEffect(() => {
    const values = initialValues(draft);
    if (values) {
      form.resetFields();
      form.setFieldsValue(values);
    }
  }, [draft, form]);
  const text = { autoSize: { minRows: 3, maxRows: 8 }, maxLength: LIBRARY_TEXT_MAX };

  return (
    <Modal
      open={draft !== null}
      title={draft?.kind === 'edit' ? t('report.templates.editTitle') : t('report.templates.saveTitle')}
      confirmLoading={pending}
      onOk={() =>
        form.validateFields().then(
          (v) =>
            onSubmit({
              ...v,
              title: v.title.trim(),
              category: (v.category ?? '').trim(),
              modality: (v.modality ?? '').trim(),
            }),
          () => undefined,
        )
      }
      onCancel={onClose}
      destroyOnHidden
      width={600}
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={initial} data-testid="template-form">
        {draft?.kind === 'edit' && (
          <Form.Item label={t('report.templates.scope')}>
            <Typography.Text>
              {draft.template.scope === 'bucket'
                ? t('report.templates.scopeBucket')
                : t('report.templates.scopePersonal')}
            </Typography.Text>
          </Form.Item>
        )}
        {draft?.kind === 'create' && (
          <Form.Item
            name="scope"
            label={t('report.templates.scope')}
            extra={canOrganize ? undefined : t('report.templates.scopeDenied')}
          >
            <Radio.Group
              optionType="button"
              options={[
                { value: 'personal', label: t('report.templates.scopePersonal') },
                { value: 'bucket', label: t('report.templates.scopeBucket'), disabled: !canOrganize },
              ]}
            />
          </Form.Item>
        )}
        <Form.Item
          name="title"
          label={t('report.templates.title')}
          rules={[{ required: true, whitespace: true, message: t('report.templates.titleRequired') }]}
        >
          <Input maxLength={LIBRARY_TITLE_MAX} showCount autoFocus />
        </Form.Item>
        <div className="yyp-template-form__row">
          <Form.Item name="category" label={t('report.templates.category')}>
            <AutoComplete
              options={categories.map((c) => ({ value: c }))}
              maxLength={LIBRARY_CATEGORY_MAX}
              placeholder={t('report.templates.categoryPlaceholder')}
              showSearch={{
                filterOption: (input, option) =>
                  String(option?.value ?? '')
                    .toLowerCase()
                    .includes(input.toLowerCase()),
              }}
            />
          </Form.Item>
          <Form.Item name="modality" label={t('report.templates.modality')} extra={t('report.templates.modalityHint')}>
            <Input maxLength={LIBRARY_MODALITY_MAX} />
          </Form.Item>
        </div>
        <Form.Item name="findings" label={t('report.fields.findings')}>
          <Input.TextArea {...text} />
        </Form.Item>
        <Form.Item name="conclusion" label={t('report.fields.conclusion')}>
          <Input.TextArea {...text} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

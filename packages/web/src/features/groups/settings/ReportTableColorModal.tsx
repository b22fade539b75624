import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  REPORT_STATUSES,
  REPORT_TABLE_COLOR_FIELDS,
  type ReportTableColor,
  type ReportTableColorBody,
} from '@yyp/contracts';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, FormModalActions, HexColorItem } from '../../../ui/FormModal';
import { addReportTableColor, updateReportTableColor } from '../../../api/reportSafety';
import { useNotify } from '../../../shared/notify/useNotify';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { ReportStatusTag } from '../../../shared/labels/ReportStatusTag';
import { useStudyLabels } from '../../../shared/labels/studyLabels';
import { studyKeys } from '../../../shared/queries/studyQueries';
import { invalidBodyFields, isReportColorField, reportTableColorsKey } from './useReportTableColors';

type Values = Required<ReportTableColorBody>;

interface ReportTableColorModalProps {
  groupId: string;
  color: ReportTableColor | null;
  open: boolean;
  onClose: () => void;
}

function toValues(color: ReportTableColor | null): Values {
  return {
    name: color?.name ?? '',
    field: color && isReportColorField(color.field) ? color.field : 'status',
    value: color?.value ?? 'corrected',
    color: color?.color || '#ffffff',
    background: color?.background || '#389e0d',
    priority: color?.priority ?? 0,
  };
}

/** Add or edit a report table colour, with a sample of the status tag in it. */
export function ReportTableColorModal(props: ReportTableColorModalProps) {
  const { t } = useTranslation();
  const { color, open, onClose } = props;
  return (
    <FormModal open={open} title={color ? t('reportColors.editTitle') : t('reportColors.newTitle')} onClose={onClose}>
      <ReportTableColorForm {...props} />
    </FormModal>
  );
}

function ReportTableColorForm({ groupId, color, onClose }: ReportTableColorModalProps) {
  const { t } = useTranslation();
  const labels = useStudyLabels();
  const [form] = Form.useForm<Values>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: ReportTableColorBody) =>
      color ? updateReportTableColor(color.id, body) : addReportTableColor(groupId, body),
  });
  const field = Form.useWatch('field', form) ?? toValues(color).field;
  const value = Form.useWatch('value', form);
  const textColor = Form.useWatch('color', form);
  const background = Form.useWatch('background', form);

  function handleValuesChange(changed: Partial<Values>) {
    if (changed.field) {
      // A status colour matches a status, a flag colour true or false: the old value rarely fits.
      form.setFieldValue('value', changed.field === 'status' ? 'corrected' : 'true');
    }
  }

  async function handleFinish(values: Values) {
    try {
      const saved = await save.mutateAsync({ ...values, name: values.name.trim() });
      notify.success(t('reportColors.saved', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: reportTableColorsKey(groupId) });
      // The lists carry the colours the server matched: refetch them when next shown.
      await queryClient.invalidateQueries({ queryKey: studyKeys.all, refetchType: 'none' });
      onClose();
    } catch (error) {
      const invalid = invalidBodyFields(error).filter((f) => f in values);
      form.setFields(invalid.map((name) => ({ name: name as keyof Values, errors: [t('reportColors.invalidValue')] })));
      notify.error(error);
    }
  }

  const valueOptions: { value: string; label: string }[] =
    field === 'status'
      ? REPORT_STATUSES.map((s) => ({ value: s, label: labels.status(s) }))
      : (['true', 'false'] as const).map((v) => ({ value: v, label: t(`reportColors.flag.${v}`) }));

  return (
    <Form<Values>
      name="reportTableColor"
      form={form}
      layout="vertical"
      initialValues={toValues(color)}
      onValuesChange={handleValuesChange}
      onFinish={handleFinish}
      preserve={false}
    >
      <Form.Item
        name="name"
        label={t('reportColors.name')}
        rules={[requiredRule(t, t('reportColors.name')), maxLengthRule(t, 64)]}
      >
        <Input autoFocus />
      </Form.Item>
      <div className="yyp-form-grid">
        <Form.Item name="field" label={t('reportColors.field')}>
          <Select
            options={REPORT_TABLE_COLOR_FIELDS.map((f) => ({ value: f, label: t(`reportColors.fields.${f}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="value"
          label={field === 'status' ? t('reportColors.status') : t(`reportColors.fields.${field}`)}
          rules={[{ required: true, message: t('reportColors.valueRequired') }]}
        >
          <Select options={valueOptions} />
        </Form.Item>
        <HexColorItem name="color" label={t('reportColors.color')} />
        <HexColorItem name="background" label={t('reportColors.background')} />
        <Form.Item name="priority" label={t('reportColors.priority')}>
          <InputNumber min={0} max={10000} precision={0} />
        </Form.Item>
      </div>
      <div className="yyp-color-preview">
        <span>{t('reportColors.sample')}</span>
        <ReportStatusTag
          status={field === 'status' && isStatus(value) ? value : 'corrected'}
          reportColor={{ color: textColor ?? '', background: background ?? '' }}
        />
      </div>
      <FormModalActions onCancel={onClose} pending={save.isPending} />
    </Form>
  );
}

function isStatus(value: unknown): value is (typeof REPORT_STATUSES)[number] {
  return typeof value === 'string' && (REPORT_STATUSES as readonly string[]).includes(value);
}

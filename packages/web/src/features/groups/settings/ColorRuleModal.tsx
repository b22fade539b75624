import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization } from '@yyp/contracts';
import { Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormModal, FormModalActions, HexColorItem } from '../../../ui/FormModal';
import type { ColorRule, UpsertColorRuleRequest } from '../../../api/contractTypes';
import { saveColorRule } from '../../../api/groups';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { COLOR_MATCH_FIELDS, isColorMatchField, type ColorMatchField } from '../groupSettings';

interface ColorRuleValues {
  name: string;
  priority: number;
  foreColor: string;
  backgroundColor: string;
  matchField: ColorMatchField;
  value: string;
  index: number;
}

interface ColorRuleModalProps {
  groupId: string;
  rule: ColorRule | null;
  open: boolean;
  organizations: Organization[];
  onClose: () => void;
}

function toValues(rule: ColorRule | null): ColorRuleValues {
  return {
    name: rule?.name ?? '',
    priority: rule?.priority ?? 0,
    foreColor: rule?.foreColor ?? '#ffffff',
    backgroundColor: rule?.backgroundColor ?? '#d4380d',
    matchField: rule && isColorMatchField(rule.matchField) ? rule.matchField : 'modality',
    value: rule?.value ?? '',
    index: rule?.index ?? 0,
  };
}

/** Add or edit a color rule, with a live sample of the chosen colors. */
export function ColorRuleModal(props: ColorRuleModalProps) {
  const { t } = useTranslation();
  const { rule, open, onClose } = props;
  return (
    <FormModal open={open} title={rule ? t('colorRules.editTitle') : t('colorRules.newTitle')} onClose={onClose}>
      <ColorRuleForm {...props} />
    </FormModal>
  );
}

function ColorRuleForm({ groupId, rule, organizations, onClose }: ColorRuleModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ColorRuleValues>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: UpsertColorRuleRequest) => saveColorRule(groupId, rule?.id ?? null, body),
  });
  const matchField = Form.useWatch('matchField', form);
  const foreColor = Form.useWatch('foreColor', form);
  const backgroundColor = Form.useWatch('backgroundColor', form);
  const sampleText = Form.useWatch('name', form);

  async function handleFinish(values: ColorRuleValues) {
    try {
      const saved = await save.mutateAsync({ ...values, name: values.name.trim(), value: values.value.trim() });
      notify.success(t('colorRules.saved', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.colorRules(groupId) });
      onClose();
    } catch (error) {
      notify.error(error);
    }
  }

  return (
    <Form<ColorRuleValues>
      name="colorRule"
      form={form}
      layout="vertical"
      initialValues={toValues(rule)}
      onFinish={handleFinish}
      preserve={false}
    >
      <Form.Item
        name="name"
        label={t('colorRules.name')}
        rules={[requiredRule(t, t('colorRules.name')), maxLengthRule(t, 64)]}
      >
        <Input autoFocus />
      </Form.Item>
      <div className="yyp-form-grid">
        <Form.Item name="matchField" label={t('colorRules.matchField')}>
          <Select options={COLOR_MATCH_FIELDS.map((f) => ({ value: f, label: t(`colorMatchFields.${f}`) }))} />
        </Form.Item>
        <Form.Item name="value" label={t('colorRules.value')} rules={[maxLengthRule(t, 64)]}>
          {matchField === 'bucketId' ? (
            <Select options={organizations.map((o) => ({ value: o.id, label: o.name }))} />
          ) : (
            <Input />
          )}
        </Form.Item>
        <HexColorItem name="foreColor" label={t('colorRules.foreColor')} />
        <HexColorItem name="backgroundColor" label={t('colorRules.backgroundColor')} />
        <Form.Item name="priority" label={t('colorRules.priority')}>
          <InputNumber min={0} max={10000} precision={0} />
        </Form.Item>
        <Form.Item name="index" label={t('colorRules.index')}>
          <InputNumber min={0} max={1000} precision={0} />
        </Form.Item>
      </div>
      <div className="yyp-color-preview">
        <span>{t('colorRules.sample')}</span>
        <span className="yyp-color-sample" style={{ color: foreColor, background: backgroundColor }}>
          {sampleText || t('colorRules.sample')}
        </span>
      </div>
      <FormModalActions onCancel={onClose} pending={save.isPending} />
    </Form>
  );
}

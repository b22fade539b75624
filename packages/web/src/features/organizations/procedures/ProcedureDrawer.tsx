import { MAX_BODYPART_COUNT, type Device, type DeviceGroup, type ModalityEntry, type Procedure } from '@yyp/contracts';
import { AutoComplete, Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasCode } from '../../../api/errors';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { useNotify } from '../../../shared/notify/useNotify';
import { FormDrawer } from '../../../ui/FormDrawer';
import { SwitchField } from '../../../ui/SwitchField';
import {
  PROCEDURE_LIMITS as LIMITS,
  aeTitleRule,
  listRule,
  procedureBody,
  procedureFormValues,
  type ProcedureFormValues,
} from './procedureForm';
import { useSaveRow } from './useProcedureLists';

interface ProcedureDrawerProps {
  bucketId: string;
  /** null: a new procedure */
  procedure: Procedure | null;
  open: boolean;
  modalities: ModalityEntry[];
  devices: Device[];
  deviceGroups: DeviceGroup[];
  onClose: () => void;
  onSaved: (procedure: Procedure) => unknown;
}

/** Add or edit a procedure; the rules repeat the contract's limits, a taken code is marked on its field. */
export function ProcedureDrawer(props: ProcedureDrawerProps) {
  const { t } = useTranslation();
  const { procedure, open, onClose } = props;
  return (
    <FormDrawer
      open={open}
      size={640}
      title={procedure ? t('procedures.editTitle', { name: procedure.name }) : t('procedures.newTitle')}
      name="procedureEditor"
      onClose={onClose}
    >
      {(formId) => <ProcedureForm {...props} formId={formId} />}
    </FormDrawer>
  );
}

function ProcedureForm({
  bucketId,
  procedure,
  modalities,
  devices,
  deviceGroups,
  onSaved,
  formId,
}: ProcedureDrawerProps & { formId: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProcedureFormValues>();
  const notify = useNotify();
  const save = useSaveRow(bucketId, 'procedures');

  async function handleFinish(values: ProcedureFormValues) {
    try {
      const saved = await save.mutateAsync({ id: procedure?.id ?? null, body: procedureBody(values) });
      notify.success(t('procedures.saved', { name: saved.name }));
      await onSaved(saved);
    } catch (error) {
      if (hasCode(error, 'Conflict')) {
        form.setFields([{ name: 'code', errors: [t('procedures.duplicateCode')] }]);
        return;
      }
      notify.error(error);
    }
  }

  const modalityOptions = modalities.map((m) => ({
    value: m.modalityCode,
    label: `${m.modalityCode} · ${m.displayName}`,
  }));
  const aeOptions = devices.map((d) => ({ value: d.aeTitle, label: `${d.aeTitle} · ${d.name}` }));

  return (
    <Form<ProcedureFormValues>
      name={formId}
      form={form}
      layout="vertical"
      disabled={save.isPending}
      initialValues={procedureFormValues(procedure)}
      onFinish={handleFinish}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="name"
            label={t('procedures.fields.name')}
            rules={[requiredRule(t, t('procedures.fields.name')), maxLengthRule(t, LIMITS.name)]}
          >
            <Input autoFocus />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="code"
            label={t('procedures.fields.code')}
            extra={t('procedures.hints.code')}
            rules={[requiredRule(t, t('procedures.fields.code')), maxLengthRule(t, LIMITS.code)]}
          >
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="enName" label={t('procedures.fields.enName')} rules={[maxLengthRule(t, LIMITS.enName)]}>
        <Input />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="modality"
            label={t('procedures.fields.modality')}
            extra={t('procedures.hints.modality', { max: LIMITS.modality })}
            rules={[requiredRule(t, t('procedures.fields.modality')), maxLengthRule(t, LIMITS.modality)]}
          >
            <AutoComplete options={modalityOptions} showSearch={{ filterOption: true }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="aeTitle"
            label={t('procedures.fields.aeTitle')}
            extra={t('procedures.hints.aeTitle')}
            rules={[aeTitleRule(t)]}
          >
            <AutoComplete options={aeOptions} allowClear showSearch={{ filterOption: true }} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item name="priceYuan" label={t('procedures.fields.price')}>
            <InputNumber min={0} max={LIMITS.priceYuan} precision={2} step={1} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="bodyPartCount"
            label={t('procedures.fields.bodyPartCount')}
            rules={[
              {
                required: true,
                type: 'integer',
                min: 1,
                max: MAX_BODYPART_COUNT,
                message: t('common.required', { field: t('procedures.fields.bodyPartCount') }),
              },
            ]}
          >
            <InputNumber min={1} max={MAX_BODYPART_COUNT} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="scanTech"
            label={t('procedures.fields.scanTech')}
            rules={[maxLengthRule(t, LIMITS.scanTech)]}
          >
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="deviceGroupIds"
        label={t('procedures.fields.deviceGroups')}
        rules={[listRule(t, LIMITS.deviceGroups)]}
      >
        <Select
          mode="multiple"
          allowClear
          options={deviceGroups.map((g) => ({ value: g.id, label: g.name }))}
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('procedures.none')}
        />
      </Form.Item>
      <Form.Item
        name="steps"
        label={t('procedures.fields.steps')}
        extra={t('procedures.hints.steps', { max: LIMITS.steps })}
        rules={[listRule(t, LIMITS.steps, LIMITS.step)]}
      >
        <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[';', '；']} />
      </Form.Item>
      <div className="yyp-procedure-flags">
        <SwitchField name="isEnhanced" label={t('procedures.fields.isEnhanced')} />
        <SwitchField name="reportDuringExam" label={t('procedures.fields.reportDuringExam')} />
        <SwitchField name="showLocalVideo" label={t('procedures.fields.showLocalVideo')} />
        <SwitchField
          name="imagingOptional"
          label={t('procedures.fields.imagingOptional')}
          hint={t('procedures.hints.imagingOptional')}
        />
      </div>
    </Form>
  );
}

import type { Device, ForwardingRule, ModalityEntry } from '@yyp/contracts';
import {
  Alert,
  AutoComplete,
  Col,
  Form,
  Input,
  Row,
  Select,
  Switch,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { hasCode } from '../../../api/errors';
import type { ForwardingRuleBody } from '../../../api/procedures';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { useNotify } from '../../../shared/notify/useNotify';
import { FormModal, FormModalActions } from '../../../ui/FormModal';
import { ListPanel, type ListEditorSlot } from './ListPanel';
import { aeTitleRule } from './procedureForm';
import { RecentSends } from './RecentSends';
import { useListChange, useProcedureList, useSaveRow } from './useProcedureLists';

/** The devices a study can be sent to: those with a host and a port (the server refuses others, 400). */
export const canReceive = (d: Device): boolean => Boolean(d.host) && d.port !== null;

/** A filter of a rule: '' matches any value. */
function anyOr(t: TFunction, value: string) {
  return value === '' ? <Typography.Text type="secondary">{t('procedures.forwarding.any')}</Typography.Text> : value;
}

/** The rule's body as the contract takes it, `enabled` changed or not. */
function bodyOf(rule: ForwardingRule, enabled = rule.enabled): ForwardingRuleBody {
  const { name, destinationId, modality, sourceAe, bodyPart } = rule;
  return { name, destinationId, modality, sourceAe, bodyPart, enabled };
}

/**
 * The organization's forwarding rules (issue 28): each sends the new studies that match its filters
 * (modality, source AE title, body part; '' any) to one of its devices. Under them, the recent sends.
 */
export function ForwardingPanel({ bucketId, canManage }: { bucketId: string; canManage: boolean }) {
  const { t } = useTranslation();
  const devices = useProcedureList(bucketId, 'devices');
  const modalities = useProcedureList(bucketId, 'modalityDictionary');
  const save = useSaveRow(bucketId, 'forwardingRules');
  const change = useListChange(bucketId);
  const deviceName = new Map((devices.data ?? []).map((d) => [d.id, d.name]));

  const toggle = (rule: ForwardingRule, enabled: boolean) =>
    change(
      () => save.mutateAsync({ id: rule.id, body: bodyOf(rule, enabled) }),
      t(enabled ? 'procedures.forwarding.enabledSaved' : 'procedures.forwarding.disabledSaved', { name: rule.name }),
    );

  const columns: TableColumnsType<ForwardingRule> = [
    { key: 'name', dataIndex: 'name', title: t('procedures.forwarding.name'), width: 180 },
    {
      key: 'destination',
      title: t('procedures.forwarding.destination'),
      width: 220,
      render: (_, r) => (
        <span>
          <code>{r.destinationAe}</code> · {deviceName.get(r.destinationId) ?? t('procedures.forwarding.removedDevice')}
        </span>
      ),
    },
    {
      key: 'modality',
      title: t('procedures.forwarding.modality'),
      width: 100,
      render: (_, r) => (r.modality ? <Tag>{r.modality}</Tag> : anyOr(t, '')),
    },
    {
      key: 'sourceAe',
      title: t('procedures.forwarding.sourceAe'),
      width: 140,
      render: (_, r) => (r.sourceAe ? <code>{r.sourceAe}</code> : anyOr(t, '')),
    },
    { key: 'bodyPart', title: t('procedures.forwarding.bodyPart'), width: 120, render: (_, r) => anyOr(t, r.bodyPart) },
    {
      key: 'enabled',
      title: t('procedures.forwarding.enabled'),
      width: 90,
      render: (_, r) => (
        <Switch
          size="small"
          checked={r.enabled}
          disabled={!canManage}
          loading={save.isPending && save.variables?.id === r.id}
          aria-label={`${t('procedures.forwarding.enabled')} ${r.name}`}
          onChange={(on) => void toggle(r, on)}
        />
      ),
    },
  ];

  return (
    <div className="yyp-forwarding">
      <Alert type="info" showIcon title={t('procedures.forwarding.intro')} className="yyp-procedures__notice" />
      <ListPanel
        bucketId={bucketId}
        kind="forwardingRules"
        canManage={canManage}
        columns={columns}
        texts={{
          label: t('procedures.sections.forwarding'),
          add: t('procedures.forwarding.add'),
          empty: t('procedures.forwarding.empty'),
          nameOf: (r) => r.name,
          deleteConfirm: (name) => t('procedures.forwarding.deleteConfirm', { name }),
          deleted: (name) => t('procedures.forwarding.deleted', { name }),
        }}
        editor={(slot) => (
          <RuleModal bucketId={bucketId} slot={slot} devices={devices.data ?? []} modalities={modalities.data ?? []} />
        )}
      />
      <RecentSends bucketId={bucketId} devices={devices.data ?? []} />
    </div>
  );
}

interface RuleValues {
  name: string;
  destinationId: string | undefined;
  modality: string;
  sourceAe: string;
  bodyPart: string;
  enabled: boolean;
}

interface RuleModalProps {
  bucketId: string;
  slot: ListEditorSlot<ForwardingRule>;
  devices: Device[];
  modalities: ModalityEntry[];
}

function RuleModal(props: RuleModalProps) {
  const { t } = useTranslation();
  const { slot } = props;
  return (
    <FormModal
      open={slot.open}
      title={
        slot.row ? t('procedures.forwarding.editTitle', { name: slot.row.name }) : t('procedures.forwarding.newTitle')
      }
      onClose={slot.onClose}
    >
      <RuleForm {...props} />
    </FormModal>
  );
}

/** The codes a filter takes (contracts forwarding `codeFilter`): letters, digits, _ and spaces, '' any. */
function codeRule(t: TFunction) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (typeof value === 'string' && !/^[A-Za-z0-9_ ]*$/.test(value.trim())) {
        throw new Error(t('procedures.forwarding.invalidCode'));
      }
    },
  };
}

function RuleForm({ bucketId, slot, devices, modalities }: RuleModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleValues>();
  const notify = useNotify();
  const save = useSaveRow(bucketId, 'forwardingRules');
  const rule = slot.row;
  const destinations = devices.filter(canReceive);

  async function handleFinish(values: RuleValues) {
    const body: ForwardingRuleBody = {
      name: values.name.trim(),
      destinationId: values.destinationId ?? '',
      modality: values.modality.trim(),
      sourceAe: values.sourceAe.trim(),
      bodyPart: values.bodyPart.trim(),
      enabled: values.enabled,
    };
    try {
      const saved = await save.mutateAsync({ id: rule?.id ?? null, body });
      notify.success(t('procedures.forwarding.saved', { name: saved.name }));
      await slot.onSaved();
    } catch (error) {
      // the destination is no device of the organization with a host and a port (any more)
      if (hasCode(error, 'ValidationError')) {
        form.setFields([{ name: 'destinationId', errors: [t('procedures.forwarding.noDestination')] }]);
        return;
      }
      notify.error(error);
    }
  }

  const anyRules = (max: number) => [maxLengthRule(t, max), codeRule(t)];
  return (
    <Form<RuleValues>
      name="forwardingRuleEditor"
      form={form}
      layout="vertical"
      disabled={save.isPending}
      initialValues={{
        name: rule?.name ?? '',
        destinationId: rule?.destinationId ?? undefined,
        modality: rule?.modality ?? '',
        sourceAe: rule?.sourceAe ?? '',
        bodyPart: rule?.bodyPart ?? '',
        enabled: rule?.enabled ?? true,
      }}
      onFinish={handleFinish}
    >
      {destinations.length === 0 && (
        <Alert
          type="warning"
          showIcon
          title={t('procedures.forwarding.noDestination')}
          className="yyp-procedures__notice"
        />
      )}
      <Form.Item
        name="name"
        label={t('procedures.forwarding.name')}
        rules={[requiredRule(t, t('procedures.forwarding.name')), maxLengthRule(t, 64)]}
      >
        <Input autoFocus />
      </Form.Item>
      <Form.Item
        name="destinationId"
        label={t('procedures.forwarding.destination')}
        rules={[{ required: true, message: t('common.required', { field: t('procedures.forwarding.destination') }) }]}
      >
        <Select
          placeholder={t('procedures.forwarding.destinationPlaceholder')}
          showSearch={{ optionFilterProp: 'label' }}
          options={destinations.map((d) => ({ value: d.id, label: `${d.name} · ${d.aeTitle} (${d.host}:${d.port})` }))}
        />
      </Form.Item>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item
            name="modality"
            label={t('procedures.forwarding.modality')}
            extra={t('procedures.forwarding.anyHint')}
            rules={anyRules(16)}
          >
            <AutoComplete
              options={modalities.map((m) => ({
                value: m.modalityCode,
                label: `${m.modalityCode} · ${m.displayName}`,
              }))}
              showSearch={{ filterOption: true }}
            />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="sourceAe"
            label={t('procedures.forwarding.sourceAe')}
            extra={t('procedures.forwarding.anyHint')}
            rules={[aeTitleRule(t)]}
          >
            <Input />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item
            name="bodyPart"
            label={t('procedures.forwarding.bodyPart')}
            extra={t('procedures.forwarding.anyHint')}
            rules={anyRules(16)}
          >
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="enabled" label={t('procedures.forwarding.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <FormModalActions onCancel={slot.onClose} pending={save.isPending} />
    </Form>
  );
}

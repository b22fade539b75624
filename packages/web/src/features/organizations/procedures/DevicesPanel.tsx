import { WORKLIST_CHARSETS, type Device, type DeviceGroup, type ModalityEntry } from '@yyp/contracts';
import { AutoComplete, Col, Form, Input, InputNumber, Row, Select, Tag, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { hasCode } from '../../../api/errors';
import type { DeviceBody } from '../../../api/procedures';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { useNotify } from '../../../shared/notify/useNotify';
import { FormModal, FormModalActions } from '../../../ui/FormModal';
import { ListPanel, type ListEditorSlot } from './ListPanel';
import { aeTitleRule } from './procedureForm';
import { useProcedureList, useSaveRow } from './useProcedureLists';

type Charset = (typeof WORKLIST_CHARSETS)[number];

export function charsetLabel(t: TFunction, charset: Charset): string {
  return charset === 'GB18030' ? t('procedures.device.charsets.gb18030') : t('procedures.device.charsets.utf8');
}

/** The organization's devices (its DICOM modalities): AE title, host, port, modality, room, group, charset. */
export function DevicesPanel({ bucketId, canManage }: { bucketId: string; canManage: boolean }) {
  const { t } = useTranslation();
  const deviceGroups = useProcedureList(bucketId, 'deviceGroups');
  const modalities = useProcedureList(bucketId, 'modalityDictionary');
  const groupName = new Map((deviceGroups.data ?? []).map((g) => [g.id, g.name]));

  const columns: TableColumnsType<Device> = [
    { key: 'name', dataIndex: 'name', title: t('procedures.device.name'), width: 160 },
    { key: 'aeTitle', title: t('procedures.device.aeTitle'), width: 140, render: (_, d) => <code>{d.aeTitle}</code> },
    { key: 'host', title: t('procedures.device.host'), width: 140, render: (_, d) => d.host ?? '—' },
    { key: 'port', title: t('procedures.device.port'), width: 80, render: (_, d) => d.port ?? '—' },
    {
      key: 'modality',
      title: t('procedures.device.modality'),
      width: 100,
      render: (_, d) => (d.modality ? <Tag>{d.modality}</Tag> : '—'),
    },
    { key: 'room', title: t('procedures.device.room'), width: 120, render: (_, d) => d.room || '—' },
    {
      key: 'group',
      title: t('procedures.device.group'),
      width: 140,
      render: (_, d) => (d.deviceGroupId ? (groupName.get(d.deviceGroupId) ?? '—') : '—'),
    },
    { key: 'charset', title: t('procedures.device.charset'), width: 170, render: (_, d) => charsetLabel(t, d.charset) },
  ];

  return (
    <ListPanel
      bucketId={bucketId}
      kind="devices"
      canManage={canManage}
      columns={columns}
      texts={{
        label: t('procedures.sections.devices'),
        add: t('procedures.device.add'),
        empty: t('procedures.device.empty'),
        nameOf: (d) => d.name,
        deleteConfirm: (name) => t('procedures.device.deleteConfirm', { name }),
        deleted: (name) => t('procedures.device.deleted', { name }),
      }}
      editor={(slot) => (
        <DeviceModal
          bucketId={bucketId}
          slot={slot}
          deviceGroups={deviceGroups.data ?? []}
          modalities={modalities.data ?? []}
        />
      )}
    />
  );
}

interface DeviceValues {
  name: string;
  aeTitle: string;
  host: string;
  port: number | null;
  modality: string;
  room: string;
  deviceGroupId: string | undefined;
  charset: Charset;
}

interface DeviceModalProps {
  bucketId: string;
  slot: ListEditorSlot<Device>;
  deviceGroups: DeviceGroup[];
  modalities: ModalityEntry[];
}

function DeviceModal(props: DeviceModalProps) {
  const { t } = useTranslation();
  const { slot } = props;
  return (
    <FormModal
      open={slot.open}
      title={slot.row ? t('procedures.device.editTitle', { name: slot.row.name }) : t('procedures.device.newTitle')}
      onClose={slot.onClose}
    >
      <DeviceForm {...props} />
    </FormModal>
  );
}

function DeviceForm({ bucketId, slot, deviceGroups, modalities }: DeviceModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<DeviceValues>();
  const notify = useNotify();
  const save = useSaveRow(bucketId, 'devices');
  const device = slot.row;

  async function handleFinish(values: DeviceValues) {
    const body: DeviceBody = {
      name: values.name.trim(),
      aeTitle: values.aeTitle.trim(),
      host: values.host.trim() || null,
      port: values.port ?? null,
      modality: values.modality.trim(),
      room: values.room.trim(),
      deviceGroupId: values.deviceGroupId ?? null,
      charset: values.charset,
    };
    try {
      const saved = await save.mutateAsync({ id: device?.id ?? null, body });
      notify.success(t('procedures.device.saved', { name: saved.name }));
      await slot.onSaved();
    } catch (error) {
      if (hasCode(error, 'Conflict')) {
        form.setFields([{ name: 'aeTitle', errors: [t('procedures.device.duplicateAeTitle')] }]);
        return;
      }
      notify.error(error);
    }
  }

  return (
    <Form<DeviceValues>
      name="deviceEditor"
      form={form}
      layout="vertical"
      disabled={save.isPending}
      initialValues={{
        name: device?.name ?? '',
        aeTitle: device?.aeTitle ?? '',
        host: device?.host ?? '',
        port: device?.port ?? null,
        modality: device?.modality ?? '',
        room: device?.room ?? '',
        deviceGroupId: device?.deviceGroupId ?? undefined,
        charset: device?.charset ?? 'ISO_IR 192',
      }}
      onFinish={handleFinish}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="name"
            label={t('procedures.device.name')}
            rules={[requiredRule(t, t('procedures.device.name')), maxLengthRule(t, 64)]}
          >
            <Input autoFocus />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="aeTitle"
            label={t('procedures.device.aeTitle')}
            extra={t('procedures.device.aeTitleHint')}
            rules={[requiredRule(t, t('procedures.device.aeTitle')), aeTitleRule(t)]}
          >
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={16}>
          <Form.Item name="host" label={t('procedures.device.host')} rules={[maxLengthRule(t, 255)]}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item name="port" label={t('procedures.device.port')}>
            <InputNumber min={1} max={65_535} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="modality" label={t('procedures.device.modality')} rules={[maxLengthRule(t, 16)]}>
            <AutoComplete
              options={modalities.map((m) => ({
                value: m.modalityCode,
                label: `${m.modalityCode} · ${m.displayName}`,
              }))}
              showSearch={{ filterOption: true }}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="room" label={t('procedures.device.room')} rules={[maxLengthRule(t, 64)]}>
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="deviceGroupId" label={t('procedures.device.group')}>
            <Select
              allowClear
              placeholder={t('procedures.none')}
              options={deviceGroups.map((g) => ({ value: g.id, label: g.name }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="charset" label={t('procedures.device.charset')}>
            <Select options={WORKLIST_CHARSETS.map((c) => ({ value: c, label: charsetLabel(t, c) }))} />
          </Form.Item>
        </Col>
      </Row>
      <FormModalActions onCancel={slot.onClose} pending={save.isPending} />
    </Form>
  );
}

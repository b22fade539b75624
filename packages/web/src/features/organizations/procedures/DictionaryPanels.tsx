import type { DeviceGroup, ModalityEntry } from '@yyp/contracts';
import { Form, Input, Tag, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { hasCode } from '../../../api/errors';
import { maxLengthRule, requiredRule } from '../../../shared/forms/formRules';
import { useNotify } from '../../../shared/notify/useNotify';
import { FormModal, FormModalActions } from '../../../ui/FormModal';
import { ListPanel, type ListEditorSlot } from './ListPanel';
import { useProcedureList, useSaveRow } from './useProcedureLists';

/** The organization's device groups, with how many devices each holds. */
export function DeviceGroupsPanel({ bucketId, canManage }: { bucketId: string; canManage: boolean }) {
  const { t } = useTranslation();
  const devices = useProcedureList(bucketId, 'devices');
  const devicesOf = (group: DeviceGroup) => (devices.data ?? []).filter((d) => d.deviceGroupId === group.id);
  const columns: TableColumnsType<DeviceGroup> = [
    { key: 'name', dataIndex: 'name', title: t('procedures.group.name'), width: 200 },
    {
      key: 'devices',
      title: t('procedures.group.devices'),
      render: (_, group) => {
        const list = devicesOf(group);
        return list.length === 0 ? '—' : list.map((d) => <Tag key={d.id}>{d.name}</Tag>);
      },
    },
  ];
  return (
    <ListPanel
      bucketId={bucketId}
      kind="deviceGroups"
      canManage={canManage}
      columns={columns}
      texts={{
        label: t('procedures.sections.deviceGroups'),
        add: t('procedures.group.add'),
        empty: t('procedures.group.empty'),
        nameOf: (g) => g.name,
        deleteConfirm: (name) => t('procedures.group.deleteConfirm', { name }),
        deleted: (name) => t('procedures.group.deleted', { name }),
      }}
      editor={(slot) => <DeviceGroupModal bucketId={bucketId} slot={slot} />}
    />
  );
}

function DeviceGroupModal({ bucketId, slot }: { bucketId: string; slot: ListEditorSlot<DeviceGroup> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const notify = useNotify();
  const save = useSaveRow(bucketId, 'deviceGroups');

  async function handleFinish(values: { name: string }) {
    try {
      const saved = await save.mutateAsync({ id: slot.row?.id ?? null, body: { name: values.name.trim() } });
      notify.success(t('procedures.group.saved', { name: saved.name }));
      await slot.onSaved();
    } catch (error) {
      if (hasCode(error, 'Conflict')) {
        form.setFields([{ name: 'name', errors: [t('procedures.group.duplicate')] }]);
        return;
      }
      notify.error(error);
    }
  }

  return (
    <FormModal
      open={slot.open}
      title={slot.row ? t('procedures.group.editTitle', { name: slot.row.name }) : t('procedures.group.newTitle')}
      onClose={slot.onClose}
    >
      <Form<{ name: string }>
        name="deviceGroupEditor"
        form={form}
        layout="vertical"
        disabled={save.isPending}
        initialValues={{ name: slot.row?.name ?? '' }}
        onFinish={handleFinish}
      >
        <Form.Item
          name="name"
          label={t('procedures.group.name')}
          rules={[requiredRule(t, t('procedures.group.name')), maxLengthRule(t, 64)]}
        >
          <Input autoFocus />
        </Form.Item>
        <FormModalActions onCancel={slot.onClose} pending={save.isPending} />
      </Form>
    </FormModal>
  );
}

/** The modality dictionary: the code the worklist carries and the name the desk shows. */
export function ModalitiesPanel({ bucketId, canManage }: { bucketId: string; canManage: boolean }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<ModalityEntry> = [
    {
      key: 'modalityCode',
      title: t('procedures.modality.code'),
      width: 160,
      render: (_, m) => <Tag>{m.modalityCode}</Tag>,
    },
    { key: 'displayName', dataIndex: 'displayName', title: t('procedures.modality.displayName') },
  ];
  return (
    <ListPanel
      bucketId={bucketId}
      kind="modalityDictionary"
      canManage={canManage}
      columns={columns}
      texts={{
        label: t('procedures.sections.modalities'),
        add: t('procedures.modality.add'),
        empty: t('procedures.modality.empty'),
        nameOf: (m) => `${m.modalityCode} (${m.displayName})`,
        deleteConfirm: (name) => t('procedures.modality.deleteConfirm', { name }),
        deleted: (name) => t('procedures.modality.deleted', { name }),
      }}
      editor={(slot) => <ModalityModal bucketId={bucketId} slot={slot} />}
    />
  );
}

interface ModalityValues {
  modalityCode: string;
  displayName: string;
}

function ModalityModal({ bucketId, slot }: { bucketId: string; slot: ListEditorSlot<ModalityEntry> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ModalityValues>();
  const notify = useNotify();
  const save = useSaveRow(bucketId, 'modalityDictionary');

  async function handleFinish(values: ModalityValues) {
    try {
      const saved = await save.mutateAsync({
        id: slot.row?.id ?? null,
        body: { modalityCode: values.modalityCode.trim(), displayName: values.displayName.trim() },
      });
      notify.success(t('procedures.modality.saved', { name: saved.modalityCode }));
      await slot.onSaved();
    } catch (error) {
      if (hasCode(error, 'Conflict')) {
        form.setFields([{ name: 'modalityCode', errors: [t('procedures.modality.duplicate')] }]);
        return;
      }
      notify.error(error);
    }
  }

  return (
    <FormModal
      open={slot.open}
      title={
        slot.row
          ? t('procedures.modality.editTitle', { name: slot.row.modalityCode })
          : t('procedures.modality.newTitle')
      }
      onClose={slot.onClose}
    >
      <Form<ModalityValues>
        name="modalityEditor"
        form={form}
        layout="vertical"
        disabled={save.isPending}
        initialValues={{ modalityCode: slot.row?.modalityCode ?? '', displayName: slot.row?.displayName ?? '' }}
        onFinish={handleFinish}
      >
        <Form.Item
          name="modalityCode"
          label={t('procedures.modality.code')}
          extra={t('procedures.modality.codeHint')}
          rules={[
            requiredRule(t, t('procedures.modality.code')),
            maxLengthRule(t, 16),
            { pattern: /^[A-Z0-9_]+$/, message: t('procedures.modality.invalidCode') },
          ]}
        >
          <Input autoFocus />
        </Form.Item>
        <Form.Item
          name="displayName"
          label={t('procedures.modality.displayName')}
          rules={[requiredRule(t, t('procedures.modality.displayName')), maxLengthRule(t, 64)]}
        >
          <Input />
        </Form.Item>
        <FormModalActions onCancel={slot.onClose} pending={save.isPending} />
      </Form>
    </FormModal>
  );
}

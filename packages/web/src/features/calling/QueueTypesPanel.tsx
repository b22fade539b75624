import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { QueueType, QueueTypeInput } from '@yyp/contracts';
import { AutoComplete, Button, Form, Input, Popconfirm, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../shared/notify/useNotify';
import { FormModal, FormModalActions } from '../../ui/FormModal';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { SwitchField } from '../../ui/SwitchField';
import { useQueueTypes } from './useCallingQueue';
import { useDeleteQueueType, useSaveQueueType } from './useCallQueueSettings';

const MODALITIES = ['CT', 'MR', 'DX', 'DR', 'CR', 'US', 'MG', 'RF', 'XA', 'NM', 'PT', 'ES', 'OT'];
const EMPTY: QueueTypeInput = { displayName: '', modality: '', roomName: '', urgentFirst: true };

/** The organization's call queues (one per room or modality): list, add, edit, delete. */
export function QueueTypesPanel({ bucketId }: { bucketId: string }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const types = useQueueTypes(bucketId);
  const save = useSaveQueueType(bucketId);
  const remove = useDeleteQueueType(bucketId);
  const [editing, setEditing] = useState<{ item: QueueType | null } | null>(null);

  async function handleFinish(values: QueueTypeInput) {
    try {
      await save.mutateAsync({ id: editing?.item?.id ?? null, body: values });
      notify.success(t('callQueues.types.saved'));
      setEditing(null);
    } catch (error) {
      notify.error(error);
    }
  }

  async function handleDelete(item: QueueType) {
    try {
      await remove.mutateAsync(item.id);
      notify.success(t('callQueues.types.deleted'));
    } catch (error) {
      notify.error(error);
    }
  }

  const columns: TableColumnsType<QueueType> = [
    { title: t('callQueues.types.displayName'), dataIndex: 'displayName' },
    { title: t('callQueues.types.modality'), dataIndex: 'modality', width: 90 },
    { title: t('callQueues.types.room'), dataIndex: 'roomName' },
    {
      title: t('callQueues.types.urgentFirst'),
      dataIndex: 'urgentFirst',
      width: 100,
      render: (on: boolean) => t(on ? 'callQueues.types.yes' : 'callQueues.types.no'),
    },
    {
      key: 'actions',
      width: 180,
      render: (_, item) => (
        <Space size={4}>
          <Button size="small" icon={<EditOutlined />} onClick={() => setEditing({ item })}>
            {t('callQueues.types.edit')}
          </Button>
          <Popconfirm
            title={t('callQueues.types.deleteConfirm', { name: item.displayName })}
            okText={t('callQueues.types.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => handleDelete(item)}
          >
            <Button size="small" danger icon={<DeleteOutlined />}>
              {t('callQueues.types.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <section>
      <div className="yyp-callqueues__head">
        <Typography.Title level={5}>{t('callQueues.types.title')}</Typography.Title>
        <Button icon={<PlusOutlined />} onClick={() => setEditing({ item: null })}>
          {t('callQueues.types.add')}
        </Button>
      </div>
      {types.isError && <LoadFailedAlert error={types.error} onRetry={() => void types.refetch()} />}
      <Table<QueueType>
        size="small"
        rowKey="id"
        pagination={false}
        columns={columns}
        dataSource={types.data ?? []}
        loading={types.isPending}
        locale={{ emptyText: t('callQueues.types.empty') }}
      />
      <FormModal
        open={editing !== null}
        title={t(editing?.item ? 'callQueues.types.editTitle' : 'callQueues.types.addTitle')}
        onClose={() => setEditing(null)}
      >
        <Form<QueueTypeInput>
          name="queueType"
          layout="vertical"
          initialValues={editing?.item ?? EMPTY}
          onFinish={handleFinish}
        >
          <Form.Item name="displayName" label={t('callQueues.types.displayName')} rules={[{ required: true, max: 32 }]}>
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item name="modality" label={t('callQueues.types.modality')} rules={[{ required: true, max: 16 }]}>
            <AutoComplete options={MODALITIES.map((m) => ({ value: m }))} maxLength={16} />
          </Form.Item>
          <Form.Item name="roomName" label={t('callQueues.types.room')} rules={[{ max: 32 }]}>
            <Input maxLength={32} />
          </Form.Item>
          <SwitchField name="urgentFirst" label={t('callQueues.types.urgentFirst')} />
          <FormModalActions onCancel={() => setEditing(null)} pending={save.isPending} />
        </Form>
      </FormModal>
    </section>
  );
}

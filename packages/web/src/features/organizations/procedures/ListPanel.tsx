import { PlusOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProcedureListKind, RowOf } from '../../../api/procedures';
import { QueryTable } from '../../../ui/QueryTable';
import { useDeleteRow, useListChange, useProcedureList, useRefreshProcedureLists } from './useProcedureLists';

/** The texts of one list (each panel passes its own translations). */
export interface ListTexts<T> {
  label: string;
  add: string;
  empty: string;
  /** the name a message gives the row */
  nameOf: (row: T) => string;
  deleteConfirm: (name: string) => string;
  deleted: (name: string) => string;
}

/** The add / edit dialog a panel opens: `row` is null for a new one. */
export interface ListEditorSlot<T> {
  row: T | null;
  open: boolean;
  onClose: () => void;
  /** after a save: close and refresh */
  onSaved: () => Promise<void>;
}

interface ListPanelProps<K extends ProcedureListKind> {
  bucketId: string;
  kind: K;
  canManage: boolean;
  texts: ListTexts<RowOf<K>>;
  columns: TableColumnsType<RowOf<K>>;
  editor: (slot: ListEditorSlot<RowOf<K>>) => ReactNode;
}

/**
 * One list of procedure management (devices, device groups, the modality dictionary): its rows, and
 * for admins an Add button, Edit and Delete (delete asks first) and the add / edit dialog.
 */
export function ListPanel<K extends ProcedureListKind>({
  bucketId,
  kind,
  canManage,
  texts,
  columns,
  editor,
}: ListPanelProps<K>) {
  type Row = RowOf<K>;
  const { t } = useTranslation();
  const rows = useProcedureList(bucketId, kind);
  const refresh = useRefreshProcedureLists(bucketId);
  const remove = useDeleteRow(bucketId, kind);
  const [editing, setEditing] = useState<Row | 'new' | null>(null);

  const change = useListChange(bucketId);

  async function handleDelete(row: Row) {
    await change(() => remove.mutateAsync(row.id), texts.deleted(texts.nameOf(row)));
  }

  async function handleSaved() {
    setEditing(null);
    await refresh();
  }

  const actions: TableColumnsType<Row>[number] = {
    key: 'actions',
    title: t('common.actions'),
    width: 130,
    render: (_, row) => (
      <Space size={0}>
        <Button type="link" size="small" onClick={() => setEditing(row)}>
          {t('common.edit')}
        </Button>
        <Popconfirm
          title={texts.deleteConfirm(texts.nameOf(row))}
          okText={t('common.delete')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => handleDelete(row)}
        >
          <Button type="link" size="small" danger>
            {t('common.delete')}
          </Button>
        </Popconfirm>
      </Space>
    ),
  };

  return (
    <div className="yyp-procedures">
      {canManage && (
        <div className="yyp-procedures__toolbar yyp-procedures__toolbar--end">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {texts.add}
          </Button>
        </div>
      )}
      <QueryTable<Row>
        query={rows}
        rowKey="id"
        size="small"
        columns={canManage ? [...columns, actions] : columns}
        scroll={{ x: 'max-content' }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: texts.empty }}
        aria-label={texts.label}
      />
      {canManage &&
        editor({
          row: editing === 'new' ? null : editing,
          open: editing !== null,
          onClose: () => setEditing(null),
          onSaved: handleSaved,
        })}
    </div>
  );
}

import { PlusOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { useNotify } from '../notify/useNotify';

/** The texts of one rule table (each card passes its own translations). */
export interface RuleTableTexts {
  title: string;
  description: string;
  add: string;
  empty: string;
  deleteConfirm: (name: string) => string;
  deleted: (name: string) => string;
}

/** The state of the query that loads the rows (a react-query result fits). */
export interface RuleRowsQuery {
  isError: boolean;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

/** The editor a card opens: `rule` is null for a new one. */
export interface RuleEditorSlot<T> {
  rule: T | null;
  open: boolean;
  onClose: () => void;
}

/**
 * The Edit / Delete column of a settings table (delete asks first). `editable` hides both for a
 * row that cannot change (a built-in dictionary item).
 */
export function editDeleteColumn<T extends { name: string }>(
  t: (key: 'common.actions' | 'common.edit' | 'common.delete' | 'common.cancel') => string,
  options: {
    onEdit: (row: T) => void;
    onDelete: (row: T) => unknown;
    deleteConfirm: (name: string) => string;
    editable?: (row: T) => boolean;
    width?: number;
  },
): TableColumnsType<T>[number] {
  return {
    key: 'actions',
    title: t('common.actions'),
    ...(options.width === undefined ? {} : { width: options.width }),
    render: (_, row) =>
      options.editable && !options.editable(row) ? null : (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => options.onEdit(row)}>
            {t('common.edit')}
          </Button>
          <Popconfirm
            title={options.deleteConfirm(row.name)}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => options.onDelete(row)}
          >
            <Button type="link" size="small" danger>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        </Space>
      ),
  };
}

interface RuleTableCardProps<T extends { id: string; name: string }> {
  texts: RuleTableTexts;
  /** the columns before Edit / Delete */
  columns: TableColumnsType<T>;
  rows: readonly T[];
  query: RuleRowsQuery;
  /** the delete call of one row */
  remove: (row: T) => Promise<unknown>;
  /** what to refresh after a delete */
  afterDelete: () => Promise<unknown>;
  /** the add / edit dialog */
  editor: (slot: RuleEditorSlot<T>) => ReactNode;
  testId?: string;
}

/**
 * A group's rule table in its settings (assign rules, colour rules, report table colours): a card
 * with a description, an Add button, the rows with Edit / Delete, and the add / edit dialog.
 */
export function RuleTableCard<T extends { id: string; name: string }>({
  texts,
  columns,
  rows,
  query,
  remove,
  afterDelete,
  editor,
  testId,
}: RuleTableCardProps<T>) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const removal = useMutation({ mutationFn: remove });

  async function handleDelete(row: T) {
    try {
      await removal.mutateAsync(row);
      notify.success(texts.deleted(row.name));
      await afterDelete();
    } catch (error) {
      notify.error(error);
    }
  }

  const allColumns: TableColumnsType<T> = [
    ...columns,
    editDeleteColumn<T>(t, { onEdit: setEditing, onDelete: handleDelete, deleteConfirm: texts.deleteConfirm }),
  ];

  return (
    <Card
      variant="borderless"
      title={texts.title}
      {...(testId ? { 'data-testid': testId } : {})}
      extra={
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {texts.add}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{texts.description}</Typography.Paragraph>
      {query.isError && <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />}
      <Table<T>
        rowKey="id"
        size="small"
        columns={allColumns}
        dataSource={rows as T[]}
        loading={query.isPending}
        pagination={false}
        locale={{ emptyText: texts.empty }}
      />
      {editor({ rule: editing === 'new' ? null : editing, open: editing !== null, onClose: () => setEditing(null) })}
    </Card>
  );
}

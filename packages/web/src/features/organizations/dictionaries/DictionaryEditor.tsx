import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DictionaryItem, DictionaryKind } from '@yyp/contracts';
import { Button, Space, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteDictionaryItem } from '../../../api/organizations';
import { queryKeys } from '../../../api/queryClient';
import { useNotify } from '../../../shared/notify/useNotify';
import { editDeleteColumn } from '../../../shared/rules/RuleTableCard';
import { QueryTable } from '../../../ui/QueryTable';
import { useDictionary } from '../useOrganization';
import { dataColumns, isBuiltIn, itemName } from './dictionaryFields';
import { DictionaryItemModal } from './DictionaryItemModal';

interface DictionaryEditorProps {
  bucketId: string;
  kind: DictionaryKind;
}

/** One organization dictionary: its items in a table, with add, edit and delete. */
export function DictionaryEditor({ bucketId, kind }: DictionaryEditorProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const items = useDictionary(bucketId, kind);
  // Doctors name a department: the department list fills their select and column.
  const departments = useDictionary(bucketId, 'departments');
  const [editing, setEditing] = useState<DictionaryItem | 'new' | null>(null);
  const remove = useMutation({ mutationFn: (item: DictionaryItem) => deleteDictionaryItem(bucketId, kind, item.id) });
  const kindLabel = t(`dictionaryKinds.${kind}`);

  async function handleDelete(item: DictionaryItem) {
    try {
      await remove.mutateAsync(item);
      notify.success(t('dictionary.deleted', { name: item.name }));
      await queryClient.invalidateQueries({ queryKey: queryKeys.dictionary(bucketId, kind) });
    } catch (error) {
      notify.error(error);
    }
  }

  const columns: TableColumnsType<DictionaryItem> = [
    {
      key: 'name',
      title: t('dictionary.name'),
      render: (_, item) =>
        isBuiltIn(kind, item) ? (
          <Space size={6}>
            {itemName(t, kind, item)}
            <Tag>{t('dictionary.builtIn')}</Tag>
          </Space>
        ) : kind === 'tags' ? (
          <Tag color={typeof item.data.color === 'string' ? item.data.color : undefined}>{item.name}</Tag>
        ) : (
          item.name
        ),
    },
    ...dataColumns(kind, t, departments.data ?? []),
    { key: 'sort', dataIndex: 'sort', title: t('dictionary.sort'), width: 90, align: 'right' },
    editDeleteColumn<DictionaryItem>(t, {
      onEdit: setEditing,
      onDelete: handleDelete,
      deleteConfirm: (name) => t('dictionary.deleteConfirm', { name }),
      editable: (item) => !isBuiltIn(kind, item),
      width: 140,
    }),
  ];

  return (
    <div className="yyp-dictionary">
      <div className="yyp-dictionary__toolbar">
        <Button icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('dictionary.add')}
        </Button>
      </div>
      <QueryTable<DictionaryItem>
        query={items}
        rowKey="id"
        size="small"
        columns={columns}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        locale={{ emptyText: t('dictionary.empty') }}
        aria-label={kindLabel}
      />
      <DictionaryItemModal
        bucketId={bucketId}
        kind={kind}
        item={editing === 'new' ? null : editing}
        open={editing !== null}
        departments={departments.data ?? []}
        onClose={() => setEditing(null)}
      />
    </div>
  );
}

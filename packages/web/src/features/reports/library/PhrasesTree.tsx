import { FileTextOutlined, FolderOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LIBRARY_TITLE_MAX, type KbItem } from '@yyp/contracts';
import { Button, Empty, Form, Input, Modal, Spin, Tree, Typography, type TreeDataNode, type TreeProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createPersonalPhrase, resortKbItem } from '../../../api/reports';
import { usePermissions } from '../../../shared/permissions/permissions';
import { useNotify } from '../../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { buildKbTree, filterKbTree, folderIds, resortTarget, type KbNode } from './kbTree';
import { libraryKeys, useKbTrees } from './useLibrary';
import { LibrarySearch } from './LibrarySearch';

interface PhrasesTreeProps {
  bucketId: string;
  writable: boolean;
  onInsert: (text: string) => void;
  selection: () => string;
}

/**
 * The knowledge base: the doctor's own phrases and the group's, each a tree of folders. A click on
 * a phrase inserts it at the cursor; dragging reorders (POST kb-items/{id}/resort).
 */
export function PhrasesTree({ bucketId, writable, onInsert, selection }: PhrasesTreeProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [query, setQuery] = useState('');
  const [saving, setSaving] = useState<string | null>(null);
  const trees = useKbTrees(bucketId);
  // The group's phrases move only for holders of template_upsert (kb.service); one's own always.
  const canOrganize = usePermissions().can(bucketId, 'template_upsert');
  const resort = useMutation({
    mutationFn: ({ id, target }: { id: string; target: NonNullable<ReturnType<typeof resortTarget>> }) =>
      resortKbItem(id, target),
    onSettled: () => queryClient.invalidateQueries({ queryKey: libraryKeys.kb(bucketId) }),
    onError: notify.error,
  });
  const save = useMutation({
    mutationFn: ({ title, content }: { title: string; content: string }) => createPersonalPhrase(title, content),
    onSuccess: async () => {
      notify.success(t('report.library.phraseSaved'));
      setSaving(null);
      await queryClient.invalidateQueries({ queryKey: libraryKeys.kb(bucketId) });
    },
    onError: notify.error,
  });

  function handleSaveSelection() {
    const text = selection();
    if (!text) {
      notify.info(t('report.library.saveSelectionHint'));
      return;
    }
    setSaving(text);
  }

  if (trees.isError) {
    return <LoadFailedAlert error={trees.error} onRetry={() => void trees.refetch()} />;
  }
  return (
    <div className="yyp-library">
      <LibrarySearch value={query} onChange={setQuery} />
      <Button size="small" icon={<PlusOutlined />} onClick={handleSaveSelection} block>
        {t('report.library.saveSelection')}
      </Button>
      <Typography.Text type="secondary" className="yyp-report__hint">
        {t('report.library.insertHint')}
      </Typography.Text>
      {trees.isPending ? (
        <Spin size="small" />
      ) : (
        <>
          <PhraseSection
            title={t('report.library.personal')}
            items={trees.data.personal}
            query={query}
            writable={writable}
            movable
            onInsert={onInsert}
            onMove={(id, target) => resort.mutate({ id, target })}
          />
          <PhraseSection
            title={t('report.library.group')}
            items={trees.data.group}
            query={query}
            writable={writable}
            movable={canOrganize}
            onInsert={onInsert}
            onMove={(id, target) => resort.mutate({ id, target })}
          />
        </>
      )}
      <SavePhraseDialog
        text={saving}
        pending={save.isPending}
        onSave={(title) => saving && save.mutate({ title, content: saving })}
        onClose={() => setSaving(null)}
      />
    </div>
  );
}

interface PhraseSectionProps {
  title: string;
  items: KbItem[];
  query: string;
  writable: boolean;
  /** the phrases may be dragged into another order */
  movable: boolean;
  onInsert: (text: string) => void;
  onMove: (id: string, target: NonNullable<ReturnType<typeof resortTarget>>) => void;
}

function PhraseSection({ title, items, query, writable, movable, onInsert, onMove }: PhraseSectionProps) {
  const { t } = useTranslation();
  const tree = useMemo(() => filterKbTree(buildKbTree(items), query), [items, query]);
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const searching = query.trim() !== '';
  const byId = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);

  const handleDrop: TreeProps['onDrop'] = (info) => {
    const targetId = String(info.node.key);
    const index = Number(info.node.pos.split('-').pop());
    const relative = info.dropPosition - index;
    const position = !info.dropToGap ? 0 : relative < 0 ? -1 : 1;
    const target = resortTarget(items, String(info.dragNode.key), targetId, position);
    if (target) {
      onMove(String(info.dragNode.key), target);
    }
  };

  return (
    <section className="yyp-library__section">
      <Typography.Text type="secondary" className="yyp-library__section-title">
        {title}
      </Typography.Text>
      {tree.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.library.empty')} />
      ) : (
        <Tree
          className="yyp-library__tree"
          blockNode
          showIcon
          selectable={false}
          draggable={searching || !movable ? false : { icon: false }}
          allowDrop={({ dropNode, dropPosition }) =>
            dropPosition !== 0 || byId.get(String(dropNode.key))?.isFolder === true
          }
          expandedKeys={searching ? folderIds(tree) : (expanded ?? [])}
          onExpand={(keys) => setExpanded(keys.map(String))}
          onClick={(_, node) => {
            const item = byId.get(String(node.key));
            if (!item) {
              return;
            }
            if (item.isFolder) {
              setExpanded((keys) => {
                const open = keys ?? [];
                return open.includes(item.id) ? open.filter((k) => k !== item.id) : [...open, item.id];
              });
            } else if (writable) {
              onInsert(item.content);
            }
          }}
          onDrop={handleDrop}
          treeData={toTreeData(tree)}
        />
      )}
    </section>
  );
}

function toTreeData(nodes: readonly KbNode[]): TreeDataNode[] {
  return nodes.map(({ item, children }) => ({
    key: item.id,
    title: <span title={item.isFolder ? undefined : item.content.slice(0, 300)}>{item.title}</span>,
    icon: item.isFolder ? <FolderOutlined /> : <FileTextOutlined />,
    isLeaf: !item.isFolder,
    children: toTreeData(children),
  }));
}

interface SavePhraseDialogProps {
  text: string | null;
  pending: boolean;
  onSave: (title: string) => void;
  onClose: () => void;
}

function SavePhraseDialog({ text, pending, onSave, onClose }: SavePhraseDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ title: string }>();
  return (
    <Modal
      open={text !== null}
      title={t('report.library.saveSelection')}
      confirmLoading={pending}
      onOk={() =>
        form.validateFields().then(
          (v) => onSave(v.title.trim()),
          () => undefined,
        )
      }
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={{ title: (text ?? '').slice(0, 20) }}>
        <Form.Item
          name="title"
          label={t('report.library.phraseTitle')}
          rules={[{ required: true, whitespace: true, max: LIBRARY_TITLE_MAX }]}
        >
          <Input maxLength={LIBRARY_TITLE_MAX} autoFocus />
        </Form.Item>
        <pre className="yyp-report__pre">{text}</pre>
      </Form>
    </Modal>
  );
}

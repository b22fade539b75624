import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { QUICK_SEARCH_TITLE_MAX, STUDY_DATE_PRESETS, type QuickSearch, type StudyDatePreset } from '@yyp/contracts';
import { Button, Form, Input, List, Modal, Popconfirm, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { createQuickSearch, deleteQuickSearch, updateQuickSearch } from '../../api/exams';
import { useNotify } from '../../shared/notify/useNotify';
import { quickSearchTitle } from './QuickSearchTabs';
import { studyKeys } from '../../shared/queries/studyQueries';

/** Client-side check of a quick search title; the server enforces the same rules. */
export function titleProblem(
  title: string,
  others: QuickSearch[],
  ownId?: string,
  /** the names the user sees (a default's in the interface language), also not to be repeated */
  shownTitle?: (q: QuickSearch) => string,
): 'required' | 'tooLong' | 'duplicate' | null {
  const trimmed = title.trim();
  if (!trimmed) {
    return 'required';
  }
  if (Array.from(trimmed).length > QUICK_SEARCH_TITLE_MAX) {
    return 'tooLong';
  }
  const same = (name: string) => name.toLowerCase() === trimmed.toLowerCase();
  if (others.some((q) => q.id !== ownId && (same(q.title) || (shownTitle && same(shownTitle(q)))))) {
    return 'duplicate';
  }
  return null;
}

const PROBLEM_KEY = { required: 'quickRequired', tooLong: 'quickTooLong', duplicate: 'quickDuplicate' } as const;

interface SaveQuickSearchModalProps {
  open: boolean;
  searches: QuickSearch[];
  defaultPreset: StudyDatePreset;
  build: (preset: StudyDatePreset) => QuickSearch['criteria'];
  onClose: () => void;
  onSaved: (saved: QuickSearch) => void;
}

/** "Save as quick search": a title and the study date it keeps (a preset, or the dates on screen). */
export function SaveQuickSearchModal({
  open,
  searches,
  defaultPreset,
  build,
  onClose,
  onSaved,
}: SaveQuickSearchModalProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ title: string; preset: StudyDatePreset }>();
  useEffect(() => {
    if (open) {
      form.setFieldsValue({ title: '', preset: defaultPreset });
    }
  }, [open, defaultPreset, form]);
  const save = useMutation({
    mutationFn: (v: { title: string; preset: StudyDatePreset }) => createQuickSearch(v.title.trim(), build(v.preset)),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: studyKeys.quickSearches });
      notify.success(t('studyList.quickSaved', { title: saved.title }));
      onSaved(saved);
    },
    onError: (error) => {
      if (isApiError(error) && error.code === 'NameNotAvailable') {
        form.setFields([{ name: 'title', errors: [t('studyList.quickDuplicate')] }]);
      } else {
        notify.error(error);
      }
    },
  });
  return (
    <Modal
      open={open}
      title={t('studyList.saveQuick')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="title"
          label={t('studyList.quickTitle')}
          extra={t('studyList.quickTitleHelp')}
          rules={[
            {
              validator: (_, value: string) => {
                const problem = titleProblem(value ?? '', searches, undefined, (o) => quickSearchTitle(t, o));
                return problem ? Promise.reject(new Error(t(`studyList.${PROBLEM_KEY[problem]}`))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input autoFocus maxLength={20} />
        </Form.Item>
        <Form.Item name="preset" label={t('studyList.quickDate')} rules={[{ required: true }]}>
          <Select options={STUDY_DATE_PRESETS.map((p) => ({ value: p, label: t(`studyList.presets.${p}`) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface ManageQuickSearchesModalProps {
  open: boolean;
  searches: QuickSearch[];
  onClose: () => void;
}

/** Rename, reorder and delete quick searches; the last one stays (spec 000 §5). */
export function ManageQuickSearchesModal({ open, searches, onClose }: ManageQuickSearchesModalProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Record<string, string>>({});
  const refresh = () => queryClient.invalidateQueries({ queryKey: studyKeys.quickSearches });
  const rename = useMutation({
    mutationFn: ({ id, title }: { id: string; title: string }) => updateQuickSearch(id, { title: title.trim() }),
    onSuccess: refresh,
    onError: notify.error,
  });
  const move = useMutation({
    mutationFn: async ({ from, to }: { from: number; to: number }) => {
      const order = [...searches];
      const [item] = order.splice(from, 1);
      order.splice(to, 0, item!);
      await Promise.all(order.map((q, i) => (q.sort === i ? null : updateQuickSearch(q.id, { sort: i }))));
    },
    onSettled: refresh,
    onError: notify.error,
  });
  const remove = useMutation({
    mutationFn: (id: string) => deleteQuickSearch(id),
    onSuccess: async () => {
      await refresh();
      notify.success(t('studyList.quickDeleted'));
    },
    onError: notify.error,
  });
  return (
    <Modal open={open} title={t('studyList.manageQuick')} onCancel={onClose} footer={null} destroyOnHidden>
      <List
        dataSource={searches}
        renderItem={(q, index) => {
          const shown = quickSearchTitle(t, q);
          const draft = editing[q.id] ?? shown;
          const problem = draft !== shown ? titleProblem(draft, searches, q.id, (o) => quickSearchTitle(t, o)) : null;
          return (
            <List.Item
              actions={[
                <Button
                  key="up"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  aria-label={t('studyList.moveUp')}
                  disabled={index === 0}
                  onClick={() => move.mutate({ from: index, to: index - 1 })}
                />,
                <Button
                  key="down"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  aria-label={t('studyList.moveDown')}
                  disabled={index === searches.length - 1}
                  onClick={() => move.mutate({ from: index, to: index + 1 })}
                />,
                <Popconfirm
                  key="delete"
                  title={searches.length <= 1 ? t('studyList.quickLastOne') : t('studyList.delete')}
                  disabled={searches.length <= 1}
                  onConfirm={() => remove.mutate(q.id)}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('studyList.delete')}
                    disabled={searches.length <= 1}
                  />
                </Popconfirm>,
              ]}
            >
              <Space direction="vertical" size={0} className="yyp-quick-row">
                <Input
                  value={draft}
                  aria-label={t('studyList.rename')}
                  status={problem ? 'error' : undefined}
                  onChange={(e) => setEditing({ ...editing, [q.id]: e.target.value })}
                  onPressEnter={() => !problem && draft !== shown && rename.mutate({ id: q.id, title: draft })}
                  onBlur={() => !problem && draft !== shown && rename.mutate({ id: q.id, title: draft })}
                />
                <Typography.Text type={problem ? 'danger' : 'secondary'}>
                  {problem
                    ? t(`studyList.${PROBLEM_KEY[problem]}`)
                    : t(`studyList.presets.${q.criteria.studyDate.preset}`)}
                </Typography.Text>
              </Space>
            </List.Item>
          );
        }}
      />
    </Modal>
  );
}

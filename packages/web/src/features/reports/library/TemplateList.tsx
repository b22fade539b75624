import { DeleteOutlined, EditOutlined, SaveOutlined } from '@ant-design/icons';
import type { CreateReportTemplate, ReportTemplate } from '@yyp/contracts';
import { Button, Empty, Popconfirm, Spin, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../../ui/LoadFailedAlert';
import { usePermissions } from '../../../shared/permissions/permissions';
import { TemplateDialog, type TemplateDraft, type TemplateValues } from './TemplateDialog';
import { useReportTemplates, useTemplateChanges } from './useLibrary';
import { LibrarySearch } from './LibrarySearch';

interface TemplateListProps {
  bucketId: string;
  modality: string;
  writable: boolean;
  onApply: (template: ReportTemplate) => void;
  /** the findings and conclusion on screen, to save as a template */
  currentText: () => { findings: string; conclusion: string };
}

/** The templates of a scope whose title or category holds the search, this exam's modality first. */
export function templatesFor(
  templates: readonly ReportTemplate[],
  scope: ReportTemplate['scope'],
  query: string,
  modality: string,
): ReportTemplate[] {
  const q = query.trim().toLowerCase();
  const rank = (tpl: ReportTemplate) => (tpl.modality && modality.split(/[\\/]/).includes(tpl.modality) ? 0 : 1);
  return templates
    .filter((tpl) => tpl.scope === scope)
    .filter((tpl) => !q || `${tpl.title} ${tpl.category} ${tpl.bodyPart}`.toLowerCase().includes(q))
    .sort((a, b) => rank(a) - rank(b) || a.category.localeCompare(b.category) || a.title.localeCompare(b.title));
}

/** The body of POST report-templates for what the dialog holds. */
export function newTemplateBody(values: TemplateValues, bucketId: string): CreateReportTemplate {
  const { scope, ...rest } = values;
  const fields = { ...rest, bodyPart: '' };
  return scope === 'bucket' ? { scope, bucketId, ...fields } : { scope, ...fields };
}

/**
 * Organization and personal report templates, searchable; a click applies one. The text on screen
 * can be saved as a new template; templates the caller may change (editable) are edited or
 * deleted in place.
 */
export function TemplateList({ bucketId, modality, writable, onApply, currentText }: TemplateListProps) {
  const { t } = useTranslation();
  const notify = useNotify();
  const [query, setQuery] = useState('');
  const [draft, setDraft] = useState<TemplateDraft | null>(null);
  const templates = useReportTemplates(bucketId);
  const changes = useTemplateChanges();
  const canOrganize = usePermissions().can(bucketId, 'template_upsert');
  if (templates.isError) {
    return <LoadFailedAlert error={templates.error} onRetry={() => void templates.refetch()} />;
  }
  const all = templates.data ?? [];
  const categories = [...new Set(all.map((tpl) => tpl.category).filter(Boolean))].sort();

  function handleSaveAs() {
    const { findings, conclusion } = currentText();
    if (!findings.trim() && !conclusion.trim()) {
      notify.info(t('report.templates.noText'));
      return;
    }
    const values: TemplateValues = {
      scope: 'personal',
      title: '',
      category: '',
      modality: modality.split(/[\\/]/)[0] ?? '',
      findings,
      conclusion,
    };
    setDraft({ kind: 'create', values });
  }

  function handleSubmit(values: TemplateValues) {
    const done = (key: 'saved' | 'updated') => () => {
      notify.success(t(`report.templates.${key}`, { title: values.title }));
      setDraft(null);
    };
    if (draft?.kind === 'edit') {
      const { title, category, modality: forModality, findings, conclusion } = values;
      changes.update.mutate(
        { id: draft.template.id, change: { title, category, modality: forModality, findings, conclusion } },
        { onSuccess: done('updated'), onError: notify.error },
      );
    } else {
      changes.create.mutate(newTemplateBody(values, bucketId), { onSuccess: done('saved'), onError: notify.error });
    }
  }

  function handleDelete(tpl: ReportTemplate) {
    return changes.remove
      .mutateAsync(tpl.id)
      .then(() => notify.success(t('report.templates.deleted', { title: tpl.title })), notify.error);
  }

  const section = (scope: ReportTemplate['scope'], title: string) => {
    const items = templatesFor(all, scope, query, modality);
    return (
      <section className="yyp-library__section">
        <Typography.Text type="secondary" className="yyp-library__section-title">
          {title}
        </Typography.Text>
        {items.length === 0 ? (
          <Typography.Text type="secondary" className="yyp-library__none">
            {t('report.library.empty')}
          </Typography.Text>
        ) : (
          <ul className="yyp-library__list">
            {items.map((tpl) => (
              <li key={tpl.id} className="yyp-library__row">
                <button
                  type="button"
                  className="yyp-library__item"
                  disabled={!writable}
                  title={tpl.findings.slice(0, 200)}
                  onClick={() => onApply(tpl)}
                  data-testid="library-template"
                >
                  <span className="yyp-library__item-title">{tpl.title}</span>
                  {tpl.modality && <Tag className="yyp-library__tag">{tpl.modality}</Tag>}
                  {tpl.category && <span className="yyp-library__item-meta">{tpl.category}</span>}
                </button>
                {tpl.editable && (
                  <span className="yyp-library__row-tools">
                    <Tooltip title={t('report.templates.edit', { title: tpl.title })}>
                      <Button
                        size="small"
                        type="text"
                        icon={<EditOutlined />}
                        aria-label={t('report.templates.edit', { title: tpl.title })}
                        onClick={() => setDraft({ kind: 'edit', template: tpl })}
                      />
                    </Tooltip>
                    <Popconfirm
                      title={t('report.templates.deleteConfirm', { title: tpl.title })}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => handleDelete(tpl)}
                    >
                      <Button
                        size="small"
                        type="text"
                        icon={<DeleteOutlined />}
                        aria-label={t('report.templates.delete', { title: tpl.title })}
                      />
                    </Popconfirm>
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  };
  return (
    <div className="yyp-library">
      <LibrarySearch value={query} onChange={setQuery} />
      <Tooltip title={t('report.templates.saveAsTip')}>
        <Button size="small" icon={<SaveOutlined />} onClick={handleSaveAs} block>
          {t('report.templates.saveAs')}
        </Button>
      </Tooltip>
      {templates.isPending ? (
        <Spin size="small" />
      ) : all.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('report.library.empty')} />
      ) : (
        <>
          {section('bucket', t('report.library.organization'))}
          {section('personal', t('report.library.personal'))}
        </>
      )}
      <TemplateDialog
        draft={draft}
        canOrganize={canOrganize}
        categories={categories}
        pending={changes.create.isPending || changes.update.isPending}
        onSubmit={handleSubmit}
        onClose={() => setDraft(null)}
      />
    </div>
  );
}

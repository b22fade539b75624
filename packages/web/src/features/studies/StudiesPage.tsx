import { DeleteOutlined, DownloadOutlined, RollbackOutlined, UploadOutlined } from '@ant-design/icons';
import type { ExamItem, ExamSort, StudyDatePreset } from '@yyp/contracts';
import { EXAM_PAGE_SIZE, EXPORT_EXAMS_LIMIT } from '@yyp/contracts';
import { Alert, Button, Card, Empty, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { usePermissions, type HeldActions } from '../../shared/permissions/permissions';
import { useNotify } from '../../shared/notify/useNotify';
import { isTokenError } from '../../api/errors';
import { PageHeading } from '../../ui/PageHeading';
import { useDebouncedValue } from '../../ui/useDebouncedValue';
import { useMe, useUpdateMe } from '../../shared/account/useMe';
import { useUploadableBuckets } from '../../shared/upload/useUploadableBuckets';
import { drillOfParams, withoutDrill } from '../../shared/links/studyLinks';
import { AdvancedSearchDrawer } from './AdvancedSearchDrawer';
import { ColumnChooser } from './ColumnChooser';
import { ExamDetailDrawer } from './ExamDetailDrawer';
import { ExamRowActions } from './ExamRowActions';
import { ExportMediaButton } from './ExportMediaButton';
import { PrintReportsBar } from './PrintReportsBar';
import { ALL_COLUMNS, DEFAULT_COLUMNS, ExamTable, type ColumnKey } from './ExamTable';
import { ManageQuickSearchesModal, SaveQuickSearchModal } from './QuickSearchDialogs';
import { QuickSearchTabs } from './QuickSearchTabs';
import { ReportSourceSelect } from './ReportSourceSelect';
import { useReportSource } from './reportSource';
import { StudiesDrillTag } from './StudiesDrillTag';
import { StudySearchBar } from './StudySearchBar';
import { advancedCount, criteriaFromSearch, EMPTY_SEARCH, searchFilters, type StudySearch } from './studySearch';
import { useExportExams } from './useExportExams';
import { useNewExamToasts } from './useNewExamToasts';
import { useExamPage, useInvalidateExams, useQuickSearches } from './useStudies';
import './studies.css';

/**
 * /studies, the report workstation: the default landing after login (spec 000 §2 "Study list").
 * A link may bring filters (a statistic's drill-down, issue 26):
 * `/studies?filters=<URI-encoded JSON ExamFilter[]>&from=<origin's name>` (shared/links/studyLinks.ts). They
 * are applied on load and on every reload of the URL, on top of the search bar's (the stored quick
 * tab is not restored over them), shown as a tag ("来自统计：李医生 · 2026-10-01 至 2026-10-31 ·
 * 已审核") and cleared by its control, which drops them from the URL. Filters the list would refuse
 * are ignored.
 */
export function StudiesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const deleted = params.get('view') === 'deleted';
  const paramsKey = params.toString();
  const drill = useMemo(() => (deleted ? null : drillOfParams(new URLSearchParams(paramsKey))), [paramsKey, deleted]);
  const me = useMe();
  const updateMe = useUpdateMe();
  const prefs = me.data?.preferences;
  const uploadable = useUploadableBuckets();
  const held = usePermissions();
  const notify = useNotify();
  const quick = useQuickSearches();
  const invalidate = useInvalidateExams();
  const reportSource = useReportSource();

  const [search, setSearch] = useState<StudySearch>(EMPTY_SEARCH);
  const [keyword, setKeyword] = useState('');
  const debouncedKeyword = useDebouncedValue(keyword, 400);
  const [sorts, setSorts] = useState<ExamSort[]>([]);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(EXAM_PAGE_SIZE);
  const [detailId, setDetailId] = useState<string | null>(null);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [saveOpen, setSaveOpen] = useState(false);
  const [manageOpen, setManageOpen] = useState(false);
  const [restored, setRestored] = useState(false);
  const [selected, setSelected] = useState<ExamItem[]>([]);

  // The stored tab and page size come back once, when both the preferences and the searches are here.
  useEffect(() => {
    if (restored || !me.data || !quick.data) {
      return;
    }
    const saved = prefs?.studyFilters;
    // A drill's filters stand alone: the stored tab would narrow them to its own dates.
    if (!drill && saved?.quickSearchId && quick.data.some((q) => q.id === saved.quickSearchId)) {
      setSearch((s) => ({ ...s, quickId: saved.quickSearchId ?? null }));
    }
    if (saved?.pageSize) {
      setPageSize(saved.pageSize);
    }
    setRestored(true);
  }, [restored, me.data, quick.data, prefs, drill]);

  useEffect(() => {
    setSearch((s) => (s.keyword === debouncedKeyword ? s : { ...s, keyword: debouncedKeyword }));
    setPage(1);
  }, [debouncedKeyword]);

  const columns = useMemo<ColumnKey[]>(() => {
    const stored = (prefs?.studyColumns ?? []).filter((c): c is ColumnKey =>
      (ALL_COLUMNS as readonly string[]).includes(c),
    );
    return stored.length ? stored : DEFAULT_COLUMNS;
  }, [prefs?.studyColumns]);

  const activeQuick = quick.data?.find((q) => q.id === search.quickId);
  const sourceFilters = reportSource.filters;
  const sourceKey = JSON.stringify(sourceFilters);
  const filters = useMemo(
    () => [...searchFilters(search, activeQuick, new Date()), ...sourceFilters, ...(drill?.filters ?? [])],
    // sourceFilters is rebuilt each render; its text says when it changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [search, activeQuick, sourceKey, drill],
  );
  const list = useExamPage(
    deleted ? 'deleted' : 'list',
    deleted ? ownFiltersOnly(search) : filters,
    sorts,
    page,
    pageSize,
    deleted || reportSource.known,
  );
  const exporter = useExportExams();
  const toastHolder = useNewExamToasts(
    (exam) => setDetailId(exam.id),
    () => void invalidate(),
  );

  const storePrefs = (studyFilters: { quickSearchId?: string | null; pageSize?: number }) =>
    updateMe.mutate(
      { preferences: { studyFilters: { ...prefs?.studyFilters, ...studyFilters } } },
      { onError: notify.error },
    );
  const handleQuick = (id: string | null) => {
    // A tab chosen before the stored one came back wins over it.
    setRestored(true);
    setSearch((s) => ({ ...s, quickId: id, studyDate: null }));
    setPage(1);
    storePrefs({ quickSearchId: id });
  };
  const handleSearch = () => {
    setSearch((s) => ({ ...s, keyword }));
    setPage(1);
    void list.refetch();
  };
  const handleReset = () => {
    setKeyword('');
    setSearch({ ...EMPTY_SEARCH, quickId: search.quickId });
    setSorts([]);
    setPage(1);
  };
  const handlePage = (next: number, size: number) => {
    setPage(size === pageSize ? next : 1);
    if (size !== pageSize) {
      setPageSize(size);
      storePrefs({ pageSize: size });
    }
  };
  const handleView = (view: 'list' | 'deleted') => {
    setPage(1);
    setParams(view === 'deleted' ? { view } : {});
  };

  const total = list.data?.count ?? 0;
  // Behind the login-expired dialog the list failed for want of a session, not for want of exams:
  // say so instead of "no exams" (issue 20 item 7).
  const waitingForLogin = list.isError && isTokenError(list.error);
  const emptyState = waitingForLogin ? (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={<Typography.Text type="secondary">{t('studyList.waitingForLogin')}</Typography.Text>}
    />
  ) : (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <div className="yyp-empty">
          <Typography.Text strong>
            {deleted
              ? t('studyList.emptyDeleted')
              : filters.length
                ? t('studyList.emptyFiltered')
                : t('studies.emptyTitle')}
          </Typography.Text>
          {!deleted && !filters.length && (
            <Typography.Text type="secondary">{t('studies.emptyDescription')}</Typography.Text>
          )}
        </div>
      }
    />
  );

  return (
    <div className="yyp-page yyp-studies">
      {toastHolder}
      <PageHeading
        title={deleted ? t('studyList.deletedView') : t('studies.title')}
        description={deleted ? t('studyList.deletedHint') : t('studies.subtitle')}
        extra={
          <Space wrap>
            {deleted ? (
              <Button icon={<RollbackOutlined />} onClick={() => handleView('list')}>
                {t('studyList.backToList')}
              </Button>
            ) : (
              <>
                {canExport(held) && (
                  <Button
                    icon={<DownloadOutlined />}
                    loading={exporter.isPending}
                    onClick={() => exporter.mutate({ filters, sorts, columns })}
                  >
                    {t('studyList.export')}
                  </Button>
                )}
                {held.anywhere('exam_delete') && (
                  <Button icon={<DeleteOutlined />} onClick={() => handleView('deleted')}>
                    {t('studyList.deletedView')}
                  </Button>
                )}
                {(uploadable.data?.length ?? 0) > 0 && (
                  <Button type="primary" icon={<UploadOutlined />} onClick={() => void navigate('/upload')}>
                    {t('upload.entry')}
                  </Button>
                )}
              </>
            )}
          </Space>
        }
      />
      <Card variant="borderless" className="yyp-studies__card">
        {!deleted && (
          <QuickSearchTabs
            searches={quick.data ?? []}
            activeId={search.quickId}
            onSelect={handleQuick}
            onSave={() => setSaveOpen(true)}
            onManage={() => setManageOpen(true)}
          />
        )}
        <StudySearchBar
          keyword={keyword}
          modalities={search.modalities}
          studyDate={search.studyDate}
          advancedCount={advancedCount(search.advanced)}
          onKeyword={setKeyword}
          onModalities={(modalities) => {
            setSearch((s) => ({ ...s, modalities }));
            setPage(1);
          }}
          onStudyDate={(studyDate) => {
            setSearch((s) => ({ ...s, studyDate }));
            setPage(1);
          }}
          onSearch={handleSearch}
          onReset={handleReset}
          onAdvanced={() => setAdvancedOpen(true)}
          onRefresh={() => void invalidate()}
        />
        {drill && (
          <StudiesDrillTag
            drill={drill}
            onClear={() => {
              setParams(withoutDrill(params));
              setPage(1);
            }}
          />
        )}
        <div className="yyp-studies__toolbar">
          <Space size="middle">
            <Typography.Text type="secondary">{t('studyList.total', { count: total })}</Typography.Text>
            {!deleted && reportSource.offered && (
              <ReportSourceSelect
                value={reportSource.value}
                forced={reportSource.forced}
                onChange={(value) => {
                  reportSource.choose(value);
                  setPage(1);
                }}
              />
            )}
          </Space>
          {!deleted && <PrintReportsBar selected={selected} onClear={() => setSelected([])} />}
          {!deleted && <ExportMediaButton selected={selected} />}
          {!deleted && (
            <ColumnChooser
              value={columns}
              onChange={(studyColumns) => updateMe.mutate({ preferences: { studyColumns } }, { onError: notify.error })}
            />
          )}
        </div>
        {!deleted && canExport(held) && total > EXPORT_EXAMS_LIMIT && (
          <Alert type="info" showIcon className="yyp-studies__note" title={t('errors.ExportLimitExceeded')} />
        )}
        <ExamTable
          items={list.data?.exams ?? []}
          total={total}
          loading={list.isFetching}
          columns={deleted ? DELETED_COLUMNS : columns}
          sorts={sorts}
          page={page}
          pageSize={pageSize}
          deleted={deleted}
          empty={emptyState}
          onPage={handlePage}
          onSort={(next) => {
            setSorts(next);
            setPage(1);
          }}
          onOpen={(exam) => setDetailId(exam.id)}
          rowSelection={
            deleted
              ? undefined
              : {
                  selectedRowKeys: selected.map((e) => e.id),
                  preserveSelectedRowKeys: true,
                  onChange: (_keys, rows) => setSelected(rows.filter(Boolean)),
                }
          }
          actions={(exam: ExamItem) => (
            <ExamRowActions exam={exam} deleted={deleted} onOpen={() => setDetailId(exam.id)} />
          )}
        />
      </Card>
      <AdvancedSearchDrawer
        open={advancedOpen}
        value={search.advanced}
        onClose={() => setAdvancedOpen(false)}
        onApply={(advanced) => {
          setSearch((s) => ({ ...s, advanced }));
          setPage(1);
          setAdvancedOpen(false);
        }}
      />
      <SaveQuickSearchModal
        open={saveOpen}
        searches={quick.data ?? []}
        defaultPreset={
          (search.studyDate ? 'custom' : (activeQuick?.criteria.studyDate.preset ?? 'today')) as StudyDatePreset
        }
        build={(preset) => criteriaFromSearch({ ...search, keyword }, activeQuick, preset, new Date())}
        onClose={() => setSaveOpen(false)}
        onSaved={(saved) => {
          setSaveOpen(false);
          setKeyword('');
          setSearch({ ...EMPTY_SEARCH, quickId: saved.id });
          storePrefs({ quickSearchId: saved.id });
        }}
      />
      <ManageQuickSearchesModal open={manageOpen} searches={quick.data ?? []} onClose={() => setManageOpen(false)} />
      <ExamDetailDrawer examId={detailId} onClose={() => setDetailId(null)} onChanged={() => void invalidate()} />
    </div>
  );
}

/**
 * The export takes the exams of organizations where the caller holds both exam_get and export_exams
 * (exports.service): without one such organization the button would only earn a 403.
 */
function canExport(held: HeldActions): boolean {
  return held.bucketsWith('export_exams').some((bucketId) => held.can(bucketId, 'exam_get'));
}

/** The deleted view shows who and what, then when it was deleted and until when it can come back. */
const DELETED_COLUMNS: ColumnKey[] = ['patient', 'genderAge', 'modality', 'bodyPart', 'examTime', 'organization'];

/** The deleted view filters by the search bar and drawer only (quick searches are for the live list). */
function ownFiltersOnly(search: StudySearch) {
  return searchFilters({ ...search, quickId: null }, undefined, new Date());
}

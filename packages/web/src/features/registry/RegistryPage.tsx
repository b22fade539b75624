import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import {
  MAX_CONFIRMATIONS,
  REGISTRY_PAGE_SIZE,
  REGISTRY_QUICK_RANGES,
  type ExamStatus,
  type Registration,
  type RegistryItem,
} from '@yyp/contracts';
import { Alert, Button, DatePicker, Input, Segmented, Select, Space, Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRegistrationByPassCode } from '../../api/registry';
import { useMe, useUpdateMe } from '../../shared/account/useMe';
import { useNotify } from '../../shared/notify/useNotify';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';
import { PageHeading } from '../../ui/PageHeading';
import { PageSpinner } from '../../ui/PageSpinner';
import { RegistrationForm } from './RegistrationForm';
import { RegistryPrintButtons, RegistryRowPrint } from './print/RegistryPrintButtons';
import { RegistryTable, type RowAction } from './RegistryTable';
import {
  confirmAllowed,
  filtersToSave,
  initialFilters,
  nextDays,
  restoredFilters,
  STATUSES,
  toQuery,
  type RegistryFilters,
} from './registryView';
import { useRegistryActions } from './useRegistryActions';
import { useRegistryBuckets, useRegistryPage } from './useRegistry';
import { useRegistryExport } from './useRegistryExport';
import './registry.css';

/** /registry (spec 000 §2; issue 22): the front desk's scheduled exams and the registration form (F2). */
export function RegistryPage() {
  const { t } = useTranslation();
  const notify = useNotify();
  const buckets = useRegistryBuckets();
  const me = useMe();
  const updateMe = useUpdateMe();
  const [chosen, setChosen] = useState<string | null>(null);
  const bucket = buckets.data?.find((b) => b.id === chosen) ?? buckets.data?.[0];
  const [filters, setFilters] = useState<RegistryFilters>(initialFilters);
  const [restored, setRestored] = useState(false);
  const [search, setSearch] = useState('');
  const query = useMemo(() => toQuery(filters), [filters]);
  // The list waits for the filters the desk chose last time (preferences.registryFilters).
  const page = useRegistryPage(restored ? bucket?.id : undefined, query);
  const [selected, setSelected] = useState<string[]>([]);
  const actions = useRegistryActions(bucket?.id);
  const [form, setForm] = useState<{ open: boolean; editing?: Registration }>({ open: false });
  const exporter = useRegistryExport(bucket?.id ?? '');

  useEffect(() => {
    if (restored || me.isPending) return;
    const saved = me.data?.preferences?.registryFilters;
    setChosen(saved?.bucketId ?? null);
    setFilters(restoredFilters(saved));
    setRestored(true);
  }, [restored, me.isPending, me.data]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key === 'F2' || (event.altKey && event.key.toLowerCase() === 'n')) {
        event.preventDefault();
        setForm({ open: true });
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (buckets.isPending) return <PageSpinner />;
  if (buckets.isError) return <LoadFailedAlert error={buckets.error} onRetry={() => void buckets.refetch()} />;
  if (!bucket) return <Alert type="info" showIcon title={t('registry.noOrganization')} />;

  /** Applies a change of the filters; one the desk keeps (not the search) is stored for next time. */
  const update = (change: Partial<RegistryFilters>, bucketId = bucket.id) => {
    const next = { ...filters, page: 1, ...change };
    setFilters(next);
    setSelected([]);
    if (!('q' in change) || bucketId !== bucket.id) {
      const registryFilters = filtersToSave(next, bucketId);
      // A preference not stored only means the desk's choice is not remembered: no message.
      updateMe.mutate({ preferences: { registryFilters } }, { onError: () => undefined });
    }
  };

  function chooseBucket(id: string) {
    setChosen(id);
    update({}, id);
  }

  async function openEdit(row: RegistryItem) {
    try {
      setForm({ open: true, editing: await fetchRegistrationByPassCode(row.passCode) });
    } catch (error) {
      notify.error(error);
    }
  }

  function onAction(action: RowAction, row: RegistryItem) {
    if (action === 'arrive') void actions.arrive([row.id]);
    else if (action === 'confirm') void actions.confirm([row.id]);
    else if (action === 'cancelArrival') actions.askCancelArrival(row);
    else if (action === 'revoke') actions.askRevoke(row);
    else if (action === 'delete') actions.askDelete(row);
    else void openEdit(row);
  }

  const afterBatch = () => setSelected([]);
  const tooMany = selected.length > MAX_CONFIRMATIONS;

  return (
    <div className="yyp-registry">
      <PageHeading
        title={t('registry.title')}
        extra={
          <Space wrap>
            <Select
              aria-label={t('registry.organization')}
              value={bucket.id}
              onChange={chooseBucket}
              options={(buckets.data ?? []).map((b) => ({ value: b.id, label: `${b.groupName} / ${b.name}` }))}
              className="yyp-registry__bucket"
            />
            <Button icon={<DownloadOutlined />} loading={exporter.isPending} onClick={() => exporter.mutate(query)}>
              {t('registry.export')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setForm({ open: true })}>
              {t('registry.register')}
            </Button>
          </Space>
        }
      />
      <Space wrap className="yyp-registry__filters">
        <Input.Search
          allowClear
          placeholder={t('registry.search')}
          aria-label={t('registry.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(q) => update({ q })}
          className="yyp-registry__search"
        />
        <Segmented
          value={filters.source}
          onChange={(source) => update({ source: source })}
          options={(['internal', 'external', 'all'] as const).map((s) => ({
            value: s,
            label: t(`registry.source.${s}`),
          }))}
        />
        <Select<ExamStatus[]>
          mode="multiple"
          allowClear
          placeholder={t('registry.statusFilter')}
          aria-label={t('registry.statusFilter')}
          value={filters.statuses}
          onChange={(statuses) => update({ statuses })}
          options={STATUSES.map((s) => ({ value: s, label: t(`registry.status.${s}`) }))}
          className="yyp-registry__statuses"
        />
        {REGISTRY_QUICK_RANGES.map((days) => (
          <Button
            key={days}
            type={filters.quickRange === days ? 'primary' : 'default'}
            ghost={filters.quickRange === days}
            onClick={() => update({ ...nextDays(days), quickRange: days })}
          >
            {t('registry.quickRange', { days })}
          </Button>
        ))}
        <DatePicker.RangePicker
          aria-label={t('registry.dateRange')}
          allowEmpty={[true, true]}
          value={[filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null]}
          onChange={(range) =>
            update({
              from: range?.[0]?.format('YYYY-MM-DD'),
              to: range?.[1]?.format('YYYY-MM-DD'),
              quickRange: null,
            })
          }
        />
      </Space>
      <Space className="yyp-registry__batch">
        <Button
          disabled={!confirmAllowed(selected.length) || actions.busy}
          onClick={() => void actions.arrive(selected).then(afterBatch)}
        >
          {t('registry.arriveSelected', { count: selected.length })}
        </Button>
        <Tooltip title={t('registry.confirmLimit', { max: MAX_CONFIRMATIONS })}>
          <Button
            disabled={!confirmAllowed(selected.length) || actions.busy}
            onClick={() => void actions.confirm(selected).then(afterBatch)}
          >
            {t('registry.confirmSelected', { count: selected.length })}
          </Button>
        </Tooltip>
        {tooMany && <span className="yyp-muted">{t('registry.confirmLimit', { max: MAX_CONFIRMATIONS })}</span>}
        <RegistryPrintButtons selected={selected} rows={page.data?.items ?? []} />
      </Space>
      {page.isError ? (
        <LoadFailedAlert error={page.error} onRetry={() => void page.refetch()} />
      ) : (
        <RegistryTable
          bucket={bucket}
          page={page.data}
          loading={page.isFetching}
          current={filters.page}
          pageSize={REGISTRY_PAGE_SIZE}
          onPage={(p) => setFilters((f) => ({ ...f, page: p }))}
          selected={selected}
          onSelect={setSelected}
          onAction={onAction}
          busy={actions.busy}
          extraActions={(row) => <RegistryRowPrint row={row} />}
        />
      )}
      <RegistrationForm
        key={form.editing?.id ?? 'new'}
        bucketId={bucket.id}
        editing={form.editing}
        open={form.open}
        onClose={() => setForm({ open: false })}
      />
    </div>
  );
}

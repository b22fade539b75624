import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DicomRefusal, DicomRefusalQuery, DicomRefusalReason } from '@yyp/contracts';
import { Form, Input, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { queryDicomRefusals } from '../../api/dicomRefusals';
import { queryKeys } from '../../api/queryClient';
import { PagedQueryTable } from '../../ui/QueryTable';
import { FilterBar, rangeFilters, timeColumn, useFilteredPages, type RangeValue } from './FilteredLog';

interface FilterValues {
  aeTitle?: string;
  range?: RangeValue;
}

type Filters = Pick<DicomRefusalQuery, 'aeTitle' | 'from' | 'to'>;

function toFilters(values: FilterValues): Filters {
  const aeTitle = values.aeTitle?.trim();
  return {
    ...(aeTitle ? { aeTitle } : {}),
    ...rangeFilters(values.range),
  };
}

/**
 * Filters and the paginated refused DICOM associations: all of them (`groupId` null, the
 * platform admin) or those that concern one group's AE titles (its auditors).
 */
export function DicomRefusalsTable({ groupId }: { groupId: string | null }) {
  const { t } = useTranslation();
  const { form, filters, page, paging, handleFinish, handleReset, pagination } = useFilteredPages(toFilters);
  const refusals = useQuery({
    queryKey: [...queryKeys.dicomRefusals(groupId), filters, page],
    queryFn: ({ signal }) => queryDicomRefusals(groupId, { ...filters, ...paging }, signal),
    placeholderData: keepPreviousData,
  });

  const reasons: Record<DicomRefusalReason, string> = {
    calledAe: t('dicomRefusals.reasonCalledAe'),
    callingAe: t('dicomRefusals.reasonCallingAe'),
    callingHost: t('dicomRefusals.reasonCallingHost'),
  };

  const columns: TableColumnsType<DicomRefusal> = [
    timeColumn(t('dicomRefusals.at')),
    { key: 'calling', title: t('dicomRefusals.callingAe'), render: (_, r) => <code>{r.callingAe}</code> },
    { key: 'called', title: t('dicomRefusals.calledAe'), render: (_, r) => <code>{r.calledAe}</code> },
    { key: 'peer', title: t('dicomRefusals.peer'), render: (_, r) => r.peerAddress ?? '—' },
    { key: 'reason', title: t('dicomRefusals.reason'), render: (_, r) => reasons[r.reason] },
    {
      key: 'organization',
      title: t('dicomRefusals.organization'),
      render: (_, r) => r.organization?.name ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      key: 'outcome',
      title: t('dicomRefusals.outcome'),
      render: (_, r) =>
        r.outcome === 'denied' ? <Tag color="orange">{t('dicomRefusals.denied')}</Tag> : <Tag>{r.outcome}</Tag>,
    },
  ];

  return (
    <div className="yyp-stack">
      <FilterBar
        name="dicomRefusalFilters"
        form={form}
        onFinish={handleFinish}
        onReset={handleReset}
        labels={{ range: t('dicomRefusals.range'), search: t('dicomRefusals.search'), reset: t('dicomRefusals.reset') }}
      >
        <Form.Item name="aeTitle" label={t('dicomRefusals.aeTitle')}>
          <Input
            maxLength={16}
            allowClear
            placeholder={t('dicomRefusals.aeTitlePlaceholder')}
            className="yyp-filter-bar__action"
          />
        </Form.Item>
      </FilterBar>
      <PagedQueryTable<DicomRefusal>
        query={refusals}
        rows={refusals.data?.refusals}
        rowKey="id"
        size="small"
        columns={columns}
        pagination={pagination(refusals.data?.count ?? 0, (total) => t('dicomRefusals.total', { count: total }))}
      />
    </div>
  );
}

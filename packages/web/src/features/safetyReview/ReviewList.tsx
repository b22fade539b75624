import { REPORT_PAGE_SIZE } from '@yyp/contracts';
import { DatePicker, Empty, Select, Table, type TableColumnsType, type TableProps } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatStudyDate } from '../../shared/format/dates';
import { LoadFailedAlert } from '../../ui/LoadFailedAlert';

/**
 * The parts the two review lists (critical values, quality) share: their paging, which goes back
 * to the first page when a filter changes; the organization and period filters; the study line
 * under a patient's name; and the paged table, or the alert when the page failed.
 */

export type Range = [Dayjs | null, Dayjs | null] | null;

export function useReviewPaging() {
  const [page, setPage] = useState({ current: 1, pageSize: REPORT_PAGE_SIZE });
  function handleFilter<T>(set: (v: T) => void) {
    return (value: T) => {
      set(value);
      setPage((p) => ({ ...p, current: 1 }));
    };
  }
  return {
    page,
    setPage,
    handleFilter,
    window: { skip: (page.current - 1) * page.pageSize, limit: page.pageSize },
  };
}

interface OrganizationFilterProps {
  value: string;
  onChange: (value: string) => void;
  organizations: { id: string; name: string }[];
  loading?: boolean;
}

/** '' is every listed organization. */
export function OrganizationFilter({ value, onChange, organizations, loading }: OrganizationFilterProps) {
  const { t } = useTranslation();
  return (
    <Select<string>
      value={value}
      onChange={onChange}
      {...(loading !== undefined ? { loading } : {})}
      style={{ width: 200 }}
      aria-label={t('safetyReview.organization')}
      options={[
        { value: '', label: t('safetyReview.allOrganizations') },
        ...organizations.map((o) => ({ value: o.id, label: o.name })),
      ]}
    />
  );
}

export function PeriodFilter({ value, onChange }: { value: Range; onChange: (value: Range) => void }) {
  const { t } = useTranslation();
  return (
    <DatePicker.RangePicker
      value={value}
      onChange={onChange}
      allowEmpty={[true, true]}
      aria-label={t('safetyReview.period')}
    />
  );
}

export function StudyLine({ row }: { row: { modality: string; bodyPart: string; studyDate: string } }) {
  return (
    <div className="yyp-review__sub">
      {[row.modality, row.bodyPart, formatStudyDate(row.studyDate)].filter(Boolean).join(' · ')}
    </div>
  );
}

interface ReviewTableProps<T> {
  list: {
    isError: boolean;
    error: unknown;
    refetch: () => unknown;
    isFetching: boolean;
    data?: { data: T[]; count: number } | undefined;
  };
  rowKey: keyof T & string;
  columns: TableColumnsType<T>;
  empty: string;
  paging: ReturnType<typeof useReviewPaging>;
  rowClassName: TableProps<T>['rowClassName'];
  onRow?: TableProps<T>['onRow'];
}

export function ReviewTable<T extends object>(props: ReviewTableProps<T>) {
  const { list, rowKey, columns, empty, paging, rowClassName, onRow } = props;
  if (list.isError) {
    return <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} />;
  }
  return (
    <Table<T>
      rowKey={rowKey}
      size="middle"
      columns={columns}
      dataSource={list.data?.data ?? []}
      loading={list.isFetching}
      scroll={{ x: 'max-content' }}
      rowClassName={rowClassName}
      {...(onRow ? { onRow } : {})}
      locale={{ emptyText: <Empty description={empty} /> }}
      pagination={{
        current: paging.page.current,
        pageSize: paging.page.pageSize,
        total: list.data?.count ?? 0,
        showSizeChanger: true,
        onChange: (current, pageSize) => paging.setPage({ current, pageSize }),
      }}
    />
  );
}

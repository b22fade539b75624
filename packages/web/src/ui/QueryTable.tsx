import { Table, type TablePaginationConfig, type TableProps } from 'antd';
import { LoadFailedAlert } from './LoadFailedAlert';

/** What QueryTable reads of a query's state (a react-query result fits). */
export interface TableQuery<T> {
  isError: boolean;
  error: unknown;
  isPending: boolean;
  data?: T[] | undefined;
  refetch: () => unknown;
}

type QueryTableProps<T> = { query: TableQuery<T> } & Omit<TableProps<T>, 'dataSource' | 'loading'>;

/**
 * A table of the rows a query loaded, on one page unless `pagination` says otherwise, medium-sized
 * unless `size` does; above it, when the query failed, the alert that offers to try again.
 */
export function QueryTable<T extends object>({ query, ...table }: QueryTableProps<T>) {
  return (
    <>
      {query.isError && <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />}
      <Table<T> size="middle" pagination={false} {...table} dataSource={query.data ?? []} loading={query.isPending} />
    </>
  );
}

/** What PagedQueryTable reads of a query that loads one page of rows at a time. */
export interface PageQuery {
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

type PagedQueryTableProps<T> = { query: PageQuery; rows: T[] | undefined } & Omit<
  TableProps<T>,
  'dataSource' | 'loading'
>;

/**
 * A table of the page of rows a query loaded, loading while the next page is fetched; above it,
 * when the query failed, the alert that offers to try again.
 */
export function PagedQueryTable<T extends object>({ query, rows, ...table }: PagedQueryTableProps<T>) {
  return (
    <>
      {query.isError && <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} />}
      <Table<T> {...table} dataSource={rows ?? []} loading={query.isFetching} />
    </>
  );
}

/** The pager of rows the server pages by a fixed size: no size choice, hidden when one page holds all. */
export function fixedPagination(
  page: number,
  pageSize: number,
  total: number,
  onChange: (page: number) => void,
): TablePaginationConfig {
  return { current: page, pageSize, total, onChange, showSizeChanger: false, hideOnSinglePage: true };
}

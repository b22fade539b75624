import { Table, type TableProps } from 'antd';
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

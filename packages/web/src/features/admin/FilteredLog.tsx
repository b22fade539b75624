import { SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, type FormInstance, type TableColumnType, type TablePaginationConfig } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState, type ReactNode } from 'react';

/** Rows per page of the admin logs (operation log, refused DICOM associations). */
export const LOG_PAGE_SIZE = 20;

/** The time-range field of a log's filter bar. */
export type RangeValue = [Dayjs | null, Dayjs | null] | null;

/** A time range as the query's `from` and `to` (ISO), each left out when open. */
export function rangeFilters(range: RangeValue | undefined): { from?: string; to?: string } {
  const [from, to] = range ?? [null, null];
  return {
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { to: to.toISOString() } : {}),
  };
}

/**
 * A log's filter form, the filters it last applied and the page: searching applies the form's
 * values and goes back to page 1, resetting clears both.
 */
export function useFilteredPages<V extends object, F extends object>(toFilters: (values: V) => F) {
  const [form] = Form.useForm<V>();
  const [filters, setFilters] = useState<Partial<F>>({});
  const [page, setPage] = useState(1);

  function handleFinish(values: V) {
    setFilters(toFilters(values));
    setPage(1);
  }

  function handleReset() {
    form.resetFields();
    setFilters({});
    setPage(1);
  }

  /** The query's paging for the current page. */
  const paging = { skip: (page - 1) * LOG_PAGE_SIZE, limit: LOG_PAGE_SIZE };

  /** The table's pagination for `total` rows. */
  function pagination(total: number, showTotal: (total: number) => string): TablePaginationConfig {
    return {
      current: page,
      pageSize: LOG_PAGE_SIZE,
      total,
      onChange: setPage,
      showSizeChanger: false,
      showTotal,
    };
  }

  return { form, filters, page, paging, handleFinish, handleReset, pagination };
}

/** A log's time column: the row's `at` to the second, never wrapped. */
export function timeColumn<T extends { at: string }>(title: string): TableColumnType<T> {
  return {
    key: 'at',
    title,
    width: 170,
    render: (_, row) => <span className="yyp-nowrap">{dayjs(row.at).format('YYYY-MM-DD HH:mm:ss')}</span>,
  };
}

interface FilterBarProps<V> {
  name: string;
  form: FormInstance<V>;
  onFinish: (values: V) => void;
  onReset: () => void;
  labels: { range: string; search: string; reset: string };
  /** The log's own fields, before the time range. */
  children: ReactNode;
}

/** An inline filter bar: the log's own fields, then the time range (`range`), search and reset. */
export function FilterBar<V>({ name, form, onFinish, onReset, labels, children }: FilterBarProps<V>) {
  return (
    <Form<V> name={name} form={form} layout="inline" onFinish={onFinish} className="yyp-filter-bar">
      {children}
      <Form.Item name="range" label={labels.range}>
        <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {labels.search}
        </Button>
      </Form.Item>
      <Form.Item>
        <Button onClick={onReset}>{labels.reset}</Button>
      </Form.Item>
    </Form>
  );
}

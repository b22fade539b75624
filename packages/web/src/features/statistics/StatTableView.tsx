import type { StatColumn, StatRow, StatTable } from '@yyp/contracts';
import { Button, Table, type TableColumnsType } from 'antd';
import { Money } from '../../ui/Money';
import { columnFormat, formatValue, type StatWords } from './statView';

type Row = StatRow & { rowKey: string };

/** A value cell: money through Money (¥12.50), the rest as statView formats them. */
function Value({ table, column, value }: { table: StatTable; column: StatColumn; value: number | null | undefined }) {
  if (columnFormat(column) === 'money' && typeof value === 'number') {
    return <Money fen={value} currency={table.currency ?? 'CNY'} />;
  }
  return <>{formatValue(column, value, table.currency ?? 'CNY')}</>;
}

/**
 * One statistic's table beside or under its chart: a row per dimension value (with its modality for
 * a detailed workload), the value columns (right-aligned), and the totals row. As wide as its place:
 * the headers wrap first, and only a table that still does not fit scrolls inside itself. A row is
 * clickable for drill-down when `onRowClick` is given.
 */
export function StatTableView({
  table,
  words,
  onRowClick,
}: {
  table: StatTable;
  words: StatWords;
  onRowClick?: (row: StatRow) => void;
}) {
  const hasSub = table.rows.some((row) => row.sub !== undefined);
  const columns: TableColumnsType<Row> = [
    {
      title: words.dimension(table.by),
      key: 'label',
      // a button, so the drill-down is reached by keyboard too
      render: (_, row) =>
        onRowClick && row.key ? (
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onRowClick(row)}>
            {words.row(row)}
          </Button>
        ) : (
          words.row(row)
        ),
    },
    ...(hasSub ? [{ title: words.dimension('modality'), key: 'sub', render: (_: unknown, row: Row) => row.sub }] : []),
    ...table.columns.map((column) => ({
      title: words.column(column),
      key: column,
      align: 'right' as const,
      render: (_: unknown, row: Row) => <Value table={table} column={column} value={row.values[column]} />,
    })),
  ];
  const rows: Row[] = table.rows.map((row) => ({ ...row, rowKey: `${row.key}\u0000${row.sub ?? ''}` }));

  return (
    <Table<Row>
      size="small"
      rowKey="rowKey"
      pagination={false}
      className="yyp-stat-table"
      scroll={{ x: true }}
      dataSource={rows}
      columns={columns}
      summary={() => (
        <Table.Summary fixed>
          <Table.Summary.Row className="yyp-stat-total">
            <Table.Summary.Cell index={0} colSpan={hasSub ? 2 : 1}>
              <strong>{words.total}</strong>
            </Table.Summary.Cell>
            {table.columns.map((column, i) => (
              <Table.Summary.Cell key={column} index={i + (hasSub ? 2 : 1)} align="right">
                <strong>
                  <Value table={table} column={column} value={table.totals[column]} />
                </strong>
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}

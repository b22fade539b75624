import type { StatColumn, StatRow, StatTable } from '@yyp/contracts';
import { Segmented, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../ui/EChart';
import { chartValue, type StatWords } from './statView';

type View = 'byRow' | 'overTime';

/** A row's name on the chart's axis (a detailed workload row adds its modality). */
export const rowName = (row: StatRow, words: StatWords) =>
  row.sub ? `${words.row(row)} · ${row.sub}` : words.row(row);

/**
 * One statistic's chart: a bar per row, or a line over the periods, of one column (the first by
 * default). A click on a bar hands the row to `onRowClick` (drill-down) when given.
 */
export function StatChart({
  table,
  title,
  words,
  onRowClick,
}: {
  table: StatTable;
  title: string;
  words: StatWords;
  onRowClick?: (row: StatRow) => void;
}) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>('byRow');
  const [chosen, setChosen] = useState<StatColumn | undefined>();
  const column = chosen && table.columns.includes(chosen) ? chosen : table.columns[0];

  const option = useMemo(() => {
    if (!column) return {};
    const byRow = view === 'byRow';
    const names = byRow ? table.rows.map((row) => rowName(row, words)) : table.periods.map((p) => p.period);
    const data = byRow
      ? table.rows.map((row) => chartValue(column, row.values[column]))
      : table.periods.map((p) => chartValue(column, p.values[column]));
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 24, bottom: 56 },
      xAxis: { type: 'category', data: names, axisLabel: { interval: 0, rotate: names.length > 8 ? 30 : 0 } },
      yAxis: { type: 'value' },
      series: [
        {
          name: words.column(column),
          type: byRow ? 'bar' : 'line',
          data,
          ...(byRow ? { barMaxWidth: 40 } : { smooth: false, connectNulls: true }),
        },
      ],
    };
  }, [column, table, view, words]);

  if (!column) return null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Segmented<View>
          value={view}
          onChange={setView}
          options={[
            { value: 'byRow', label: t('statistics.chart.byRow', { dimension: words.dimension(table.by) }) },
            { value: 'overTime', label: t('statistics.chart.overTime') },
          ]}
        />
        <Select
          aria-label={t('statistics.chart.column')}
          value={column}
          style={{ minWidth: 160 }}
          onChange={setChosen}
          options={table.columns.map((c) => ({ value: c, label: words.column(c) }))}
        />
      </Space>
      <EChart
        option={option}
        label={t('statistics.chart.label', { name: title })}
        onClick={
          view === 'byRow' && onRowClick
            ? ({ dataIndex }) => {
                const row = table.rows[dataIndex];
                if (row) onRowClick(row);
              }
            : undefined
        }
      />
    </Space>
  );
}

import {
  STAT_DIMENSIONS_OF,
  STAT_INTERVALS,
  TURNAROUND_STEPS,
  WORKLOAD_VERSIONS,
  type StatKind,
  type TurnaroundStep,
} from '@yyp/contracts';
import { Button, DatePicker, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PERIOD_PRESETS, periodOfPreset, type StatSelection, type StatWords } from './statView';

interface PeriodBarProps {
  kind: StatKind;
  selection: StatSelection;
  /** the organizations the statistic may cover (multi-select) */
  buckets: { bucketId: string; name: string }[];
  words: StatWords;
  onApply: (next: StatSelection) => void;
}

const day = (d: Dayjs) => d.format('YYYY-MM-DD');

/**
 * The period bar: quick ranges (applied at once), a date range applied by the button or Enter,
 * the grouping, the organizations, the rows' dimension, the doctor workload's version, the
 * income's currency and the turnaround's two steps (each applied as chosen).
 */
export function PeriodBar({ kind, selection, buckets, words, onApply }: PeriodBarProps) {
  const { t } = useTranslation();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs(selection.from), dayjs(selection.to)]);
  // The range as last picked, read by Enter before React re-renders.
  const rangeRef = useRef(range);
  useEffect(() => {
    const next: [Dayjs, Dayjs] = [dayjs(selection.from), dayjs(selection.to)];
    rangeRef.current = next;
    setRange(next);
  }, [selection.from, selection.to]);

  const apply = (change: Partial<StatSelection>) => onApply({ ...selection, ...change });
  function handleApplyRange() {
    const [from, to] = rangeRef.current;
    apply({ from: day(from), to: day(to) });
  }
  function handleKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter') handleApplyRange();
  }
  const stepOptions = (steps: readonly TurnaroundStep[]) =>
    steps.map((step) => ({ value: step, label: t(`statistics.turnaround.steps.${step}`) }));

  return (
    <Space wrap className="yyp-stat-bar" size="small">
      <Space.Compact>
        {PERIOD_PRESETS.map((preset) => (
          <Button key={preset} onClick={() => apply(periodOfPreset(preset))}>
            {t(`statistics.preset.${preset}`)}
          </Button>
        ))}
      </Space.Compact>
      <Space.Compact onKeyDown={handleKeyDown}>
        <DatePicker.RangePicker
          aria-label={t('statistics.range')}
          allowClear={false}
          value={range}
          onChange={(picked) => {
            if (picked?.[0] && picked[1]) {
              rangeRef.current = [picked[0], picked[1]];
              setRange([picked[0], picked[1]]);
            }
          }}
        />
        <Button type="primary" onClick={handleApplyRange}>
          {t('statistics.apply')}
        </Button>
      </Space.Compact>
      <Select
        aria-label={t('statistics.interval.label')}
        value={selection.interval}
        style={{ width: 100 }}
        onChange={(interval) => apply({ interval })}
        options={STAT_INTERVALS.map((interval) => ({ value: interval, label: t(`statistics.interval.${interval}`) }))}
      />
      <Select
        aria-label={t('statistics.dimension')}
        value={selection.by}
        style={{ minWidth: 120 }}
        onChange={(by) => apply({ by })}
        options={STAT_DIMENSIONS_OF[kind].map((by) => ({ value: by, label: words.dimension(by) }))}
      />
      {kind === 'report' && (
        <Select
          aria-label={t('statistics.version.label')}
          value={selection.version}
          style={{ width: 110 }}
          onChange={(version) => apply({ version })}
          options={WORKLOAD_VERSIONS.map((v) => ({ value: v, label: t(`statistics.version.${v}`) }))}
        />
      )}
      {kind === 'group-payment' && (
        <Select
          aria-label={t('statistics.currency.label')}
          value={selection.currency}
          style={{ width: 130 }}
          onChange={(currency) => apply({ currency })}
          options={(['CNY', 'USD'] as const).map((c) => ({ value: c, label: t(`statistics.currency.${c}`) }))}
        />
      )}
      {kind === 'turnaround' && (
        <>
          <Select
            aria-label={t('statistics.turnaround.fromStep')}
            value={selection.fromStep}
            style={{ minWidth: 120 }}
            onChange={(fromStep) => apply({ fromStep })}
            options={stepOptions(TURNAROUND_STEPS.slice(0, TURNAROUND_STEPS.indexOf(selection.toStep)))}
          />
          <Select
            aria-label={t('statistics.turnaround.toStep')}
            value={selection.toStep}
            style={{ minWidth: 120 }}
            onChange={(toStep) => apply({ toStep })}
            options={stepOptions(TURNAROUND_STEPS.slice(TURNAROUND_STEPS.indexOf(selection.fromStep) + 1))}
          />
        </>
      )}
      <Select
        mode="multiple"
        allowClear
        aria-label={t('statistics.organizations')}
        placeholder={t('statistics.allOrganizations')}
        value={selection.bucketIds}
        style={{ minWidth: 220 }}
        maxTagCount="responsive"
        onChange={(bucketIds: string[]) => apply({ bucketIds })}
        options={buckets.map((b) => ({ value: b.bucketId, label: b.name }))}
      />
    </Space>
  );
}

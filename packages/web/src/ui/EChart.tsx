import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';
import { useReducedMotion } from './useReducedMotion';

/** What a click on a bar or point says: the category's index and name, the series' name. */
export interface EChartClick {
  dataIndex: number;
  name: string;
  seriesName?: string;
}

interface EChartProps {
  option: EChartsCoreOption;
  /** the chart's accessible name (a canvas says nothing by itself) */
  label: string;
  height?: number;
  onClick?: (click: EChartClick) => void;
}

/**
 * A thin ECharts wrapper: loads ECharts on first use (dynamic import, its own chunk), draws
 * `option` into a div, follows the div's size, and reports clicks on the chart's items. No animation
 * when the system asks for reduced motion.
 */
export function EChart({ option, label, height = 320, onClick }: EChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<EChartsType | null>(null);
  const clickRef = useRef(onClick);
  clickRef.current = onClick;
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    let disposed = false;
    let made: EChartsType | null = null;
    let observer: ResizeObserver | null = null;
    void import('./echartsSetup').then(({ init }) => {
      if (disposed || !element.current) return;
      made = init(element.current);
      made.on('click', (params) => {
        const p = params as { dataIndex?: number; name?: string; seriesName?: string };
        clickRef.current?.({ dataIndex: p.dataIndex ?? 0, name: p.name ?? '', seriesName: p.seriesName });
      });
      observer = new ResizeObserver(() => made?.resize());
      observer.observe(element.current);
      setChart(made);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      made?.dispose();
    };
  }, []);

  useEffect(() => {
    chart?.setOption(reducedMotion ? { ...option, animation: false } : option, { notMerge: true });
  }, [chart, option, reducedMotion]);

  return (
    <div
      ref={element}
      role="img"
      aria-label={label}
      className="yyp-echart"
      style={{ width: '100%', height, cursor: onClick ? 'pointer' : undefined }}
    />
  );
}

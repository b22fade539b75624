import * as core from '@cornerstonejs/core';
import * as tools from '@cornerstonejs/tools';
import { Button } from 'antd';
import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { TOOL_GROUP_ID } from './engine';
import { toMeasurements, type Measurement } from './measurements';
import type { ToolName } from './toolNames';

/** One decimal, and never "-0.0". */
const fmt = (n: number) => (Math.abs(n) < 0.05 ? 0 : n).toFixed(1);

/**
 * The annotations as the tools compute them. The tools compute statistics throttled while
 * drawing: a finished annotation is recomputed once more, so the panel and the label on the image
 * show its final size.
 */
export function useMeasurements(grid: RefObject<HTMLDivElement | null>) {
  const [measurements, setMeasurements] = useState<Measurement[]>([]);
  useEffect(() => {
    let frame = 0;
    const refresh = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() =>
        setMeasurements(toMeasurements(tools.annotation.state.getAllAnnotations() as never)),
      );
    };
    const completed = (evt: Event) => {
      const annotation = (evt as CustomEvent<{ annotation?: { invalidated?: boolean } }>).detail.annotation;
      if (annotation) annotation.invalidated = true;
      tools.utilities.triggerAnnotationRenderForToolGroupIds([TOOL_GROUP_ID]);
      refresh();
    };
    const events = [tools.Enums.Events.ANNOTATION_MODIFIED, tools.Enums.Events.ANNOTATION_REMOVED];
    // Rendered annotations are announced on their viewport's element (not bubbling): caught on
    // the way down, in the grid's capture phase.
    const el = grid.current;
    core.eventTarget.addEventListener(tools.Enums.Events.ANNOTATION_COMPLETED, completed);
    for (const e of events) core.eventTarget.addEventListener(e, refresh);
    el?.addEventListener(tools.Enums.Events.ANNOTATION_RENDERED, refresh, true);
    return () => {
      cancelAnimationFrame(frame);
      core.eventTarget.removeEventListener(tools.Enums.Events.ANNOTATION_COMPLETED, completed);
      for (const e of events) core.eventTarget.removeEventListener(e, refresh);
      el?.removeEventListener(tools.Enums.Events.ANNOTATION_RENDERED, refresh, true);
    };
  }, [grid]);
  return [measurements, setMeasurements] as const;
}

/** The side panel's list of measurements, with a button that clears them all. */
export function MeasurementsPanel({ measurements, onClear }: { measurements: Measurement[]; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="viewer-measurements" data-testid="measurements">
      <div className="viewer-side-title">
        {t('viewer.measurements')}
        {measurements.length > 0 && (
          <Button size="small" type="link" onClick={onClear}>
            {t('viewer.clear')}
          </Button>
        )}
      </div>
      {measurements.length === 0 && <div className="viewer-muted">{t('viewer.noMeasurements')}</div>}
      {measurements.map((m) => (
        <div key={m.uid} className="viewer-measurement" data-testid="measurement">
          <b>{t(`viewer.tools.${m.tool as ToolName}`, { defaultValue: m.tool })}</b>{' '}
          {m.length !== undefined && `${fmt(m.length)} ${m.unit ?? 'mm'}`}
          {m.angle !== undefined && `${fmt(m.angle)}°`}
          {m.mean !== undefined &&
            `${t('viewer.mean')} ${fmt(m.mean)} ${m.unit ?? ''}, ${t('viewer.sd')} ${fmt(m.stdDev ?? 0)}${
              m.area !== undefined ? `, ${t('viewer.area')} ${fmt(m.area)} ${m.areaUnit ?? ''}` : ''
            }`}
          {m.text !== undefined && (m.text || '→')}
        </div>
      ))}
    </section>
  );
}

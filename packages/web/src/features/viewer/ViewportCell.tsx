import * as core from '@cornerstonejs/core';
import * as tools from '@cornerstonejs/tools';
import { Progress } from 'antd';
import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { annotationsOf } from './annotations';
import { AnnotationOverlay } from './AnnotationOverlay';
import { renderingEngine, RENDERING_ENGINE_ID, TOOL_GROUP_ID, type StackImage } from './engine';
import type { ImageMarks } from './useViewerObjects';
import { rangeToWindow } from './presets';
import { showStack } from './showStack';

/** What a viewport shows: a series of an open study (at one of its images, a key image). */
export interface CellContent {
  studyUid: string;
  seriesUid: string;
  target?: { sopUid: string; frame: number | null };
}

/** The corner texts of a viewport that come from the study (already masked by the server). */
export interface StudyOverlay {
  patientName: string;
  patientId: string;
  sexAge: string;
  studyDate: string;
  modality: string;
  institution: string;
  /** a prior exam shown for comparison */
  prior: boolean;
}

export interface SeriesInfo {
  seriesNumber: number | null;
  description: string;
}

interface Props {
  index: number;
  content: CellContent | null;
  stack: StackImage[] | null;
  overlay: StudyOverlay | null;
  series: SeriesInfo | null;
  active: boolean;
  ready: boolean;
  onActivate: (index: number) => void;
  onDropSeries: (index: number, content: CellContent) => void;
  /** the shown image changed (linked scrolling, key images) */
  onImageIndex?: (index: number, imageIndex: number) => void;
  /** shown instead of the canvas: a series of objects (an SR as text, a PDF) */
  object?: ReactNode;
  /** the study's key images (marked in the overlay) and presentation states' annotations (drawn over the image) */
  marks?: ImageMarks;
}

export const viewportId = (index: number) => `yyp-vp-${index}`;
export const SERIES_DRAG_TYPE = 'application/x-yyp-series';

/** The place of a key image in a stack, or -1. */
function targetIndex(stack: StackImage[], target: CellContent['target']): number {
  if (!target) return -1;
  return stack.findIndex((s) => s.sopUid === target.sopUid && (target.frame === null || s.frame === target.frame));
}

/** Loads every image of a stack into the cache, six at a time, reporting progress. */
async function prefetch(imageIds: string[], signal: { cancelled: boolean }, onProgress: (done: number) => void) {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (!signal.cancelled && next < imageIds.length) {
      const imageId = imageIds[next++]!;
      try {
        await core.imageLoader.loadAndCacheImage(imageId);
      } catch {
        // a broken image shows its own error when displayed; the others still load
      }
      done++;
      if (!signal.cancelled) onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

/**
 * One Cornerstone3D stack viewport with its corner overlay. It accepts a series dropped from the
 * study browser, prefetches the whole stack (with progress) so scrolling is smooth, and keeps the
 * overlay's instance number, window/level and zoom current.
 */
export function ViewportCell(props: Props) {
  const { index, content, stack, overlay, series, active, ready, onActivate, onDropSeries, onImageIndex } = props;
  const { object, marks } = props;
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const [imageIndex, setImageIndex] = useState(0);
  const [instanceNumber, setInstanceNumber] = useState<number | null>(null);
  const [wl, setWl] = useState<{ width: number; center: number } | null>(null);
  const [zoom, setZoom] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // The stack whose image is on the canvas. Compared with the current stack rather than kept as a
  // flag: a flag left true by the previous stack (before an SR or PDF took the cell) let the key
  // image's move race the new setStack, and the dropped load never settled.
  const [shownStack, setShownStack] = useState<StackImage[] | null>(null);
  const shown = shownStack !== null && shownStack === stack;
  const id = viewportId(index);
  const target = content?.target;
  const targetRef = useRef(target);
  targetRef.current = target;

  // Enable the element once the engine is ready; the tool group drives it.
  useEffect(() => {
    const el = element.current;
    if (!ready || !el) return;
    const engine = renderingEngine();
    engine.enableElement({
      viewportId: id,
      type: core.Enums.ViewportType.STACK,
      element: el,
      defaultOptions: { background: [0, 0, 0] },
    });
    tools.ToolGroupManager.getToolGroup(TOOL_GROUP_ID)?.addViewport(id, RENDERING_ENGINE_ID);
    return () => {
      tools.ToolGroupManager.getToolGroup(TOOL_GROUP_ID)?.removeViewports(RENDERING_ENGINE_ID, id);
      core.getRenderingEngine(RENDERING_ENGINE_ID)?.disableElement(id);
    };
  }, [ready, id]);

  // Show the stack, then prefetch the rest of it.
  useEffect(() => {
    if (!ready || !stack || stack.length === 0) return;
    const viewport = renderingEngine().getViewport(id) as core.StackViewport | undefined;
    if (!viewport) return;
    const el = element.current;
    const signal = { cancelled: false };
    const imageIds = stack.map((s) => s.imageId);
    setLoaded(0);
    setError(null);
    setShownStack(null);
    performance.mark(`yyp-viewer:stack-start:${index}`);
    // A key image asked for opens the stack there (one image loaded before the others, not two).
    const at = Math.max(0, targetIndex(stack, targetRef.current));
    showStack(viewport, imageIds, at)
      .then(() => {
        if (signal.cancelled) return;
        viewport.render();
        performance.mark(`yyp-viewer:first-image:${index}`);
        const i = viewport.getCurrentImageIdIndex();
        setImageIndex(i);
        setInstanceNumber(stack[i]?.instanceNumber ?? null);
        const voi = viewport.getProperties().voiRange;
        setWl(voi ? rangeToWindow(voi) : null);
        setZoom(viewport.getZoom());
        setShownStack(stack);
        return prefetch(imageIds, signal, setLoaded);
      })
      .then(() => {
        if (!signal.cancelled) performance.mark(`yyp-viewer:stack-loaded:${index}`);
      })
      .catch((err: unknown) => {
        if (!signal.cancelled) setError(err instanceof Error ? err.message : String(err));
      });
    return () => {
      signal.cancelled = true;
      tools.utilities.cine.stopClip(el as HTMLDivElement);
    };
  }, [ready, stack, id, index]);

  // Overlay values follow the viewport's events.
  useEffect(() => {
    const el = element.current;
    if (!el || !stack) return;
    const onNewImage = (evt: Event) => {
      const i = (evt as CustomEvent<{ imageIdIndex: number }>).detail.imageIdIndex;
      setImageIndex(i);
      setInstanceNumber(stack[i]?.instanceNumber ?? null);
      onImageIndex?.(index, i);
    };
    const onVoi = (evt: Event) => {
      const range = (evt as CustomEvent<{ range?: { lower: number; upper: number } }>).detail.range;
      if (range) setWl(rangeToWindow(range));
    };
    const onCamera = () => {
      const viewport = core.getRenderingEngine(RENDERING_ENGINE_ID)?.getViewport(id);
      if (viewport) setZoom(viewport.getZoom());
    };
    el.addEventListener(core.Enums.Events.STACK_NEW_IMAGE, onNewImage);
    el.addEventListener(core.Enums.Events.VOI_MODIFIED, onVoi);
    el.addEventListener(core.Enums.Events.CAMERA_MODIFIED, onCamera);
    return () => {
      el.removeEventListener(core.Enums.Events.STACK_NEW_IMAGE, onNewImage);
      el.removeEventListener(core.Enums.Events.VOI_MODIFIED, onVoi);
      el.removeEventListener(core.Enums.Events.CAMERA_MODIFIED, onCamera);
    };
  }, [stack, id, index, onImageIndex]);

  // Another key image of the stack already shown: move there.
  useEffect(() => {
    if (!shown || !stack || !target) return;
    const at = targetIndex(stack, target);
    const viewport = core.getRenderingEngine(RENDERING_ENGINE_ID)?.getViewport(id) as core.StackViewport | undefined;
    if (at >= 0 && viewport && viewport.getCurrentImageIdIndex() !== at) void viewport.setImageIdIndex(at);
  }, [shown, stack, target, id]);
  const current = stack?.[imageIndex];
  const isKey = Boolean(current && marks?.keyImages.has(current.sopUid));
  const drawn = current && marks ? annotationsOf(marks.annotations, current.sopUid, current.frame) : [];

  const onDrop = (e: DragEvent) => {
    const raw = e.dataTransfer.getData(SERIES_DRAG_TYPE);
    if (!raw) return;
    e.preventDefault();
    try {
      onDropSeries(index, JSON.parse(raw) as CellContent);
    } catch {
      // not one of our series
    }
  };

  const total = stack?.length ?? 0;
  return (
    <div
      className={`viewer-cell${active ? ' viewer-cell-active' : ''}`}
      data-testid={`viewport-${index}`}
      data-series-uid={content?.seriesUid}
      data-image-index={imageIndex}
      data-stack-ready={shown && Boolean(stack?.length)}
      data-object={object ? 'true' : undefined}
      onMouseDownCapture={() => onActivate(index)}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(SERIES_DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={onDrop}
    >
      <div ref={element} className="viewer-element" onContextMenu={(e) => e.preventDefault()} />
      {!content && <div className="viewer-empty">{t('viewer.dropHere')}</div>}
      {content && !object && shown && drawn.length > 0 && (
        <AnnotationOverlay viewportId={id} element={element} imageId={current?.imageId} annotations={drawn} />
      )}
      {content && object}
      {content && overlay && !object && (
        <>
          <div className="viewer-overlay viewer-overlay-tl" data-testid={`overlay-tl-${index}`}>
            <div>{overlay.patientName}</div>
            <div>{overlay.patientId}</div>
            <div>{overlay.sexAge}</div>
          </div>
          <div className="viewer-overlay viewer-overlay-tr">
            {overlay.prior && <div className="viewer-prior-tag">{t('viewer.prior')}</div>}
            <div>{overlay.institution}</div>
            <div>{overlay.studyDate}</div>
            <div>
              {overlay.modality} {series?.description}
            </div>
          </div>
          <div className="viewer-overlay viewer-overlay-bl" data-testid={`overlay-bl-${index}`}>
            {isKey && (
              <div className="viewer-key-mark" data-testid={`key-image-${index}`}>
                ★ {t('viewer.objects.keyImage')}
              </div>
            )}
            <div>
              {t('viewer.seriesNo')}: {series?.seriesNumber ?? '—'}
            </div>
            <div data-testid={`instance-${index}`}>
              {t('viewer.imageNo')}: {instanceNumber ?? '—'} ({imageIndex + 1}/{total})
            </div>
          </div>
          <div className="viewer-overlay viewer-overlay-br" data-testid={`overlay-br-${index}`}>
            {wl && (
              <div data-testid={`wl-${index}`}>
                W: {wl.width} L: {wl.center}
              </div>
            )}
            {zoom !== null && (
              <div>
                {t('viewer.zoom')}: {Math.round(zoom * 100)}%
              </div>
            )}
          </div>
          {total > 0 && loaded < total && (
            <div className="viewer-progress" data-testid={`progress-${index}`}>
              <Progress percent={Math.floor((loaded / total) * 100)} size="small" showInfo={false} />
              <span>{t('viewer.loading', { done: loaded, total })}</span>
            </div>
          )}
          {error && <div className="viewer-error">{t('viewer.loadFailed')}</div>}
        </>
      )}
    </div>
  );
}

import * as core from '@cornerstonejs/core';
import * as tools from '@cornerstonejs/tools';
import { App, Button, Dropdown, Input, Segmented, Space, Tooltip, type MenuProps } from 'antd';
import type { ViewerContext, ViewerPrior } from '@yyp/contracts';
import { KEY_IMAGE_MAX_COUNT } from '@yyp/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import { fetchPriors, fetchViewerContext, priorPath, sendKeyImage } from '../../api/viewer';
import { captureViewport } from './capture';
import {
  activateTool,
  createToolGroup,
  initEngine,
  loadSeriesStack,
  renderingEngine,
  TOOL_GROUP_ID,
  type StackImage,
} from './engine';
import { toMeasurements, type Measurement } from './measurements';
import { layoutCells, LAYOUTS, linkedIndex, presetsFor, windowToRange, type Layout } from './presets';
import { SeriesBrowser } from './SeriesBrowser';
import { TOOL_KEYS, TOOL_NAMES, type ToolName } from './toolNames';
import { viewportId, ViewportCell, type CellContent, type StudyOverlay } from './ViewportCell';

/** An open study: the main one, or a prior opened for comparison (each with its own openpath). */
export interface OpenStudy {
  openpath: string;
  context: ViewerContext;
  prior: boolean;
}

const stackKey = (c: CellContent) => `${c.studyUid}|${c.seriesUid}`;

/** One decimal, and never "-0.0". */
const fmt = (n: number) => (Math.abs(n) < 0.05 ? 0 : n).toFixed(1);

function studyOverlay(study: OpenStudy): StudyOverlay {
  const c = study.context;
  return {
    patientName: c.patientName,
    patientId: c.patientId,
    sexAge: [c.patientSex, c.patientAge].filter(Boolean).join(' / '),
    studyDate: c.studyDate,
    modality: c.modality,
    institution: c.institution,
    prior: study.prior,
  };
}

/** Prompts for an arrow's label (the arrow tool asks through this callback). */
function useArrowPrompt() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (done: (text: string) => void) => {
      let value = '';
      modal.confirm({
        title: t('viewer.arrowLabel'),
        icon: null,
        content: <Input autoFocus maxLength={64} onChange={(e) => (value = e.target.value)} />,
        onOk: () => done(value),
        onCancel: () => done(''),
      });
    },
    [modal, t],
  );
}

export function ViewerWorkspace({ openpath, context }: { openpath: string; context: ViewerContext }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const arrowPrompt = useArrowPrompt();
  const [ready, setReady] = useState(false);
  const [studies, setStudies] = useState<OpenStudy[]>([{ openpath, context, prior: false }]);
  const [stacks, setStacks] = useState<Record<string, StackImage[]>>({});
  const [layout, setLayout] = useState<Layout>('1x1');
  const [cells, setCells] = useState<(CellContent | null)[]>([null, null, null, null]);
  const [active, setActive] = useState(0);
  const [tool, setTool] = useState<ToolName>('WindowLevel');
  const [linked, setLinked] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [measurements, setMeasurements] = useState<Measurement[]>([]);
  const [priors, setPriors] = useState<ViewerPrior[] | null>(null);
  const [capturing, setCapturing] = useState(false);
  const grid = useRef<HTMLDivElement>(null);
  const offsets = useRef<number[]>([0, 0, 0, 0]);
  const indexes = useRef<number[]>([0, 0, 0, 0]);

  useEffect(() => {
    let live = true;
    void initEngine().then(() => {
      if (!live) return;
      createToolGroup(arrowPrompt);
      setReady(true);
    });
    return () => {
      live = false;
    };
  }, [arrowPrompt]);

  useEffect(() => {
    if (!ready) return;
    const group = tools.ToolGroupManager.getToolGroup(TOOL_GROUP_ID);
    if (group) activateTool(group, tool);
  }, [ready, tool]);

  const loadStack = useCallback(
    async (study: OpenStudy, content: CellContent) => {
      const key = stackKey(content);
      if (stacks[key]) return;
      try {
        const stack = await loadSeriesStack(study.openpath, content.studyUid, content.seriesUid);
        setStacks((s) => ({ ...s, [key]: stack }));
      } catch (err) {
        void message.error(errorMessage(t, err));
      }
    },
    [stacks, message, t],
  );

  const studyOf = useCallback((studyUid: string) => studies.find((s) => s.context.studyUid === studyUid), [studies]);

  const show = useCallback(
    (index: number, content: CellContent) => {
      const study = studyOf(content.studyUid);
      if (!study) return;
      setCells((c) => c.map((x, i) => (i === index ? content : x)));
      setActive(index);
      void loadStack(study, content);
    },
    [studyOf, loadStack],
  );

  // The first series opens at once.
  useEffect(() => {
    const first = context.series[0];
    if (ready && first && !cells[0]) show(0, { studyUid: context.studyUid, seriesUid: first.seriesUid });
  }, [ready, context, cells, show]);

  // Viewports follow their cell's size.
  useEffect(() => {
    const el = grid.current;
    if (!el || !ready) return;
    const observer = new ResizeObserver(() => renderingEngine().resize(true, true));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ready]);
  useEffect(() => {
    if (ready) requestAnimationFrame(() => renderingEngine().resize(true, true));
  }, [layout, ready]);

  // The measurement panel lists the annotations as the tools compute them. The tools compute
  // statistics throttled while drawing: a finished annotation is recomputed once more, so the panel
  // and the label on the image show its final size.
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
  }, []);

  const viewport = useCallback(
    (index = active) => renderingEngine().getViewport(viewportId(index)) as core.StackViewport | undefined,
    [active],
  );
  const activeElement = () =>
    grid.current?.querySelector<HTMLDivElement>(`[data-testid="viewport-${active}"] .viewer-element`);
  const activeStudy = cells[active] ? studyOf(cells[active].studyUid) : undefined;
  const activeModality =
    activeStudy?.context.series.find((s) => s.seriesUid === cells[active]?.seriesUid)?.modality ?? '';

  const applyPreset = (width: number, center: number) => {
    const vp = viewport();
    if (!vp) return;
    vp.setProperties({ voiRange: windowToRange(width, center) });
    vp.render();
  };
  const storedWindow = () => {
    const vp = viewport();
    if (!vp) return;
    vp.resetProperties();
    vp.render();
  };
  const rotate = (delta: number) => {
    const vp = viewport();
    if (!vp) return;
    vp.setViewPresentation({ rotation: (((vp.getRotation() + delta) % 360) + 360) % 360 });
    vp.render();
  };
  const flip = (horizontal: boolean) => {
    const vp = viewport();
    if (!vp) return;
    const camera = vp.getCamera();
    vp.setCamera(horizontal ? { flipHorizontal: !camera.flipHorizontal } : { flipVertical: !camera.flipVertical });
    vp.render();
  };
  const invert = () => {
    const vp = viewport();
    if (!vp) return;
    vp.setProperties({ invert: !vp.getProperties().invert });
    vp.render();
  };
  const reset = () => {
    const vp = viewport();
    if (!vp) return;
    // The CPU renderer's camera reset keeps rotation and flips: undo them explicitly first.
    vp.setViewPresentation({ rotation: 0, flipHorizontal: false, flipVertical: false });
    vp.resetCamera();
    vp.resetProperties();
    vp.render();
  };
  const scroll = (delta: number) => {
    const vp = viewport();
    // From the image being moved to, not the one shown: keys held down must not lose steps.
    if (!vp) return;
    const target = Math.min(vp.getImageIds().length - 1, Math.max(0, vp.getTargetImageIdIndex() + delta));
    void vp.setImageIdIndex(target);
  };
  const toggleCine = () => {
    const el = activeElement();
    if (!el) return;
    if (playing) {
      tools.utilities.cine.stopClip(el);
      setPlaying(false);
    } else {
      // The clip's own Cine Rate (0018,0040) when it has one, else 20 frames per second.
      const imageId = viewport()?.getCurrentImageId();
      const rate = Number(
        (core.metaData.get('cineModule', imageId ?? '') as { cineRate?: unknown } | undefined)?.cineRate,
      );
      const framesPerSecond = Number.isFinite(rate) && rate > 0 && rate <= 120 ? rate : 20;
      tools.utilities.cine.playClip(el, { framesPerSecond, loop: true });
      setPlaying(true);
    }
  };
  const clearMeasurements = () => {
    tools.annotation.state.removeAllAnnotations();
    setMeasurements([]);
    renderingEngine().render();
  };

  const captureKeyImage = async () => {
    if (!context.canCapture || capturing) return;
    const el = activeElement();
    if (!el || !cells[active]) return;
    setCapturing(true);
    try {
      const image = await captureViewport(el);
      const saved = await sendKeyImage(openpath, image);
      void message.success(t('viewer.keyImageSent', { n: saved.index + 1, max: KEY_IMAGE_MAX_COUNT }));
    } catch (err) {
      void message.error(errorMessage(t, err));
    } finally {
      setCapturing(false);
    }
  };

  // Linked scrolling between viewports (comparison with a prior).
  const onImageIndex = useCallback(
    (index: number, imageIndex: number) => {
      indexes.current[index] = imageIndex;
      if (!linked) return;
      const cellsShown = layoutCells(layout);
      for (let j = 0; j < cellsShown; j++) {
        if (j === index || !cells[j]) continue;
        const vp = renderingEngine().getViewport(viewportId(j)) as core.StackViewport | undefined;
        if (!vp) continue;
        const target = linkedIndex(imageIndex, offsets.current[j]! - offsets.current[index]!, vp.getImageIds().length);
        if (vp.getCurrentImageIdIndex() !== target) void vp.setImageIdIndex(target);
      }
    },
    [linked, layout, cells],
  );
  const toggleLink = () => {
    // The offsets are fixed at the moment of linking: align first, then link.
    offsets.current = indexes.current.slice();
    setLinked((v) => !v);
  };

  const openPriors = async () => {
    if (priors) return;
    try {
      setPriors(await fetchPriors(openpath));
    } catch (err) {
      void message.error(errorMessage(t, err));
    }
  };
  const comparePrior = async (prior: ViewerPrior) => {
    try {
      const path = await priorPath(openpath, prior.examId);
      const priorContext = await fetchViewerContext(path.openpath);
      const study: OpenStudy = { openpath: path.openpath, context: priorContext, prior: true };
      setStudies((s) => [...s.filter((x) => x.context.studyUid !== priorContext.studyUid), study]);
      const current = cells[active] ?? cells[0];
      const currentModality = context.series.find((s) => s.seriesUid === current?.seriesUid)?.modality;
      const match = priorContext.series.find((s) => s.modality === currentModality) ?? priorContext.series[0];
      if (!match) return;
      if (layout === '1x1') setLayout('1x2');
      const content = { studyUid: priorContext.studyUid, seriesUid: match.seriesUid };
      setCells((c) => c.map((x, i) => (i === 1 ? content : i === 0 && !x ? (current ?? null) : x)));
      const stack = await loadSeriesStack(path.openpath, content.studyUid, content.seriesUid);
      setStacks((s) => ({ ...s, [stackKey(content)]: stack }));
      offsets.current = [0, 0, 0, 0];
      indexes.current = [indexes.current[0] ?? 0, 0, 0, 0];
      offsets.current[0] = indexes.current[0]!;
      setLinked(true);
    } catch (err) {
      void message.error(errorMessage(t, err));
    }
  };

  // Keyboard: people read all day with a hand on the keys.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable)) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const presets = presetsFor(activeModality);
      let handled = true;
      if (e.key === 'F1') void captureKeyImage();
      else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') scroll(-1);
      else if (e.key === 'ArrowDown' || e.key === 'ArrowRight') scroll(1);
      else if (e.key === 'PageUp') scroll(-10);
      else if (e.key === 'PageDown') scroll(10);
      else if (e.key === 'Home') scroll(-1e6);
      else if (e.key === 'End') scroll(1e6);
      else if (e.key === ' ') toggleCine();
      else if (e.key === 'i') invert();
      else if (e.key === 'h') flip(true);
      else if (e.key === 'v') flip(false);
      else if (e.key === '[') rotate(-90);
      else if (e.key === ']') rotate(90);
      else if (e.key === '0') reset();
      else if (e.key === '9') storedWindow();
      else if (/^[1-6]$/.test(e.key) && presets[Number(e.key) - 1]) {
        const p = presets[Number(e.key) - 1]!;
        applyPreset(p.width, p.center);
      } else if (TOOL_KEYS[e.key]) setTool(TOOL_KEYS[e.key]!);
      else handled = false;
      if (handled) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const presetMenu: MenuProps['items'] = [
    { key: 'stored', label: `${t('viewer.presets.stored')} (9)`, onClick: storedWindow },
    ...presetsFor(activeModality).map((p, i) => ({
      key: p.id,
      label: `${t(`viewer.presets.${p.id}`)} — W ${p.width} L ${p.center} (${i + 1})`,
      onClick: () => applyPreset(p.width, p.center),
    })),
  ];
  const priorMenu: MenuProps['items'] =
    priors === null
      ? [{ key: 'loading', label: t('app.loading'), disabled: true }]
      : priors.length === 0
        ? [{ key: 'none', label: t('viewer.noPriors'), disabled: true }]
        : priors.map((p) => ({
            key: p.examId,
            label: `${p.studyDate} ${p.modality} ${p.studyDescription || p.bodyPart}`,
            onClick: () => void comparePrior(p),
          }));

  const overlays = useMemo(() => new Map(studies.map((s) => [s.context.studyUid, studyOverlay(s)])), [studies]);
  const seriesInfo = (c: CellContent | null) => {
    const s = c ? studyOf(c.studyUid)?.context.series.find((x) => x.seriesUid === c.seriesUid) : undefined;
    return s ? { seriesNumber: s.seriesNumber, description: s.description } : null;
  };

  return (
    <div className="viewer-page">
      <div className="viewer-toolbar" role="toolbar">
        <Space wrap size={4}>
          {TOOL_NAMES.map((name) => (
            <Tooltip key={name} title={t(`viewer.toolTips.${name}`)}>
              <Button
                size="small"
                type={tool === name ? 'primary' : 'default'}
                onClick={() => setTool(name)}
                data-testid={`tool-${name}`}
              >
                {t(`viewer.tools.${name}`)}
              </Button>
            </Tooltip>
          ))}
          <Dropdown menu={{ items: presetMenu }} trigger={['click']}>
            <Button size="small" data-testid="presets">
              {t('viewer.window')}
            </Button>
          </Dropdown>
          <Button size="small" onClick={invert} title="I">
            {t('viewer.invert')}
          </Button>
          <Button size="small" onClick={() => rotate(90)} title="]">
            {t('viewer.rotate')}
          </Button>
          <Button size="small" onClick={() => flip(true)} title="H">
            {t('viewer.flipH')}
          </Button>
          <Button size="small" onClick={() => flip(false)} title="V">
            {t('viewer.flipV')}
          </Button>
          <Button size="small" onClick={reset} title="0">
            {t('viewer.reset')}
          </Button>
          <Button size="small" onClick={toggleCine} title={t('viewer.space')} data-testid="cine">
            {playing ? t('viewer.stop') : t('viewer.play')}
          </Button>
          <Segmented
            size="small"
            value={layout}
            options={LAYOUTS.map((l) => ({ value: l, label: l.replace('x', '×') }))}
            onChange={(v) => setLayout(v as Layout)}
          />
          {context.canCompare && (
            <Dropdown
              menu={{ items: priorMenu }}
              trigger={['click']}
              onOpenChange={(open) => open && void openPriors()}
            >
              <Button size="small" data-testid="compare">
                {t('viewer.compare')}
              </Button>
            </Dropdown>
          )}
          {layoutCells(layout) > 1 && (
            <Button size="small" type={linked ? 'primary' : 'default'} onClick={toggleLink} data-testid="link">
              {t('viewer.link')}
            </Button>
          )}
          {context.canCapture && (
            <Button
              size="small"
              loading={capturing}
              onClick={() => void captureKeyImage()}
              data-testid="key-image"
              title="F1"
            >
              {t('viewer.keyImage')} (F1)
            </Button>
          )}
        </Space>
      </div>
      <div className="viewer-body">
        <aside className="viewer-side">
          {studies.map((s) => (
            <SeriesBrowser key={s.context.studyUid} study={s} ready={ready} onOpen={(c) => show(active, c)} />
          ))}
          <section className="viewer-measurements" data-testid="measurements">
            <div className="viewer-side-title">
              {t('viewer.measurements')}
              {measurements.length > 0 && (
                <Button size="small" type="link" onClick={clearMeasurements}>
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
        </aside>
        <div ref={grid} className={`viewer-grid viewer-grid-${layout}`}>
          {[0, 1, 2, 3].slice(0, layoutCells(layout)).map((i) => (
            <div key={i} className="viewer-grid-slot">
              <ViewportCell
                index={i}
                content={cells[i] ?? null}
                stack={cells[i] ? (stacks[stackKey(cells[i])] ?? null) : null}
                overlay={cells[i] ? (overlays.get(cells[i].studyUid) ?? null) : null}
                series={seriesInfo(cells[i] ?? null)}
                active={i === active}
                ready={ready}
                onActivate={setActive}
                onDropSeries={show}
                onImageIndex={onImageIndex}
              />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

import * as core from '@cornerstonejs/core';
import * as tools from '@cornerstonejs/tools';
import { App, type MenuProps } from 'antd';
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
import { MeasurementsPanel, useMeasurements } from './MeasurementsPanel';
import { layoutCells, linkedIndex, presetsFor, type Layout } from './presets';
import { SeriesBrowser } from './SeriesBrowser';
import { TOOL_KEYS, type ToolName } from './toolNames';
import { keyCommand, viewportActions } from './viewportActions';
import { ViewerToolbar } from './ViewerToolbar';
import { ObjectView } from './ObjectView';
import { useViewerObjects } from './useViewerObjects';
import { viewportId, ViewportCell, type CellContent } from './ViewportCell';
import { studyOverlay, useArrowPrompt } from './workspaceParts';
import { usePersonName } from '../../ui/usePersonName';
import { FollowBanner, FollowButtons } from './FollowControls';
import { useFollowMode } from './useFollowMode';

/** An open study: the main one, or a prior opened for comparison (each with its own openpath). */
export interface OpenStudy {
  openpath: string;
  context: ViewerContext;
  prior: boolean;
}

const stackKey = (c: CellContent) => `${c.studyUid}|${c.seriesUid}`;

export function ViewerWorkspace(props: { openpath: string; context: ViewerContext; consultationId?: string | null }) {
  const { openpath, context } = props;
  const { t } = useTranslation();
  const personName = usePersonName();
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
  const [priors, setPriors] = useState<ViewerPrior[] | null>(null);
  const [capturing, setCapturing] = useState(false);
  const grid = useRef<HTMLDivElement>(null);
  const offsets = useRef<number[]>([0, 0, 0, 0]);
  const indexes = useRef<number[]>([0, 0, 0, 0]);
  const [measurements, setMeasurements] = useMeasurements(grid);
  const objects = useViewerObjects(studies);

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
      // A series of objects (an SR, a PDF) is shown as itself, not as a stack of images.
      if (!objects.objectOf(content.studyUid, content.seriesUid)) void loadStack(study, content);
    },
    [studyOf, loadStack, objects],
  );

  // The first series of images (else the first series) opens as soon as the study's objects are known.
  useEffect(() => {
    const first = context.series.find((x) => !objects.objectOf(context.studyUid, x.seriesUid)) ?? context.series[0];
    if (ready && first && !cells[0] && objects.loaded(context.studyUid)) {
      show(0, { studyUid: context.studyUid, seriesUid: first.seriesUid });
    }
  }, [ready, context, cells, show, objects]);
  /** An image an SR or key object names, shown beside it (the key images know its series). */
  const openImage = (index: number, studyUid: string) => (sopUid: string, frame: number | null) => {
    const key = objects.keyImagesOf(studyUid).find((k) => k.sopUid === sopUid);
    if (!key) return;
    if (layout === '1x1') setLayout('1x2');
    show(index === 0 ? 1 : 0, { studyUid, seriesUid: key.seriesUid, target: { sopUid, frame } });
  };
  const objectIn = (i: number, c: CellContent | null) => {
    const object = c ? objects.objectOf(c.studyUid, c.seriesUid) : undefined;
    const study = c ? studyOf(c.studyUid) : undefined;
    if (!c || !object || !study) return undefined;
    return (
      <ObjectView
        openpath={study.openpath}
        studyUid={c.studyUid}
        object={object}
        onOpenImage={openImage(i, c.studyUid)}
      />
    );
  };

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

  const follow = useFollowMode({
    consultationId: props.consultationId ?? null,
    ready,
    grid,
    active,
    cells,
    stacks,
    show,
    hasStudy: (studyUid) => Boolean(studyOf(studyUid)),
  });

  const viewport = useCallback(
    (index = active) => renderingEngine().getViewport(viewportId(index)) as core.StackViewport | undefined,
    [active],
  );
  const activeElement = () =>
    grid.current?.querySelector<HTMLDivElement>(`[data-testid="viewport-${active}"] .viewer-element`);
  const activeStudy = cells[active] ? studyOf(cells[active].studyUid) : undefined;
  const activeModality =
    activeStudy?.context.series.find((s) => s.seriesUid === cells[active]?.seriesUid)?.modality ?? '';

  /** Runs a viewport action on the active viewport, if it shows something. */
  const onActive =
    <A extends unknown[]>(action: (vp: core.StackViewport, ...args: A) => void) =>
    (...args: A) => {
      const vp = viewport();
      if (vp) action(vp, ...args);
    };
  const applyPreset = onActive(viewportActions.window);
  const storedWindow = onActive(viewportActions.storedWindow);
  const rotate = onActive(viewportActions.rotate);
  const flip = onActive(viewportActions.flip);
  const invert = onActive(viewportActions.invert);
  const reset = onActive(viewportActions.reset);
  const scroll = onActive(viewportActions.scroll);
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
      const command = keyCommand(e.key);
      const preset = command?.kind === 'preset' ? presetsFor(activeModality)[command.index] : undefined;
      if (command?.kind === 'keyImage') void captureKeyImage();
      else if (command?.kind === 'scroll') scroll(command.delta);
      else if (command?.kind === 'cine') toggleCine();
      else if (command?.kind === 'invert') invert();
      else if (command?.kind === 'flip') flip(command.horizontal);
      else if (command?.kind === 'rotate') rotate(command.delta);
      else if (command?.kind === 'reset') reset();
      else if (command?.kind === 'storedWindow') storedWindow();
      else if (preset) applyPreset(preset.width, preset.center);
      else if (TOOL_KEYS[e.key]) setTool(TOOL_KEYS[e.key]!);
      else return;
      e.preventDefault();
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

  const overlays = useMemo(
    () => new Map(studies.map((s) => [s.context.studyUid, studyOverlay(s, personName)])),
    [studies, personName],
  );
  const seriesInfo = (c: CellContent | null) => {
    const s = c ? studyOf(c.studyUid)?.context.series.find((x) => x.seriesUid === c.seriesUid) : undefined;
    return s ? { seriesNumber: s.seriesNumber, description: s.description } : null;
  };

  return (
    <div className="viewer-page">
      <ViewerToolbar
        tool={tool}
        onTool={setTool}
        presetMenu={presetMenu}
        onInvert={invert}
        onRotate={() => rotate(90)}
        onFlip={flip}
        onReset={reset}
        playing={playing}
        onCine={toggleCine}
        layout={layout}
        onLayout={setLayout}
        priorMenu={context.canCompare ? priorMenu : undefined}
        onOpenPriors={() => void openPriors()}
        linked={linked}
        onToggleLink={toggleLink}
        onCapture={context.canCapture ? () => void captureKeyImage() : undefined}
        capturing={capturing}
        extra={<FollowButtons follow={follow} />}
      />
      <FollowBanner follow={follow} />
      <div className="viewer-body">
        <aside className="viewer-side">
          {studies.map((s) => (
            <SeriesBrowser
              key={s.context.studyUid}
              study={s}
              ready={ready}
              objects={objects}
              onOpen={(c) => show(active, c)}
            />
          ))}
          <MeasurementsPanel measurements={measurements} onClear={clearMeasurements} />
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
                object={objectIn(i, cells[i] ?? null)}
                marks={cells[i] ? objects.marksOf(cells[i].studyUid) : undefined}
              />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

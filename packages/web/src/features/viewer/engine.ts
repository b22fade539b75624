import * as core from '@cornerstonejs/core';
import dicomImageLoader from '@cornerstonejs/dicom-image-loader';
import * as tools from '@cornerstonejs/tools';
import { VIEWER_TOKEN_HEADER } from '@yyp/contracts';
import { fetchSeriesMetadata, VIEWER_WADO_ROOT } from '../../api/viewer';
import { TOOL_NAMES, type ToolName } from './toolNames';

/**
 * Cornerstone3D for the viewer page: initialised once per tab, images read from our WADO-RS with
 * each study's signed openpath (several studies are open when comparing with a prior). Codecs are
 * the loader's own WebAssembly builds, bundled by Vite as assets of the app, so nothing is
 * fetched from elsewhere.
 */
export const RENDERING_ENGINE_ID = 'yyp-viewer';
export const TOOL_GROUP_ID = 'yyp-viewer-tools';

const tokens = new Map<string, string>();

/** The openpath that reads a study; imageIds name their study in the URL. */
export function setStudyToken(studyUid: string, openpath: string): void {
  tokens.set(studyUid, openpath);
}

function tokenForUrl(url: string): string | undefined {
  const match = /\/studies\/([^/]+)\//.exec(url);
  return match ? tokens.get(decodeURIComponent(match[1]!)) : undefined;
}

let ready: Promise<void> | null = null;

/**
 * Whether WebGL here is a software rasterizer (SwiftShader, llvmpipe: no GPU, or the GPU is
 * disabled). Then Cornerstone's CPU path draws a 2D stack faster than emulated WebGL does.
 */
export function softwareWebGl(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return true;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|software|basic render/i.test(renderer);
  } catch {
    return true;
  }
}

export function initEngine(): Promise<void> {
  ready ??= (async () => {
    core.init();
    if (softwareWebGl()) core.setUseCPURendering(true);
    dicomImageLoader.init({
      maxWebWorkers: Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1)),
      beforeSend: (_xhr, imageId) => {
        const token = tokenForUrl(imageId);
        return token ? { [VIEWER_TOKEN_HEADER]: token } : undefined;
      },
    });
    tools.init();
    for (const tool of [
      tools.StackScrollTool,
      tools.WindowLevelTool,
      tools.ZoomTool,
      tools.PanTool,
      tools.LengthTool,
      tools.AngleTool,
      tools.EllipticalROITool,
      tools.RectangleROITool,
      tools.ArrowAnnotateTool,
      tools.PlanarRotateTool,
    ]) {
      tools.addTool(tool);
    }
  })();
  return ready;
}

/** One tool group for every viewport: left button is the active tool, right zooms, middle pans, wheel scrolls. */
export function createToolGroup(getArrowText: (done: (text: string) => void) => void): tools.Types.IToolGroup {
  tools.ToolGroupManager.destroyToolGroup(TOOL_GROUP_ID);
  const group = tools.ToolGroupManager.createToolGroup(TOOL_GROUP_ID)!;
  for (const name of TOOL_NAMES) {
    if (name === 'ArrowAnnotate') {
      group.addTool(tools.ArrowAnnotateTool.toolName, {
        getTextCallback: getArrowText,
        changeTextCallback: (_data: unknown, _event: unknown, done: (text: string) => void) => getArrowText(done),
      });
    } else {
      group.addTool(toolClass(name).toolName);
    }
  }
  group.addTool(tools.StackScrollTool.toolName);
  group.setToolActive(tools.StackScrollTool.toolName, { bindings: [{ mouseButton: tools.Enums.MouseBindings.Wheel }] });
  group.setToolActive(tools.ZoomTool.toolName, {
    bindings: [{ mouseButton: tools.Enums.MouseBindings.Secondary }],
  });
  group.setToolActive(tools.PanTool.toolName, { bindings: [{ mouseButton: tools.Enums.MouseBindings.Auxiliary }] });
  return group;
}

export function toolClass(name: ToolName): { toolName: string } {
  switch (name) {
    case 'WindowLevel':
      return tools.WindowLevelTool;
    case 'Zoom':
      return tools.ZoomTool;
    case 'Pan':
      return tools.PanTool;
    case 'StackScroll':
      return tools.StackScrollTool;
    case 'Length':
      return tools.LengthTool;
    case 'Angle':
      return tools.AngleTool;
    case 'EllipticalROI':
      return tools.EllipticalROITool;
    case 'RectangleROI':
      return tools.RectangleROITool;
    case 'ArrowAnnotate':
      return tools.ArrowAnnotateTool;
    case 'PlanarRotate':
      return tools.PlanarRotateTool;
  }
}

/** Makes `name` the left-button tool; the previous one stays passive so its marks can still be edited. */
export function activateTool(group: tools.Types.IToolGroup, name: ToolName): void {
  const current = group.getActivePrimaryMouseButtonTool();
  const next = toolClass(name).toolName;
  if (current && current !== next) {
    // Zoom and pan keep their right/middle bindings; the others go passive.
    if (current === tools.ZoomTool.toolName) {
      group.setToolActive(current, { bindings: [{ mouseButton: tools.Enums.MouseBindings.Secondary }] });
    } else if (current === tools.PanTool.toolName) {
      group.setToolActive(current, { bindings: [{ mouseButton: tools.Enums.MouseBindings.Auxiliary }] });
    } else {
      group.setToolPassive(current);
    }
  }
  const extra =
    next === tools.ZoomTool.toolName
      ? [{ mouseButton: tools.Enums.MouseBindings.Secondary }]
      : next === tools.PanTool.toolName
        ? [{ mouseButton: tools.Enums.MouseBindings.Auxiliary }]
        : [];
  group.setToolActive(next, { bindings: [{ mouseButton: tools.Enums.MouseBindings.Primary }, ...extra] });
}

/** An instance of a series as the viewer stacks it. */
export interface StackImage {
  imageId: string;
  instanceNumber: number | null;
  sopUid: string;
  frame: number;
}

type DicomJson = Record<string, { vr?: string; Value?: unknown[] } | undefined>;

const first = (json: DicomJson, tag: string): unknown => json[tag]?.Value?.[0];
const num = (json: DicomJson, tag: string): number | null => {
  const v = first(json, tag);
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number.parseFloat(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/**
 * The imageIds of a series from its WADO-RS metadata, one per frame, in instance-number order
 * (then slice position), with the metadata registered for the loader.
 */
export function loadSeriesStack(openpath: string, studyUid: string, seriesUid: string): Promise<StackImage[]> {
  const key = `${studyUid}|${seriesUid}`;
  let stack = stacks.get(key);
  if (!stack) {
    stack = readSeriesStack(openpath, studyUid, seriesUid);
    // A failed read is not remembered: the next attempt asks again.
    stack.catch(() => stacks.delete(key));
    stacks.set(key, stack);
  }
  return stack;
}

const stacks = new Map<string, Promise<StackImage[]>>();

async function readSeriesStack(openpath: string, studyUid: string, seriesUid: string): Promise<StackImage[]> {
  setStudyToken(studyUid, openpath);
  const metadata = (await fetchSeriesMetadata(openpath, studyUid, seriesUid)) as DicomJson[];
  const rows = metadata.map((json) => {
    const position = json['00200032']?.Value as number[] | undefined;
    return {
      json,
      sopUid: String(first(json, '00080018') ?? ''),
      instanceNumber: num(json, '00200013'),
      z: position?.[2] ?? 0,
      frames: Math.max(1, num(json, '00280008') ?? 1),
    };
  });
  rows.sort((a, b) => (a.instanceNumber ?? 0) - (b.instanceNumber ?? 0) || a.z - b.z);
  const out: StackImage[] = [];
  for (const row of rows) {
    const base = `wadors:${VIEWER_WADO_ROOT}/studies/${studyUid}/series/${seriesUid}/instances/${row.sopUid}/frames/`;
    dicomImageLoader.wadors.metaDataManager.add(`${base}1`, row.json as never);
    for (let frame = 1; frame <= row.frames; frame++) {
      out.push({ imageId: `${base}${frame}`, instanceNumber: row.instanceNumber, sopUid: row.sopUid, frame });
    }
  }
  return out;
}

export function renderingEngine(): core.RenderingEngine {
  return (
    (core.getRenderingEngine(RENDERING_ENGINE_ID) as core.RenderingEngine | undefined) ??
    new core.RenderingEngine(RENDERING_ENGINE_ID)
  );
}

import {
  FOLLOW_TOOLS,
  fitViewState,
  sameView,
  type FollowMeasurement,
  type FollowPoint,
  type FollowTool,
  type ViewState,
} from '@yyp/contracts';
import { rangeToWindow } from './presets';

/**
 * The pure parts of shared viewing (issue 25): what the presenter's viewport shows as a view state
 * (captureView), what a follower must do to show the same (planFollow), and the marks it draws
 * (followAnnotationSpecs). Cornerstone's viewports are read through ViewportLike so these run
 * without a canvas; followCornerstone.ts does the drawing.
 */

/** The follow layer's annotations: drawn for the presenter, never sent back. */
export const FOLLOW_ANNOTATION_PREFIX = 'follow-';

/** What captureView reads of a Cornerstone stack viewport. */
export interface ViewportLike {
  getCurrentImageIdIndex(): number;
  getProperties(): { voiRange?: { lower: number; upper: number }; invert?: boolean };
  getCamera(): {
    parallelScale?: number;
    focalPoint?: readonly number[];
    flipHorizontal?: boolean;
    flipVertical?: boolean;
  };
  getRotation(): number;
}

/** An image of the shown stack (engine.ts StackImage). */
export interface FollowStackImage {
  imageId: string;
  sopUid: string;
}

/** An annotation as Cornerstone's annotation state holds it (the parts read here). */
export interface AnnotationLike {
  annotationUID?: string;
  metadata?: { toolName?: string; referencedImageId?: string };
  data?: { handles?: { points?: readonly (readonly number[])[] }; text?: string; label?: string };
}

const isFollowTool = (tool: string | undefined): tool is FollowTool =>
  (FOLLOW_TOOLS as readonly string[]).includes(tool ?? '');

const finitePoint = (p: readonly number[]): p is FollowPoint => p.length === 3 && p.every((c) => Number.isFinite(c));

/** The presenter's measurements on the shown series (its own, not the follow layer's), oldest first. */
export function captureMeasurements(
  annotations: readonly AnnotationLike[],
  stack: readonly FollowStackImage[],
): FollowMeasurement[] {
  const indexOf = new Map(stack.map((s, i) => [s.imageId, i]));
  const out: FollowMeasurement[] = [];
  for (const a of annotations) {
    const tool = a.metadata?.toolName;
    if (!isFollowTool(tool) || a.annotationUID?.startsWith(FOLLOW_ANNOTATION_PREFIX)) continue;
    const image = indexOf.get(a.metadata?.referencedImageId ?? '');
    const points = (a.data?.handles?.points ?? []).map((p) => [...p]);
    if (image === undefined || points.length === 0 || !points.every(finitePoint)) continue;
    const label = tool === 'ArrowAnnotate' ? (a.data?.text ?? a.data?.label ?? '') : undefined;
    out.push({ tool, image, points: points as FollowPoint[], ...(label ? { label } : {}) });
  }
  return out;
}

/** The view state of a viewport showing `content`, ready to send (rounded and within its byte budget). */
export function captureView(
  vp: ViewportLike,
  content: { studyUid: string; seriesUid: string },
  stack: readonly FollowStackImage[],
  annotations: readonly AnnotationLike[] = [],
): ViewState {
  const image = Math.max(0, Math.min(stack.length - 1, vp.getCurrentImageIdIndex()));
  const props = vp.getProperties();
  const camera = vp.getCamera();
  const focal = camera.focalPoint ? [...camera.focalPoint] : [];
  const sopUid = stack[image]?.sopUid;
  return fitViewState({
    studyUid: content.studyUid,
    seriesUid: content.seriesUid,
    image,
    ...(sopUid ? { sopUid } : {}),
    voi: props.voiRange ? rangeToWindow(props.voiRange) : null,
    invert: Boolean(props.invert),
    rotation: Number.isFinite(vp.getRotation()) ? vp.getRotation() : 0,
    flipH: Boolean(camera.flipHorizontal),
    flipV: Boolean(camera.flipVertical),
    camera:
      camera.parallelScale && camera.parallelScale > 0 && finitePoint(focal)
        ? { scale: camera.parallelScale, focal }
        : null,
    measurements: captureMeasurements(annotations, stack),
  });
}

/** The index of the presenter's image in the follower's stack: its SOP Instance UID decides when the stacks differ. */
export function resolveImage(target: ViewState, stack: readonly FollowStackImage[]): number {
  const clamped = Math.max(0, Math.min(stack.length - 1, target.image));
  if (!target.sopUid || stack[clamped]?.sopUid === target.sopUid) return clamped;
  const found = stack.findIndex((s) => s.sopUid === target.sopUid);
  return found >= 0 ? found : clamped;
}

/** What a follower's viewport must change; empty when it shows the presenter's view. */
export interface FollowSteps {
  image?: number;
  voi?: { center: number; width: number };
  invert?: boolean;
  presentation?: { rotation: number; flipH: boolean; flipV: boolean };
  camera?: { scale: number; focal: FollowPoint };
}

export type FollowPlan =
  /** the follower has no study of these UIDs open: it cannot follow this view */
  | { kind: 'missing-study' }
  /** show the presenter's series in the active viewport first */
  | { kind: 'show-series'; content: { studyUid: string; seriesUid: string } }
  /** the series is loading: try again shortly */
  | { kind: 'wait' }
  | { kind: 'apply'; steps: FollowSteps }
  | { kind: 'in-step' };

export interface FollowInput {
  target: ViewState;
  /** whether the follower has the target's study open */
  hasStudy: boolean;
  /** what the active viewport shows */
  shown: { studyUid: string; seriesUid: string } | null;
  /** the shown series' stack once loaded, and whether the viewport displays it */
  stack: readonly FollowStackImage[] | null;
  stackReady: boolean;
  /** the active viewport's own state (captureView), once its stack is shown */
  current: ViewState | null;
}

const sameWindow = (a: ViewState['voi'], b: NonNullable<ViewState['voi']>) =>
  a !== null && Math.abs(a.center - b.center) <= 0.5 && Math.abs(a.width - b.width) <= 0.5;

/** What a follower does next to show the presenter's view. */
export function planFollow(input: FollowInput): FollowPlan {
  const { target, shown, stack, current } = input;
  if (!input.hasStudy) return { kind: 'missing-study' };
  if (!shown || shown.studyUid !== target.studyUid || shown.seriesUid !== target.seriesUid) {
    return { kind: 'show-series', content: { studyUid: target.studyUid, seriesUid: target.seriesUid } };
  }
  if (!stack || stack.length === 0 || !input.stackReady || !current) return { kind: 'wait' };
  const want: ViewState = {
    ...target,
    image: resolveImage(target, stack),
    // nothing stated: keep the follower's own
    voi: target.voi ?? current.voi,
    camera: target.camera ?? current.camera,
  };
  if (sameView(current, want, { measurements: false })) return { kind: 'in-step' };
  const steps: FollowSteps = {};
  if (current.image !== want.image) steps.image = want.image;
  if (want.voi && !sameWindow(current.voi, want.voi)) steps.voi = want.voi;
  if (current.invert !== want.invert) steps.invert = want.invert;
  if (
    Math.abs(current.rotation - want.rotation) > 0.01 ||
    current.flipH !== want.flipH ||
    current.flipV !== want.flipV
  ) {
    steps.presentation = { rotation: want.rotation, flipH: want.flipH, flipV: want.flipV };
  }
  if (want.camera && !sameView({ ...current, camera: want.camera }, current, { measurements: false })) {
    steps.camera = want.camera;
  }
  return Object.keys(steps).length === 0 ? { kind: 'in-step' } : { kind: 'apply', steps };
}

/** An annotation of the follow layer to draw: the presenter's measurement on the follower's image. */
export interface FollowAnnotationSpec {
  uid: string;
  toolName: FollowTool;
  referencedImageId: string;
  points: FollowPoint[];
  label: string;
}

/** The follow layer for these measurements on the follower's stack (marks on images it lacks are left out). */
export function followAnnotationSpecs(
  measurements: readonly FollowMeasurement[],
  stack: readonly FollowStackImage[],
): FollowAnnotationSpec[] {
  const out: FollowAnnotationSpec[] = [];
  measurements.forEach((m, i) => {
    const image = stack[m.image];
    if (!image) return;
    out.push({
      uid: `${FOLLOW_ANNOTATION_PREFIX}${i}`,
      toolName: m.tool,
      referencedImageId: image.imageId,
      points: m.points.map((p) => [...p] as FollowPoint),
      label: m.label ?? '',
    });
  });
  return out;
}

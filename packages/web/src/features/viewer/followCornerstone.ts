import type * as core from '@cornerstonejs/core';
import * as tools from '@cornerstonejs/tools';
import { TOOL_GROUP_ID } from './engine';
import { FOLLOW_ANNOTATION_PREFIX, type FollowAnnotationSpec, type FollowSteps } from './followPlan';
import { windowToRange } from './presets';
import { showImageAt } from './showStack';

/**
 * A follower's viewport made to show the presenter's view (the steps planFollow chose), and the
 * follow layer: the presenter's measurements drawn as locked annotations of our own ids, replaced
 * as a whole at each change.
 */
export async function applyFollowSteps(vp: core.StackViewport, steps: FollowSteps): Promise<void> {
  if (steps.image !== undefined && steps.image !== vp.getCurrentImageIdIndex()) {
    try {
      await showImageAt(vp, steps.image);
    } catch {
      // an image that cannot load shows its own error; the rest still follows
    }
  }
  if (steps.voi) vp.setProperties({ voiRange: windowToRange(steps.voi.width, steps.voi.center) });
  if (steps.invert !== undefined) vp.setProperties({ invert: steps.invert });
  if (steps.presentation) {
    vp.setViewPresentation({
      rotation: steps.presentation.rotation,
      flipHorizontal: steps.presentation.flipH,
      flipVertical: steps.presentation.flipV,
    });
  }
  if (steps.camera) {
    // A pan moves the focal point and the position together (the view's direction stays).
    const camera = vp.getCamera();
    const focal = camera.focalPoint ?? [0, 0, 0];
    const position = camera.position ?? focal;
    const to = steps.camera.focal;
    vp.setCamera({
      parallelScale: steps.camera.scale,
      focalPoint: [to[0], to[1], to[2]],
      position: [position[0] + to[0] - focal[0], position[1] + to[1] - focal[1], position[2] + to[2] - focal[2]],
    });
  }
  vp.render();
}

/** Removes the follow layer's annotations; answers whether there were any. */
export function clearFollowLayer(): boolean {
  let removed = false;
  for (const a of tools.annotation.state.getAllAnnotations()) {
    if (a.annotationUID?.startsWith(FOLLOW_ANNOTATION_PREFIX)) {
      tools.annotation.state.removeAnnotation(a.annotationUID);
      removed = true;
    }
  }
  return removed;
}

/** Replaces the follow layer with these marks, on the viewport that shows their series. */
export function drawFollowLayer(vp: core.StackViewport, specs: readonly FollowAnnotationSpec[]): void {
  clearFollowLayer();
  // A tool draws its annotations only when it is not disabled (the tools not chosen yet are).
  const group = tools.ToolGroupManager.getToolGroup(TOOL_GROUP_ID);
  for (const name of new Set(specs.map((s) => s.toolName))) {
    const mode = group?.getToolOptions(name)?.mode;
    if (group && (mode === undefined || mode === tools.Enums.ToolModes.Disabled)) group.setToolPassive(name);
  }
  const camera = vp.getCamera();
  const frameOfReference = vp.getFrameOfReferenceUID();
  for (const spec of specs) {
    const annotation = {
      annotationUID: spec.uid,
      highlighted: false,
      invalidated: true,
      isLocked: true,
      isVisible: true,
      metadata: {
        toolName: spec.toolName,
        referencedImageId: spec.referencedImageId,
        FrameOfReferenceUID: frameOfReference,
        viewPlaneNormal: camera.viewPlaneNormal,
        viewUp: camera.viewUp,
      },
      data: {
        handles: {
          points: spec.points.map((p) => [...p]),
          activeHandleIndex: null,
          arrowFirst: true,
          textBox: {
            hasMoved: false,
            worldPosition: [0, 0, 0],
            worldBoundingBox: {
              topLeft: [0, 0, 0],
              topRight: [0, 0, 0],
              bottomLeft: [0, 0, 0],
              bottomRight: [0, 0, 0],
            },
          },
        },
        cachedStats: {},
        label: spec.label,
        text: spec.label,
      },
    };
    tools.annotation.state.addAnnotation(annotation as never, vp.element);
    tools.annotation.locking.setAnnotationLocked(spec.uid, true);
  }
  tools.utilities.triggerAnnotationRenderForViewportIds([vp.id]);
}

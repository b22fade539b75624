import { describe, expect, it } from 'vitest';
import type { ViewState } from '@yyp/contracts';
import {
  captureMeasurements,
  captureView,
  followAnnotationSpecs,
  planFollow,
  resolveImage,
  type FollowInput,
  type ViewportLike,
} from './followPlan';
import { windowToRange } from './presets';

const stack = Array.from({ length: 5 }, (_, i) => ({ imageId: `wadors:/s/1/i/${i}/frames/1`, sopUid: `1.9.${i}` }));
const content = { studyUid: '1.2', seriesUid: '1.2.3' };

function viewport(over: Partial<{ index: number; voi: { lower: number; upper: number } | undefined }> = {}) {
  const vp: ViewportLike = {
    getCurrentImageIdIndex: () => over.index ?? 2,
    getProperties: () => ({ voiRange: 'voi' in over ? over.voi : windowToRange(400, 40), invert: false }),
    getCamera: () => ({ parallelScale: 120.123456, focalPoint: [1.00001, 2, 30], flipHorizontal: true }),
    getRotation: () => 90,
  };
  return vp;
}

const length = {
  annotationUID: 'a1',
  metadata: { toolName: 'Length', referencedImageId: stack[2]!.imageId },
  data: { handles: { points: [[0, 0, 30] as const, [10.12345, 0, 30] as const] } },
};

describe('captureView', () => {
  it('reads the series, image and its SOP UID, window, camera, orientation and measurements', () => {
    const state = captureView(viewport(), content, stack, [length]);
    expect(state).toEqual({
      studyUid: '1.2',
      seriesUid: '1.2.3',
      image: 2,
      sopUid: '1.9.2',
      voi: { width: 400, center: 40 },
      invert: false,
      rotation: 90,
      flipH: true,
      flipV: false,
      camera: { scale: 120.123, focal: [1, 2, 30] },
      measurements: [
        {
          tool: 'Length',
          image: 2,
          points: [
            [0, 0, 30],
            [10.123, 0, 30],
          ],
        },
      ],
    });
  });

  it('sends no window when the viewport has none', () => {
    expect(captureView(viewport({ voi: undefined }), content, stack).voi).toBeNull();
  });
});

describe('captureMeasurements', () => {
  it('keeps the follow tools on images of the stack, never the follow layer itself', () => {
    const arrow = {
      annotationUID: 'a2',
      metadata: { toolName: 'ArrowAnnotate', referencedImageId: stack[4]!.imageId },
      data: { handles: { points: [[1, 1, 1] as const, [2, 2, 2] as const] }, text: '结节' },
    };
    const probe = { ...length, annotationUID: 'a3', metadata: { ...length.metadata, toolName: 'Probe' } };
    const elsewhere = { ...length, annotationUID: 'a4', metadata: { ...length.metadata, referencedImageId: 'x' } };
    const mirrored = { ...length, annotationUID: 'follow-0' };
    const broken = { ...length, annotationUID: 'a5', data: { handles: { points: [[Number.NaN, 0, 0] as const] } } };
    const got = captureMeasurements([length, arrow, probe, elsewhere, mirrored, broken], stack);
    expect(got.map((m) => [m.tool, m.image, m.label])).toEqual([
      ['Length', 2, undefined],
      ['ArrowAnnotate', 4, '结节'],
    ]);
  });
});

describe('resolveImage', () => {
  const target = captureView(viewport(), content, stack);
  it('takes the index when its SOP UID agrees, else finds the SOP UID, else clamps', () => {
    expect(resolveImage(target, stack)).toBe(2);
    const shifted = [stack[4]!, ...stack.slice(0, 4)];
    expect(resolveImage(target, shifted)).toBe(3);
    expect(resolveImage({ ...target, sopUid: '9.9' }, stack)).toBe(2);
    expect(resolveImage({ ...target, image: 40, sopUid: undefined }, stack)).toBe(4);
  });
});

describe('planFollow', () => {
  const target: ViewState = captureView(viewport({ index: 3 }), content, stack, [length]);
  const base: FollowInput = {
    target,
    hasStudy: true,
    shown: content,
    stack,
    stackReady: true,
    current: captureView(viewport({ index: 3 }), content, stack),
  };

  it('is in step when the picture is the same (the marks are drawn apart)', () => {
    expect(planFollow(base)).toEqual({ kind: 'in-step' });
  });

  it('cannot follow a study it has not open', () => {
    expect(planFollow({ ...base, hasStudy: false })).toEqual({ kind: 'missing-study' });
  });

  it('shows the series first, then waits for its stack', () => {
    expect(planFollow({ ...base, shown: null })).toEqual({ kind: 'show-series', content });
    expect(planFollow({ ...base, shown: { ...content, seriesUid: '7' } })).toEqual({ kind: 'show-series', content });
    expect(planFollow({ ...base, stack: null })).toEqual({ kind: 'wait' });
    expect(planFollow({ ...base, stackReady: false })).toEqual({ kind: 'wait' });
    expect(planFollow({ ...base, current: null })).toEqual({ kind: 'wait' });
  });

  it('changes only what differs', () => {
    const current = base.current!;
    expect(planFollow({ ...base, current: { ...current, image: 0 } })).toEqual({
      kind: 'apply',
      steps: { image: 3 },
    });
    expect(planFollow({ ...base, current: { ...current, voi: { center: 300, width: 1500 }, invert: true } })).toEqual({
      kind: 'apply',
      steps: { voi: { center: 40, width: 400 }, invert: false },
    });
    expect(planFollow({ ...base, current: { ...current, voi: null } })).toEqual({
      kind: 'apply',
      steps: { voi: { center: 40, width: 400 } },
    });
    expect(planFollow({ ...base, current: { ...current, rotation: 0, flipH: false } })).toEqual({
      kind: 'apply',
      steps: { presentation: { rotation: 90, flipH: true, flipV: false } },
    });
    expect(planFollow({ ...base, current: { ...current, camera: { scale: 60, focal: [0, 0, 30] } } })).toEqual({
      kind: 'apply',
      steps: { camera: target.camera },
    });
  });

  it('keeps the follower’s own window and camera when the presenter states none', () => {
    const current = { ...base.current!, voi: { center: 300, width: 1500 }, camera: { scale: 9, focal: [0, 0, 0] } };
    expect(
      planFollow({ ...base, target: { ...target, voi: null, camera: null }, current: current as ViewState }),
    ).toEqual({ kind: 'in-step' });
  });
});

describe('followAnnotationSpecs', () => {
  it('puts each measurement on the follower’s image, leaving out images it lacks', () => {
    const specs = followAnnotationSpecs(
      [
        {
          tool: 'Length',
          image: 2,
          points: [
            [0, 0, 30],
            [1, 0, 30],
          ],
        },
        { tool: 'ArrowAnnotate', image: 9, points: [[0, 0, 0]], label: 'x' },
        {
          tool: 'ArrowAnnotate',
          image: 4,
          points: [
            [0, 0, 0],
            [1, 1, 1],
          ],
          label: '结节',
        },
      ],
      stack,
    );
    expect(specs).toEqual([
      {
        uid: 'follow-0',
        toolName: 'Length',
        referencedImageId: stack[2]!.imageId,
        points: [
          [0, 0, 30],
          [1, 0, 30],
        ],
        label: '',
      },
      {
        uid: 'follow-2',
        toolName: 'ArrowAnnotate',
        referencedImageId: stack[4]!.imageId,
        points: [
          [0, 0, 0],
          [1, 1, 1],
        ],
        label: '结节',
      },
    ]);
  });
});

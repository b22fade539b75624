import type * as core from '@cornerstonejs/core';
import { windowToRange } from './presets';

/**
 * What the toolbar and the keyboard do to one stack viewport: window presets, rotation, flips,
 * inversion, reset and scrolling. Each renders the viewport afterwards.
 */
export const viewportActions = {
  window(vp: core.StackViewport, width: number, center: number) {
    vp.setProperties({ voiRange: windowToRange(width, center) });
    vp.render();
  },
  /** Back to the window stored in the images. */
  storedWindow(vp: core.StackViewport) {
    vp.resetProperties();
    vp.render();
  },
  rotate(vp: core.StackViewport, delta: number) {
    vp.setViewPresentation({ rotation: (((vp.getRotation() + delta) % 360) + 360) % 360 });
    vp.render();
  },
  flip(vp: core.StackViewport, horizontal: boolean) {
    const camera = vp.getCamera();
    vp.setCamera(horizontal ? { flipHorizontal: !camera.flipHorizontal } : { flipVertical: !camera.flipVertical });
    vp.render();
  },
  invert(vp: core.StackViewport) {
    vp.setProperties({ invert: !vp.getProperties().invert });
    vp.render();
  },
  reset(vp: core.StackViewport) {
    // The CPU renderer's camera reset keeps rotation and flips: undo them explicitly first.
    vp.setViewPresentation({ rotation: 0, flipHorizontal: false, flipVertical: false });
    vp.resetCamera();
    vp.resetProperties();
    vp.render();
  },
  scroll(vp: core.StackViewport, delta: number) {
    // From the image being moved to, not the one shown: keys held down must not lose steps.
    const target = Math.min(vp.getImageIds().length - 1, Math.max(0, vp.getTargetImageIdIndex() + delta));
    void vp.setImageIdIndex(target);
  },
};

/** A viewer command a key stands for (without modifiers); tools and presets are looked up apart. */
export type KeyCommand =
  | { kind: 'keyImage' }
  | { kind: 'scroll'; delta: number }
  | { kind: 'cine' }
  | { kind: 'invert' }
  | { kind: 'flip'; horizontal: boolean }
  | { kind: 'rotate'; delta: number }
  | { kind: 'reset' }
  | { kind: 'storedWindow' }
  | { kind: 'preset'; index: number };

const KEYS: Record<string, KeyCommand> = {
  F1: { kind: 'keyImage' },
  ArrowUp: { kind: 'scroll', delta: -1 },
  ArrowLeft: { kind: 'scroll', delta: -1 },
  ArrowDown: { kind: 'scroll', delta: 1 },
  ArrowRight: { kind: 'scroll', delta: 1 },
  PageUp: { kind: 'scroll', delta: -10 },
  PageDown: { kind: 'scroll', delta: 10 },
  Home: { kind: 'scroll', delta: -1e6 },
  End: { kind: 'scroll', delta: 1e6 },
  ' ': { kind: 'cine' },
  i: { kind: 'invert' },
  h: { kind: 'flip', horizontal: true },
  v: { kind: 'flip', horizontal: false },
  '[': { kind: 'rotate', delta: -90 },
  ']': { kind: 'rotate', delta: 90 },
  '0': { kind: 'reset' },
  '9': { kind: 'storedWindow' },
};

/** The command of a key: 1–6 choose the modality's window presets. */
export function keyCommand(key: string): KeyCommand | undefined {
  if (/^[1-6]$/.test(key)) return { kind: 'preset', index: Number(key) - 1 };
  return Object.hasOwn(KEYS, key) ? KEYS[key] : undefined;
}

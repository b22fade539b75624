import { Enums } from '@cornerstonejs/core';

/** What showStack needs of a Cornerstone stack viewport. */
export interface StackHost {
  element: HTMLDivElement;
  setStack: (imageIds: string[], currentImageIdIndex?: number) => Promise<string>;
}

/**
 * Sets a viewport's stack at image `at` and settles once an image of it is on the canvas.
 *
 * setStack's own promise is not enough: with CPU rendering (no GPU, or a software WebGL) a load
 * that another image superseded before it arrived is dropped without settling its promise
 * (StackViewport._loadAndDisplayImageCPU returns early when the index moved on). A scroll, a key
 * image or a linked viewport that moves the stack while its first image loads would then leave
 * the caller waiting forever. So the first STACK_NEW_IMAGE of one of these images counts too: it
 * is dispatched while Cornerstone displays the image, and the caller's `then` runs after that.
 */
export function showStack(viewport: StackHost, imageIds: string[], at: number): Promise<void> {
  return shownOrSettled(viewport.element, imageIds, () => viewport.setStack(imageIds, at));
}

/** What showImageAt needs of a Cornerstone stack viewport. */
export interface ImageHost {
  element: HTMLDivElement;
  getImageIds: () => string[];
  setImageIdIndex: (index: number) => Promise<string>;
}

/**
 * Moves a viewport to image `index` of its stack and settles once an image of the stack is shown,
 * for the same reason as showStack: a move superseded by another (the user scrolls while a
 * followed presenter's image loads) never settles setImageIdIndex's promise under CPU rendering.
 */
export function showImageAt(viewport: ImageHost, index: number): Promise<void> {
  return shownOrSettled(viewport.element, viewport.getImageIds(), () => viewport.setImageIdIndex(index));
}

/** Runs `start` and settles with it, or at the first STACK_NEW_IMAGE of one of `imageIds`. */
function shownOrSettled(el: HTMLDivElement, imageIds: string[], start: () => Promise<unknown>): Promise<void> {
  const ours = new Set(imageIds);
  return new Promise<void>((resolve, reject) => {
    const done = () => el.removeEventListener(Enums.Events.STACK_NEW_IMAGE, onNewImage);
    const onNewImage = (evt: Event) => {
      if (!ours.has((evt as CustomEvent<{ imageId?: string }>).detail?.imageId ?? '')) return;
      done();
      resolve();
    };
    el.addEventListener(Enums.Events.STACK_NEW_IMAGE, onNewImage);
    start().then(
      () => {
        done();
        resolve();
      },
      (err: unknown) => {
        done();
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

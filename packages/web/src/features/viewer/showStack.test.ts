// @vitest-environment jsdom
import { Enums } from '@cornerstonejs/core';
import { describe, expect, it } from 'vitest';
import { showImageAt, showStack, type ImageHost, type StackHost } from './showStack';

const IDS = ['wadors:a/frames/1', 'wadors:b/frames/1', 'wadors:c/frames/1'];

/**
 * A stand-in for Cornerstone's CPU-rendered stack viewport: setStack's promise is whatever the
 * test says, and the test dispatches STACK_NEW_IMAGE as Cornerstone does when an image is shown.
 */
function host(answer: Promise<string>) {
  const element = document.createElement('div');
  const calls: [string[], number | undefined][] = [];
  const viewport: StackHost = {
    element,
    setStack: (imageIds, at) => {
      calls.push([imageIds, at]);
      return answer;
    },
  };
  const showImage = (imageId: string) =>
    element.dispatchEvent(new CustomEvent(Enums.Events.STACK_NEW_IMAGE, { detail: { imageId } }));
  return { viewport, calls, showImage };
}

const settled = async (p: Promise<void>) => {
  let state = 'pending';
  p.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await new Promise((r) => setTimeout(r, 0));
  return state;
};

describe('showStack', () => {
  it('opens the stack at the image asked for and settles with setStack', async () => {
    const { viewport, calls } = host(Promise.resolve(IDS[2]!));
    await showStack(viewport, IDS, 2);
    expect(calls).toEqual([[IDS, 2]]);
  });

  it('settles when an image of the stack is shown though setStack never does (its load superseded)', async () => {
    const { viewport, showImage } = host(new Promise<string>(() => {}));
    const shown = showStack(viewport, IDS, 0);
    expect(await settled(shown)).toBe('pending');
    // An image of another stack (the one the cell showed before) does not count.
    showImage('wadors:other/frames/1');
    expect(await settled(shown)).toBe('pending');
    // The image a scroll moved to while the first loaded.
    showImage(IDS[1]!);
    expect(await settled(shown)).toBe('resolved');
  });

  it('fails when setStack fails and nothing was shown', async () => {
    const { viewport } = host(Promise.reject(new Error('index 5 is invalid')));
    await expect(showStack(viewport, IDS, 5)).rejects.toThrow('index 5 is invalid');
  });
});

describe('showImageAt', () => {
  it('settles when an image of the stack is shown though setImageIdIndex never does', async () => {
    const element = document.createElement('div');
    const asked: number[] = [];
    const viewport: ImageHost = {
      element,
      getImageIds: () => IDS,
      setImageIdIndex: (i) => {
        asked.push(i);
        return new Promise<string>(() => {});
      },
    };
    const moved = showImageAt(viewport, 2);
    expect(asked).toEqual([2]);
    expect(await settled(moved)).toBe('pending');
    element.dispatchEvent(new CustomEvent(Enums.Events.STACK_NEW_IMAGE, { detail: { imageId: IDS[0] } }));
    expect(await settled(moved)).toBe('resolved');
  });

  it('settles with setImageIdIndex when it settles', async () => {
    const viewport: ImageHost = {
      element: document.createElement('div'),
      getImageIds: () => IDS,
      setImageIdIndex: () => Promise.resolve(IDS[1]!),
    };
    await showImageAt(viewport, 1);
  });
});

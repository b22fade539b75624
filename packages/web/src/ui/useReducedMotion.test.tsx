import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useReducedMotion } from './useReducedMotion';

function Probe() {
  return <span>{useReducedMotion() ? 'still' : 'moving'}</span>;
}

/** A media query list whose answer the test sets, telling its listeners as a browser would. */
function fakeMedia(initial: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    matches: initial,
    media: '(prefers-reduced-motion: reduce)',
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  };
  const set = (value: boolean) => {
    list.matches = value;
    listeners.forEach((fn) => fn());
  };
  return { list, set, listeners };
}

describe('useReducedMotion', () => {
  const original = window.matchMedia;
  afterEach(() => {
    window.matchMedia = original;
  });

  it('follows the system preference and its changes, and lets go of the listener on unmount', () => {
    const media = fakeMedia(true);
    const ask = vi.fn((query: string) => {
      expect(query).toBe('(prefers-reduced-motion: reduce)');
      return media.list as unknown as MediaQueryList;
    });
    window.matchMedia = ask;
    const view = render(<Probe />);
    expect(screen.getByText('still')).toBeTruthy();
    act(() => media.set(false));
    expect(screen.getByText('moving')).toBeTruthy();
    act(() => media.set(true));
    expect(screen.getByText('still')).toBeTruthy();
    view.unmount();
    expect(media.listeners.size).toBe(0);
  });

  it('is false where the browser cannot tell', () => {
    window.matchMedia = undefined as unknown as typeof window.matchMedia;
    render(<Probe />);
    expect(screen.getByText('moving')).toBeTruthy();
  });
});

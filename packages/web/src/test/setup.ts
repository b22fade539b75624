import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { sessionStore } from '../api/sessionStore';
import { setLanguage } from '../i18n';

// Route chunks load lazily and Ant Design renders a lot: give findBy* more than the default second.
// A first render of the whole signed-in shell took over 3 s when the int and web tiers shared the
// 2 cores (ProceduresTab, GroupsPage, OrgPlanCard failed on findBy* that way in full runs; AppShell's
// first render passed 10 s on a busy machine on 2026-11-28, so 20 s); a passing wait still ends as
// soon as the element is there.
configure({ asyncUtilTimeout: 20_000 });

// jsdom lacks the layout APIs Ant Design's responsive components ask for.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// Ant Design measures scrollbars through getComputedStyle(el, '::pseudo'), which jsdom does not implement.
const computeStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computeStyle(element);

// Tests read and assert English text unless they switch language themselves.
beforeEach(async () => {
  await setLanguage('en');
});

afterEach(() => {
  cleanup();
  sessionStore.signOut();
  sessionStore.dismissInactiveLogout();
  localStorage.clear();
  sessionStorage.clear();
  vi.useRealTimers();
});

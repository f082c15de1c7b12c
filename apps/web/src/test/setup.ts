import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';

// findBy*/waitFor wait up to 5 s: a lazy route's first chunk can take more than the default 1 s on a busy
// 2-core CI machine, and a passing test never waits that long.
//
// `*ByRole` queries include hidden elements by default (`defaultHidden`): deciding whether an element is hidden
// calls jsdom's getComputedStyle on it and its ancestors, which matches every rule of antd's injected CSS —
// about 60 ms a call here, so one getByRole on a form page took a second. A query that must skip hidden
// elements (antd's aria-hidden measure rows, closed popups) passes `{ hidden: false }`.
configure({ asyncUtilTimeout: 5000, defaultHidden: true });

// jsdom lacks the layout APIs antd reaches for; these stubs keep components rendering in tests.

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
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
  Object.defineProperty(window, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverStub,
  });
}

// jsdom throws "Not implemented" for pseudo-element styles, which antd's scrollbar measuring asks for.
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// jsdom logs "Not implemented: window.scrollTo"; tests that care spy on it.
window.scrollTo = vi.fn() as typeof window.scrollTo;

afterEach(async () => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  // Let React finish work it scheduled during the unmount (scheduler uses setImmediate) while the jsdom
  // window still exists; otherwise it runs after the environment is torn down ("window is not defined").
  await new Promise((resolve) => setImmediate(resolve));
});

// antd's motions (tree expand, drawers, notices) end with a React update a few hundred ms after a test; let
// them land before this file's jsdom is torn down, or React's scheduler throws "window is not defined".
afterAll(() => new Promise((resolve) => setTimeout(resolve, 800)));

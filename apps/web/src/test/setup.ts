import '@testing-library/jest-dom/vitest';
import { act, cleanup, configure } from '@testing-library/react';
import { Modal, message, notification } from 'antd';
import { afterEach, beforeEach, vi } from 'vitest';
import { queryClient } from '@/lib/antd-providers.tsx';
import { resetAppState, resetTransport } from './jsdom.ts';

// findBy*/waitFor wait up to 5 s: a lazy route's first chunk can take more than the default 1 s on a busy
// 2-core CI machine, and a passing test never waits that long.
//
// `*ByRole` queries include hidden elements by default (`defaultHidden`): deciding whether an element is hidden
// calls jsdom's getComputedStyle on it and its ancestors, which matches every rule of antd's injected CSS —
// about 60 ms a call here, so one getByRole on a form page took a second. A query that must skip hidden
// elements (antd's aria-hidden measure rows, closed popups) passes `{ hidden: false }`.
configure({ asyncUtilTimeout: 5000, defaultHidden: true });

// jsdom logs "Not implemented: window.scrollTo"; tests that care spy on it.
window.scrollTo = vi.fn() as typeof window.scrollTo;

/**
 * Closes antd's notices, messages and dialogs opened outside the rendered trees (the HTTP error policy's), in act
 * like cleanup's unmount, so React's work for them is done now and not after the test file's jsdom is gone.
 */
async function closeNotices(): Promise<void> {
  await act(async () => {
    Modal.destroyAll();
    message.destroy();
    notification.destroy();
  });
}

// One raised while the previous test file ended (the error policy loads antd's dialogs on demand) is closed too.
beforeEach(closeNotices);

// Each test starts as on a fresh page. The web test files share one module graph and one jsdom per worker
// (vite.config.ts), so what a test leaves behind is put away after it: its rendered trees, antd's notices and
// dialogs opened outside them, the app's cached queries, storage, the app's stores and the address.
afterEach(async () => {
  cleanup();
  await closeNotices();
  queryClient.clear();
  // Stores first: a persisted one writes as it is put back, and the storage is emptied after.
  resetAppState();
  resetTransport();
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  // Let React finish work it scheduled during the unmount (scheduler uses setImmediate) while the jsdom
  // window still exists; otherwise it runs after the environment is torn down ("window is not defined").
  await new Promise((resolve) => setImmediate(resolve));
});

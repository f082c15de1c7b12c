// The jsdom window as the web tests need it. setup.ts imports it: the setup file runs again for each test file,
// this module once per module graph, so nothing here is patched twice.
import { theme } from 'antd';
import { resetDictCache } from '@/lib/dict.tsx';
import { CanceledError, http, resetHttp, type Transport } from '@/lib/http.ts';
import { useNotificationStore } from '@/lib/notifications/store.ts';
import { useAppStore } from '@/stores/app.ts';
import { usePermissionStore } from '@/stores/permission.ts';
import { useSettingsStore } from '@/stores/settings.ts';
import { useTagsViewStore } from '@/stores/tagsView.ts';
import { useUserStore } from '@/stores/user.ts';

// antd's motions off, through the theme: every ConfigProvider (the app's, or none) starts from the default
// seed token. jsdom reports CSS transitions but never ends one, so each opening or closing popup, drawer,
// notice or collapse otherwise waits out its motion deadline on a real timer, and its last update can land
// after the test.
theme.defaultSeed.motion = false;

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

// Computed styles, remembered until the DOM changes. jsdom works out every property it is asked for from the
// cascade of antd's injected CSS, walking up the tree for inherited ones, on every read; the accessible name of
// each role query (visibility of every node inside), user-event's pointer-events check on every ancestor and
// jest-dom's toBeVisible ask for the same elements again and again. jsdom itself keeps each element's cascade
// until a node, an attribute or a style sheet changes; a value read here is kept exactly as long.
// jsdom throws "Not implemented" for pseudo-element styles, which antd's scrollbar measuring asks for: those
// calls get the element's own style.
const jsdomComputedStyle = window.getComputedStyle.bind(window);
type Remembered = { style: CSSStyleDeclaration; values: Map<string | symbol, unknown> };
let computed = new WeakMap<Element, Remembered>();
const forget = () => {
  computed = new WeakMap();
};
const changes = new MutationObserver(forget);
changes.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
for (const method of ['insertRule', 'deleteRule', 'replaceSync'] as const) {
  const original = CSSStyleSheet.prototype[method] as (...args: unknown[]) => unknown;
  CSSStyleSheet.prototype[method] = function (this: CSSStyleSheet, ...args: unknown[]) {
    forget();
    return original.apply(this, args);
  } as never;
}
function rememberedStyle(element: Element): Remembered {
  // Changes made since the last call are still queued for the observer: collect them now.
  if (changes.takeRecords().length) forget();
  let entry = computed.get(element);
  if (!entry) {
    entry = { style: jsdomComputedStyle(element), values: new Map() };
    computed.set(element, entry);
  }
  return entry;
}
function read(element: Element, key: string | symbol, value: (style: CSSStyleDeclaration) => unknown) {
  const { style, values } = rememberedStyle(element);
  if (!values.has(key)) values.set(key, value(style));
  const result = values.get(key);
  return typeof result === 'function' ? result.bind(style) : result;
}
function getComputedStyle(element: Element): CSSStyleDeclaration {
  if (!(element instanceof Element)) return jsdomComputedStyle(element);
  return new Proxy(rememberedStyle(element).style, {
    get: (_, key) =>
      key === 'getPropertyValue'
        ? (property: string) => read(element, `(${property})`, (style) => style.getPropertyValue(property))
        : read(element, key, (style) => Reflect.get(style, key, style)),
  });
}
window.getComputedStyle = getComputedStyle as typeof window.getComputedStyle;
globalThis.getComputedStyle = window.getComputedStyle;

// No test reaches the network: a call no mock answers is cancelled, as an unmounted page's calls are, so it
// raises no error notice. A page still mounted after its test's mocks are restored (its file's after-hooks run
// before the setup file's cleanup) would otherwise ask the network, and the notice land in a later test.
const noNetwork: Transport = (config) => Promise.reject(new CanceledError(config));
http.transport = noNetwork;

/** After a test: no network again, whatever transport the test put in (setup.ts). */
export function resetTransport(): void {
  http.transport = noNetwork;
}

// The app's stores as a fresh page has them, taken once (before any test file ran, storage empty): the test files
// share one module graph per worker, so each test ends by putting them back (setup.ts), and a file never starts
// from what an earlier one left (a signed-in user, loaded menus, open tags).
const STORES = [
  useUserStore,
  usePermissionStore,
  useAppStore,
  useSettingsStore,
  useTagsViewStore,
  useNotificationStore,
];
const FRESH = STORES.map((store) => store.getState());

/** Puts the app's module-level state back as on a fresh page: stores, the dictionary cache, the HTTP policy. */
export function resetAppState(): void {
  STORES.forEach((store, i) => {
    (store.setState as (state: unknown, replace: true) => void)(FRESH[i], true);
  });
  resetDictCache();
  resetHttp();
}

/** The signed-out user store as a fresh page has it (for tests that sign a fake user in). */
export const freshUserState = FRESH[0] as ReturnType<typeof useUserStore.getState>;

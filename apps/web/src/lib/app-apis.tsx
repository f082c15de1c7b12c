/*
 * antd's App context (message, notification, modal: what `App.useApp()` answers) without antd's App component in
 * the first load. antd's App renders the three holders at once, so its module brings the modal, the notification
 * and the message code (and, through the modal, antd's form and skeleton): about half of antd's providers' chunk,
 * for a signed-in screen that shows none of them. Here `App.useApp()` answers the same methods, and the holders'
 * code loads on the user's first press or key, or on the first call (calls made meanwhile wait for it, in order).
 */
import AppContext, { type useAppProps } from 'antd/es/app/context';
import useStyle from 'antd/es/app/style';
import { ConfigContext } from 'antd/es/config-provider/context';
import type { MessageInstance, MessageType } from 'antd/es/message/interface';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { lazy, type ReactNode, Suspense, useContext, useEffect, useMemo, useState } from 'react';

export type AppApis = useAppProps;

const Holders = lazy(() => import('./app-holders.tsx'));

/**
 * The App context's methods, as `App.useApp()` gives them. Pages and the shell read them here: importing antd's App
 * for its `useApp` would bring the holders' code into every page's first load.
 */
export const useAppApis = (): AppApis => useContext(AppContext);

type Handle<T> = { value: T };

/** A message's handle before the message exists: closes it, and settles when it closes, as antd's does. */
function laterMessage(made: Promise<Handle<MessageType>>): MessageType {
  const close = () => void made.then((h) => h.value());
  return Object.assign(close, {
    // biome-ignore lint/suspicious/noThenProperty: antd's MessageType is a thenable; this one stands for it.
    then: <A, B>(ok?: (closed: boolean) => A, fail?: (reason: unknown) => B) =>
      made.then((h) => h.value).then(ok, fail),
  }) as MessageType;
}

type ModalHandle = ReturnType<ModalApi['confirm']>;

/** A dialog's handle before the dialog exists: update, destroy, and the answer, as antd's hook gives them. */
function laterModal(made: Promise<Handle<ModalHandle>>): ModalHandle {
  return {
    destroy: () => void made.then((h) => h.value.destroy()),
    update: (config) => void made.then((h) => h.value.update(config)),
    // biome-ignore lint/suspicious/noThenProperty: antd's dialog handle is a thenable; this one stands for it.
    then: <T,>(ok: (confirmed: boolean) => T, fail: () => void) =>
      made.then((h) => h.value.then(ok, fail), fail) as Promise<T>,
  };
}

/** Where the methods come from: the holders' once mounted; till then a promise of them, and how to ask for them. */
interface Source {
  real: AppApis | null;
  ready: Promise<AppApis>;
  wake(): void;
}

/** The methods: once the holders are there, antd's own, called at once; before, each waits for them, in order. */
function laterApis(source: Source): AppApis {
  const run = <T,>(use: (apis: AppApis) => T, stand: (made: Promise<Handle<T>>) => T): T => {
    if (source.real) return use(source.real);
    source.wake();
    return stand(source.ready.then((apis) => ({ value: use(apis) })));
  };
  const nothing = () => undefined;
  const message = Object.fromEntries(
    (['info', 'success', 'error', 'warning', 'loading'] as const).map((kind) => [
      kind,
      (...args: Parameters<MessageInstance['info']>) => run((a) => a.message[kind](...args), laterMessage),
    ]),
  ) as Pick<MessageInstance, 'info' | 'success' | 'error' | 'warning' | 'loading'>;
  const notification = Object.fromEntries(
    (['success', 'error', 'info', 'warning', 'open'] as const).map((kind) => [
      kind,
      (...args: Parameters<NotificationInstance['open']>) =>
        run((a) => a.notification[kind](...args), nothing),
    ]),
  ) as Pick<NotificationInstance, 'success' | 'error' | 'info' | 'warning' | 'open'>;
  const modal = Object.fromEntries(
    (['info', 'success', 'error', 'warning', 'confirm'] as const).map((kind) => [
      kind,
      (...args: Parameters<ModalApi['confirm']>) => run((a) => a.modal[kind](...args), laterModal),
    ]),
  ) as ModalApi;
  return {
    message: {
      ...message,
      open: (args) => run((a) => a.message.open(args), laterMessage),
      destroy: (key) => run((a) => a.message.destroy(key), nothing),
    },
    notification: { ...notification, destroy: (key) => run((a) => a.notification.destroy(key), nothing) },
    modal,
  };
}

/** In place of antd's `<App>`: its context (methods loaded on first use) and its root's text styles (`.ant-app`). */
export function LazyApp({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useStyle(prefixCls);
  const [woken, setWoken] = useState(false);
  const { apis, settle } = useMemo(() => {
    let resolve: (apis: AppApis) => void = () => {};
    const ready = new Promise<AppApis>((done) => {
      resolve = done;
    });
    const source: Source = { real: null, ready, wake: () => setWoken(true) };
    const settle = (real: AppApis) => {
      source.real = real;
      resolve(real);
    };
    return { apis: laterApis(source), settle };
  }, []);
  // A message or a dialog mostly answers something the user did: their first press or key asks for the holders'
  // code, so it is there (and a message shows at once, as antd's App shows it) by the time one is called.
  useEffect(() => {
    if (woken) return;
    const wake = () => setWoken(true);
    const events = ['pointerdown', 'keydown'] as const;
    for (const event of events) document.addEventListener(event, wake, { capture: true, once: true });
    return () => {
      for (const event of events) document.removeEventListener(event, wake, { capture: true });
    };
  }, [woken]);
  return (
    <AppContext.Provider value={apis}>
      <div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>
        {woken && (
          <Suspense fallback={null}>
            <Holders onReady={settle} />
          </Suspense>
        )}
        {children}
      </div>
    </AppContext.Provider>
  );
}

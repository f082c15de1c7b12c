// The dialogs the HTTP error policy (lib/http.ts) shows, and the adapter from antd's APIs to them. Kept apart
// from the client so that the on-demand antd dialogs (lib/http-static-ui.ts) need not import the client.

type ConfirmOptions = {
  title: string;
  content: string;
  okText: string;
  cancelText: string;
  onOk: () => Promise<void>;
  onCancel: () => void;
};

/** The two dialogs the error policy shows; antd by default, a recorder in tests. */
export type HttpUi = {
  confirm: (options: ConfirmOptions) => void;
  error: (message: string, durationMs: number) => void;
};

type ModalApi = { confirm: (props: ConfirmOptions) => unknown };
type NotificationApi = { error: (args: { key: string; title: string; duration: number }) => void };

/** Adapts antd's modal and notification APIs (static or from App.useApp()) to the policy's UI. */
export function antdHttpUi(modal: ModalApi, notice: NotificationApi): HttpUi {
  return {
    confirm: (options) => void modal.confirm(options),
    // One notice per distinct message: calls failing together with the same words show it once (the notice's key
    // is its text, so a repeat replaces it and restarts its time). antd counts durations in seconds.
    error: (message, durationMs) =>
      notice.error({ key: `http-error:${message}`, title: message, duration: durationMs / 1000 }),
  };
}

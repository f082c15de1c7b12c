// Loaded on demand by the HTTP client (lib/http.ts) when it must show a dialog outside antd's providers.
import { Modal, notification } from 'antd';
import { antdHttpUi, type HttpUi } from './http-ui.ts';

const ui = antdHttpUi(Modal, notification);

/** antd's static modal and notification as the error policy's UI. */
export function staticAntdUi(): HttpUi {
  return ui;
}

import { ERROR_NOTICE_MS, HTTP_TIMEOUT_MS } from '@piibs/shared/constants';
import axios, { type AxiosError, type AxiosRequestConfig } from 'axios';
import { authorization, removeToken } from './auth-storage.ts';
import type { HttpUi } from './http-ui.ts';
import { FORBIDDEN_PATH } from './paths.ts';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Resolve with the whole response (headers too) instead of its body: downloads read Content-Disposition. */
    rawResponse?: boolean;
    /**
     * The caller shows the server's refusal (400, 404, 409 …) beside its form, so the policy does not
     * notify it as well. 401, 403, timeouts and network failures still follow the policy.
     */
    inlineErrors?: boolean;
    /**
     * With inlineErrors: a 403 is shown by the caller too, instead of leading to the 401 page. For a form's
     * save that the server refuses on a rule ("角色权限不足 …"), where leaving the page would lose the form.
     */
    inlineForbidden?: boolean;
    /**
     * A background call whose caller handles every failure itself (the notification feed retrying while
     * offline): no notice, no re-login dialog, no redirect.
     */
    silent?: boolean;
  }
}

// Spec §8 texts, word for word.
export const HTTP_TEXTS = Object.freeze({
  sessionExpired: '登录状态已过期，您可以继续留在该页面，或者重新登录',
  sessionExpiredTitle: '系统提示',
  relogin: '重新登录',
  cancel: '取消',
  timeout: '网络请求超时',
  failed: '接口请求失败',
});

type HttpDeps = {
  ui: HttpUi;
  navigate: (to: string) => void;
  /** Ends the session before the reload that follows a confirmed 401; the user store replaces it. */
  onLogout: () => void | Promise<void>;
  reload: () => void;
};

/**
 * antd's static dialogs, loaded when the first one must be shown: the login page's first load does not
 * carry antd (docs/ARCHITECTURE "Performance"). The antd providers' route swaps in context-aware ones.
 */
export const staticHttpUi: HttpUi = {
  confirm: (options) => {
    void import('./http-static-ui.ts').then(({ staticAntdUi }) => staticAntdUi().confirm(options));
  },
  error: (message, durationMs) => {
    void import('./http-static-ui.ts').then(({ staticAntdUi }) => staticAntdUi().error(message, durationMs));
  },
};

const defaults: HttpDeps = {
  // Works before the React tree mounts and on pages without antd's providers.
  ui: staticHttpUi,
  // A full page load is the only navigation possible before the router exists; the router replaces it.
  navigate: (to) => window.location.assign(to),
  onLogout: removeToken,
  reload: () => window.location.reload(),
};

let deps: HttpDeps = { ...defaults };
let reloginPending = false;

/** Injects the UI, navigation and logout hooks the error policy calls. */
export function configureHttp(overrides: Partial<HttpDeps>): void {
  deps = { ...deps, ...overrides };
}

/** Restores the defaults; for tests. */
export function resetHttp(): void {
  deps = { ...defaults };
  reloginPending = false;
}

/** The one HTTP client. Interceptors resolve with the response body and apply the spec §8 error policy. */
export const http = axios.create({
  baseURL: '/',
  timeout: HTTP_TIMEOUT_MS,
  // JSON by default (spec §7). A FormData upload must set its own multipart Content-Type, or axios
  // serialises the form to JSON because of this default.
  headers: { 'Content-Type': 'application/json' },
});

http.interceptors.request.use((config) => {
  const value = authorization();
  if (value) config.headers.Authorization = value;
  return config;
});

type ErrorBody = { message?: unknown };

function confirmRelogin(): void {
  // Parallel calls failing together must not stack one dialog per call.
  if (reloginPending) return;
  reloginPending = true;
  deps.ui.confirm({
    title: HTTP_TEXTS.sessionExpiredTitle,
    content: HTTP_TEXTS.sessionExpired,
    okText: HTTP_TEXTS.relogin,
    cancelText: HTTP_TEXTS.cancel,
    onOk: async () => {
      try {
        await deps.onLogout();
      } catch {
        // Reload anyway: the user asked to sign in again, and the reloaded page re-checks the session.
      }
      deps.reload();
    },
    onCancel: () => {
      reloginPending = false;
    },
  });
}

function isTimeout(error: AxiosError): boolean {
  return error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT' || /timeout/i.test(error.message);
}

/** A download's error answer arrives as a Blob; its JSON body carries the message. */
async function readBlobBody(data: Blob): Promise<unknown> {
  try {
    return JSON.parse(await data.text());
  } catch {
    return undefined;
  }
}

http.interceptors.response.use(
  (response) => (response.config.rawResponse ? response : response.data),
  async (error: unknown) => {
    // A cancelled call (unmounted page, superseded query) is not a failure the user needs to hear about.
    if (axios.isCancel(error) || !axios.isAxiosError(error) || error.config?.silent)
      return Promise.reject(error);
    if (error.response && typeof Blob !== 'undefined' && error.response.data instanceof Blob) {
      error.response.data = await readBlobBody(error.response.data);
    }
    const status = error.response?.status;
    if (!status) {
      deps.ui.error(isTimeout(error) ? HTTP_TEXTS.timeout : HTTP_TEXTS.failed, ERROR_NOTICE_MS);
    } else if (status === 401) {
      confirmRelogin();
    } else if (status === 403) {
      if (!(error.config?.inlineErrors && error.config.inlineForbidden)) deps.navigate(FORBIDDEN_PATH);
    } else if (!error.config?.inlineErrors) {
      const message = (error.response?.data as ErrorBody | undefined)?.message;
      if (typeof message === 'string' && message) deps.ui.error(message, ERROR_NOTICE_MS);
    }
    return Promise.reject(error);
  },
);

/** A call through the shared client, typed by its response body. */
export async function request<T>(config: AxiosRequestConfig): Promise<T> {
  // The response interceptor resolves with the body, which axios' own typings cannot express.
  const body: unknown = await http.request(config);
  return body as T;
}

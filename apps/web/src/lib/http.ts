import { ERROR_NOTICE_MS, HTTP_TIMEOUT_MS } from '@piibs/shared/constants';
import { authorization, removeToken } from './auth-storage.ts';
import type { HttpUi } from './http-ui.ts';
import { FORBIDDEN_PATH } from './paths.ts';

/** A call through the shared client. */
export interface RequestConfig {
  /** Relative to the site's root ('api/menus'); an absolute address goes as it is. */
  url: string;
  method?: string;
  /** The query: null and undefined are left out, arrays as `key[]`, dates in ISO form, objects as JSON. */
  params?: object;
  /** The body: FormData, URLSearchParams, a string or a Blob as they are, anything else as JSON. */
  data?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Milliseconds; the client's is 20 minutes. */
  timeout?: number;
  responseType?: 'json' | 'blob';
  onUploadProgress?: (progress: { loaded: number; total?: number }) => void;
  /** Which statuses answer the call; the others reject it through the error policy. 2xx by default. */
  validateStatus?: (status: number) => boolean;
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

/** A call as it goes out: its method in lower case, its headers set and its body serialised. */
export interface SentRequest extends RequestConfig {
  method: string;
  headers: Record<string, string>;
  timeout: number;
}

/** An answer, whatever its status. Header names are in lower case. */
export interface HttpResponse<T = unknown> {
  data: T;
  status: number;
  headers: Record<string, string>;
}

/** What carries a call: XMLHttpRequest in the browser, a table of answers in tests. */
export type Transport = (request: SentRequest) => Promise<HttpResponse>;

type ErrorCode = 'ECONNABORTED' | 'ERR_NETWORK' | 'ERR_BAD_RESPONSE' | 'ERR_CANCELED';

/** A failed call: a refusal (`response` holds the server's answer), a timeout, a network failure. */
export class HttpError extends Error {
  readonly code: ErrorCode;
  readonly config: SentRequest | undefined;
  readonly response: HttpResponse | undefined;

  constructor(message: string, code: ErrorCode, config?: SentRequest, response?: HttpResponse) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.config = config;
    this.response = response;
  }
}

/** A call given up by its caller (an unmounted page, a superseded query): no failure to tell anyone about. */
export class CanceledError extends HttpError {
  constructor(config?: SentRequest) {
    super('canceled', 'ERR_CANCELED', config);
    this.name = 'CanceledError';
  }
}

export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError;

/** The server's answer to a call it refused, or undefined for a network failure, a timeout or a cancel. */
export const refusalOf = (error: unknown): HttpResponse | undefined =>
  error instanceof HttpError ? error.response : undefined;

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

/** A query value as text: dates in ISO form, objects as JSON. */
const paramText = (value: unknown): string =>
  value instanceof Date
    ? value.toISOString()
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** encodeURIComponent with the characters a query may carry as they are, and spaces as '+'. */
const encodeParam = (text: string): string =>
  encodeURIComponent(text)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');

/** The address of a call: under the site's root, with its query. */
export function urlOf(url: string, params?: object): string {
  const base = /^[a-z][a-z\d+.-]*:/i.test(url) ? url : `/${url.replace(/^\/+/, '')}`;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === null || value === undefined) continue;
    const name = Array.isArray(value) ? `${key}[]` : key;
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined)
        parts.push(`${encodeParam(name)}=${encodeParam(paramText(item))}`);
    }
  }
  if (!parts.length) return base;
  const [path, hash] = base.split('#', 2) as [string, string | undefined];
  return `${path}${path.includes('?') ? '&' : '?'}${parts.join('&')}${hash === undefined ? '' : `#${hash}`}`;
}

/** The call with its token, its body serialised and the Content-Type that body needs. */
function prepare(config: RequestConfig): SentRequest {
  const headers: Record<string, string> = {
    Accept: 'application/json, text/plain, */*',
    // JSON by default (spec §7).
    'Content-Type': 'application/json',
    ...config.headers,
  };
  // The stored session's token, unless the call names one (a password change before the session is stored).
  const token = headers.Authorization ? undefined : authorization();
  if (token) headers.Authorization = token;
  let data = config.data;
  // No body, no Content-Type; a form's is the browser's to write (the multipart boundary).
  if (data === undefined || data instanceof FormData || data instanceof URLSearchParams)
    delete headers['Content-Type'];
  else if (!(typeof data === 'string' || data instanceof Blob || data instanceof ArrayBuffer))
    data = JSON.stringify(data);
  return {
    ...config,
    method: (config.method ?? 'get').toLowerCase(),
    headers,
    data,
    timeout: config.timeout ?? HTTP_TIMEOUT_MS,
  };
}

/** A JSON body as its value; any other text as it is. */
function parseBody(text: string): unknown {
  if (!text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return headers;
}

/** The browser's transport (XMLHttpRequest: unlike fetch, it reports an upload's progress). */
export const xhrTransport: Transport = (request) =>
  new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(new CanceledError(request));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(request.method.toUpperCase(), urlOf(request.url, request.params), true);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.timeout = request.timeout;
    xhr.responseType = request.responseType === 'blob' ? 'blob' : 'text';
    const progress = request.onUploadProgress;
    if (progress && xhr.upload) {
      xhr.upload.onprogress = (event) =>
        progress({ loaded: event.loaded, total: event.lengthComputable ? event.total : undefined });
    }
    const onAbort = () => xhr.abort();
    const done = () => request.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      done();
      resolve({
        status: xhr.status,
        data: xhr.responseType === 'blob' ? xhr.response : parseBody(xhr.responseText),
        headers: parseHeaders(xhr.getAllResponseHeaders()),
      });
    };
    xhr.onerror = () => {
      done();
      reject(new HttpError('Network Error', 'ERR_NETWORK', request));
    };
    xhr.ontimeout = () => {
      done();
      reject(new HttpError(`timeout of ${request.timeout}ms exceeded`, 'ECONNABORTED', request));
    };
    xhr.onabort = () => {
      done();
      reject(new CanceledError(request));
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send((request.data as XMLHttpRequestBodyInit | undefined) ?? null);
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

/** A download's error answer arrives as a Blob; its JSON body carries the message. */
async function readBlobBody(data: Blob): Promise<unknown> {
  try {
    return JSON.parse(await data.text());
  } catch {
    return undefined;
  }
}

/** Spec §8: what the user is told of a failed call, then the failure for the caller. */
async function failed(error: unknown): Promise<never> {
  // A cancelled call (unmounted page, superseded query) is not a failure the user needs to hear about.
  if (!(error instanceof HttpError) || error instanceof CanceledError || error.config?.silent) throw error;
  const { config, response } = error;
  if (!response) {
    deps.ui.error(error.code === 'ECONNABORTED' ? HTTP_TEXTS.timeout : HTTP_TEXTS.failed, ERROR_NOTICE_MS);
  } else if (response.status === 401) {
    confirmRelogin();
  } else if (response.status === 403) {
    if (!(config?.inlineErrors && config.inlineForbidden)) deps.navigate(FORBIDDEN_PATH);
  } else if (!config?.inlineErrors) {
    const message = (response.data as ErrorBody | undefined)?.message;
    if (typeof message === 'string' && message) deps.ui.error(message, ERROR_NOTICE_MS);
  }
  throw error;
}

async function send(config: RequestConfig): Promise<unknown> {
  const sent = prepare(config);
  let response: HttpResponse;
  try {
    response = await http.transport(sent);
  } catch (error) {
    return failed(error);
  }
  const valid = sent.validateStatus ?? ((status: number) => status >= 200 && status < 300);
  if (!valid(response.status)) {
    if (response.data instanceof Blob) {
      response = { ...response, data: await readBlobBody(response.data) };
    }
    return failed(
      new HttpError(`Request failed with status code ${response.status}`, 'ERR_BAD_RESPONSE', sent, response),
    );
  }
  return sent.rawResponse ? response : response.data;
}

/** The shared client's transport, which tests replace with a table of answers (test/mock-api.ts). */
export const http: { transport: Transport } = { transport: xhrTransport };

/**
 * A call through the shared client under the spec §8 policy, typed by its response body (by the whole response,
 * headers too, with `rawResponse`).
 */
export async function request<T>(config: RequestConfig): Promise<T> {
  return (await send(config)) as T;
}

import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CanceledError,
  configureHttp,
  HttpError,
  type HttpResponse,
  http,
  request,
  type SentRequest,
  urlOf,
} from './http.ts';
import type { HttpUi } from './http-ui.ts';

type Confirm = Parameters<HttpUi['confirm']>[0];

let confirms: Confirm[];
let errors: { message: string; durationMs: number }[];
let navigate: ReturnType<typeof vi.fn<(to: string) => void>>;
let onLogout: ReturnType<typeof vi.fn<() => Promise<void>>>;
let reload: ReturnType<typeof vi.fn<() => void>>;
let seen: SentRequest[];

function mockNetwork(answer: (config: SentRequest) => HttpResponse): void {
  http.transport = async (config) => {
    seen.push(config);
    return answer(config);
  };
}

const respond = (status: number, data: unknown) => (): HttpResponse => ({ data, status, headers: {} });

beforeEach(() => {
  confirms = [];
  errors = [];
  seen = [];
  navigate = vi.fn<(to: string) => void>();
  onLogout = vi.fn<() => Promise<void>>(async () => {});
  reload = vi.fn<() => void>();
  configureHttp({
    ui: {
      confirm: (options) => confirms.push(options),
      error: (message, durationMs) => errors.push({ message, durationMs }),
    },
    navigate,
    onLogout,
    reload,
  });
});

describe('calls (spec §7)', () => {
  it('the Authorization header carries the token stored under EL-ADMIN-TOEKN', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 'tok-123');
    mockNetwork(respond(200, {}));
    await request({ url: 'api/auth/info' });
    expect(seen[0]?.headers.Authorization).toBe('Bearer tok-123');
  });

  it('a hand-off bearer token from session storage is sent as it is', async () => {
    sessionStorage.setItem('EL-ADMIN-TOEKN', 'Bearer handoff');
    mockNetwork(respond(200, {}));
    await request({ url: 'api/auth/info' });
    expect(seen[0]?.headers.Authorization).toBe('Bearer handoff');
  });

  it('sends no Authorization header without a token', async () => {
    mockNetwork(respond(200, {}));
    await request({ url: 'api/init/check' });
    expect(seen[0]?.headers.Authorization).toBeUndefined();
  });

  it('the content type defaults to JSON, with the 20-minute timeout, under the site root', async () => {
    mockNetwork(respond(200, {}));
    await request({ url: 'api/menus', method: 'post', data: { a: 1 } });
    expect(seen[0]?.headers['Content-Type']).toBe('application/json');
    expect(seen[0]?.data).toBe('{"a":1}');
    expect(seen[0]?.timeout).toBe(1_200_000);
    expect(urlOf(seen[0]!.url)).toBe('/api/menus');
  });

  it('a successful call resolves with the response body', async () => {
    mockNetwork(respond(200, { token: 't', user: { roles: [] } }));
    await expect(request({ url: 'api/auth/login' })).resolves.toEqual({ token: 't', user: { roles: [] } });
    expect(errors).toEqual([]);
  });
});

describe('error catalogue (spec §8)', () => {
  it('401: confirm box with the session-expired text, title and buttons; the call is rejected', async () => {
    mockNetwork(respond(401, { status: 401, message: '未登录' }));
    await expect(request({ url: 'api/auth/info' })).rejects.toBeInstanceOf(HttpError);
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toMatchObject({
      content: '登录状态已过期，您可以继续留在该页面，或者重新登录',
      title: '系统提示',
      okText: '重新登录',
      cancelText: '取消',
    });
    expect(errors).toEqual([]);
  });

  it('401: on confirm the user is logged out, then the page reloads', async () => {
    const order: string[] = [];
    onLogout.mockImplementation(async () => {
      order.push('logout');
    });
    reload.mockImplementation(() => order.push('reload'));
    mockNetwork(respond(401, {}));
    await request({ url: 'api/auth/info' }).catch(() => {});
    await confirms[0]?.onOk();
    expect(order).toEqual(['logout', 'reload']);
  });

  it('401: the page reloads even when logging out fails', async () => {
    onLogout.mockRejectedValue(new Error('offline'));
    mockNetwork(respond(401, {}));
    await request({ url: 'api/auth/info' }).catch(() => {});
    await confirms[0]?.onOk();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('401: only one confirm box at a time, another after cancel', async () => {
    mockNetwork(respond(401, {}));
    await Promise.allSettled([request({ url: 'a' }), request({ url: 'b' }), request({ url: 'c' })]);
    expect(confirms).toHaveLength(1);
    confirms[0]?.onCancel();
    expect(onLogout).not.toHaveBeenCalled();
    await request({ url: 'd' }).catch(() => {});
    expect(confirms).toHaveLength(2);
  });

  it('403: goes to /piibs/401', async () => {
    mockNetwork(respond(403, { status: 403, message: '无权访问' }));
    await expect(request({ url: 'api/menus' })).rejects.toBeInstanceOf(HttpError);
    expect(navigate).toHaveBeenCalledWith('/piibs/401');
    expect(errors).toEqual([]);
  });

  it("other error status: shows the server's message for 5 seconds and rejects the call", async () => {
    mockNetwork(respond(400, { status: 400, message: '手机号：请输入正确的11位手机号码' }));
    await expect(request({ url: 'api/x' })).rejects.toBeInstanceOf(HttpError);
    expect(errors).toEqual([{ message: '手机号：请输入正确的11位手机号码', durationMs: 5000 }]);
  });

  it('other error status without a server message: nothing is shown, the call is rejected', async () => {
    mockNetwork(respond(502, '<html>Bad Gateway</html>'));
    await expect(request({ url: 'api/x' })).rejects.toBeInstanceOf(HttpError);
    expect(errors).toEqual([]);
  });

  it('timeout: 网络请求超时 for 5 seconds', async () => {
    mockNetwork((config) => {
      throw new HttpError('timeout of 1200000ms exceeded', 'ECONNABORTED', config);
    });
    await expect(request({ url: 'api/x' })).rejects.toBeInstanceOf(HttpError);
    expect(errors).toEqual([{ message: '网络请求超时', durationMs: 5000 }]);
  });

  it('error with no status: 接口请求失败 for 5 seconds', async () => {
    mockNetwork((config) => {
      throw new HttpError('Network Error', 'ERR_NETWORK', config);
    });
    await expect(request({ url: 'api/x' })).rejects.toBeInstanceOf(HttpError);
    expect(errors).toEqual([{ message: '接口请求失败', durationMs: 5000 }]);
  });

  it('a cancelled call is rejected without a notice', async () => {
    mockNetwork(() => {
      throw new CanceledError();
    });
    await expect(request({ url: 'api/x' })).rejects.toBeInstanceOf(CanceledError);
    expect(errors).toEqual([]);
  });
});

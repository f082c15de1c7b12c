// The shared client over a real HTTP server: jsdom's XMLHttpRequest, as the browser's, and Node's http server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CanceledError,
  configureHttp,
  HttpError,
  type HttpResponse,
  http,
  request,
  urlOf,
  xhrTransport,
} from './http.ts';

type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

let server: Server;
let base: string;
let errors: string[];

/** jsdom enforces CORS like a browser (its page is on another port): every answer allows the test's page. */
function allow(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', req.headers['access-control-request-method'] ?? 'GET');
  res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '');
  res.setHeader('Access-Control-Expose-Headers', 'Content-Disposition');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    allow(req, res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      const seen: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      if (path === '/api/echo') json(res, 200, seen);
      else if (path === '/api/refused')
        json(res, 400, { status: 400, message: '手机号：请输入正确的11位手机号码' });
      else if (path === '/api/text') res.writeHead(200, { 'Content-Type': 'text/plain' }).end('不是 JSON');
      else if (path === '/api/slow') setTimeout(() => json(res, 200, {}), 1000);
      else if (path === '/api/file') {
        res.writeHead(200, {
          'Content-Type': 'text/csv',
          'Content-Disposition': "attachment; filename*=UTF-8''%E5%AF%BC%E5%87%BA.csv",
        });
        res.end('a,b\n1,2\n');
      } else if (path === '/api/file-refused') json(res, 404, { status: 404, message: '文件不存在' });
      else json(res, 404, { status: 404, message: '不存在' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  errors = [];
  http.transport = xhrTransport;
  configureHttp({ ui: { confirm: () => {}, error: (message) => errors.push(message) } });
});

describe('the shared client over HTTP', () => {
  it('sends the query, the token and a JSON body; a JSON answer comes back as its value', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 'tok-1');
    const seen = await request<Seen>({
      url: `${base}/api/echo`,
      method: 'post',
      params: { page: 0, blurry: '示例 a&b', sort: ['updatedAt,desc', 'id'], none: null, gone: undefined },
      data: { name: '示例企业', amount: 12_345 },
    });
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe(
      `/api/echo?page=0&blurry=${encodeURIComponent('示例')}+a%26b&sort[]=updatedAt,desc&sort[]=id`,
    );
    expect(seen.headers.authorization).toBe('Bearer tok-1');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({ name: '示例企业', amount: 12_345 });
  });

  it('a call without a body sends no Content-Type (a server refuses an empty JSON body)', async () => {
    const seen = await request<Seen>({ url: `${base}/api/echo`, method: 'post' });
    expect(seen.headers['content-type']).toBeUndefined();
    expect(seen.body).toBe('');
  });

  it('a token the call names wins over the stored one', async () => {
    localStorage.setItem('EL-ADMIN-TOEKN', 'stored');
    const seen = await request<Seen>({ url: `${base}/api/echo`, headers: { Authorization: 'Bearer own' } });
    expect(seen.headers.authorization).toBe('Bearer own');
  });

  it('a form goes as multipart with its boundary, and its upload progress is told', async () => {
    const form = new FormData();
    form.append('docType', '营业执照');
    form.append('file', new Blob(['x'.repeat(4096)], { type: 'image/png' }), '执照.png');
    const progress: number[] = [];
    const seen = await request<Seen>({
      url: `${base}/api/echo`,
      method: 'post',
      data: form,
      onUploadProgress: ({ loaded, total }) => {
        if (total) progress.push(loaded / total);
      },
    });
    expect(seen.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen.body).toContain('营业执照');
    expect(seen.body).toContain('filename="执照.png"');
    expect(progress.at(-1)).toBe(1);
  });

  it('a form-encoded sign-in goes as the text it is, under its own Content-Type', async () => {
    const seen = await request<Seen>({
      url: `${base}/api/echo`,
      method: 'post',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      data: new URLSearchParams({ username: 'admin', code: '0000' }).toString(),
    });
    expect(seen.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(seen.body).toBe('username=admin&code=0000');
  });

  it("a refusal rejects with the server's status and body, and shows its message", async () => {
    const failure = await request({ url: `${base}/api/refused` }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).response).toMatchObject({
      status: 400,
      data: { message: '手机号：请输入正确的11位手机号码' },
    });
    expect(errors).toEqual(['手机号：请输入正确的11位手机号码']);
  });

  it('an answer that is not JSON comes back as its text', async () => {
    await expect(request({ url: `${base}/api/text` })).resolves.toBe('不是 JSON');
  });

  it('a download is a Blob with the answer’s headers; a refused one shows its JSON message', async () => {
    const file = await request<HttpResponse<Blob>>({
      url: `${base}/api/file`,
      responseType: 'blob',
      rawResponse: true,
    });
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toContain('filename*=');
    expect(await file.data.text()).toBe('a,b\n1,2\n');

    const refused = await request({ url: `${base}/api/file-refused`, responseType: 'blob' }).catch(
      (error: unknown) => error,
    );
    expect((refused as HttpError).response?.data).toEqual({ status: 404, message: '文件不存在' });
    expect(errors).toEqual(['文件不存在']);
  });

  it('a call past its timeout: 网络请求超时', async () => {
    const failure = await request({ url: `${base}/api/slow`, timeout: 100 }).catch((error: unknown) => error);
    expect((failure as HttpError).code).toBe('ECONNABORTED');
    expect(errors).toEqual(['网络请求超时']);
  });

  it('a call its caller gives up is rejected as cancelled, with no notice', async () => {
    const controller = new AbortController();
    const pending = request({ url: `${base}/api/slow`, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(CanceledError);
    await expect(request({ url: `${base}/api/echo`, signal: controller.signal })).rejects.toBeInstanceOf(
      CanceledError,
    );
    expect(errors).toEqual([]);
  });

  it('no server: 接口请求失败', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = await request({ url: `http://127.0.0.1:${port}/api/x` }).catch((error: unknown) => error);
    expect((failure as HttpError).code).toBe('ERR_NETWORK');
    expect(errors).toEqual(['接口请求失败']);
  });
});

describe('urlOf', () => {
  it('puts a relative address under the site root and keeps an absolute one', () => {
    expect(urlOf('api/menus')).toBe('/api/menus');
    expect(urlOf('/api/menus')).toBe('/api/menus');
    expect(urlOf('https://pay.example/cashier')).toBe('https://pay.example/cashier');
  });

  it('adds the query after one already in the address, dates in ISO form, objects as JSON', () => {
    expect(urlOf('api/x?a=1', { at: new Date(Date.UTC(2026, 0, 2)), f: { k: 1 } })).toBe(
      `/api/x?a=1&at=2026-01-02T00:00:00.000Z&f=${encodeURIComponent('{"k":1}').replace(/%3A/g, ':').replace(/%2C/g, ',')}`,
    );
  });
});

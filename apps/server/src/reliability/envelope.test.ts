// The refusals that happen before a route's handler runs — Node's HTTP parser (431 headers or query too large,
// 400 unreadable requests), the body parsers (413, 415, malformed or empty JSON), the router (404 of unknown
// paths, 405 of a known path asked with another method) — answer the same `{ status, message }` envelope with a
// Chinese message as every other error. Node's refusals only happen on a real socket, so this file listens on a
// loopback port of its own.
import { request } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { envelopeProblem, type Response } from './openapi.ts';

let t: TestContext;
let port = 0;
beforeAll(async () => {
  // No built web app (whatever the checkout holds): its pages then answer the envelope too.
  t = await createTestApp({ webDist: path.join(os.tmpdir(), 'piibs-no-web-build') });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address();
  port = typeof addr === 'object' && addr ? addr.port : 0;
});
afterAll(() => t.close());

/** One request on a fresh connection (a refused request closes its connection). */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Bytes written as they are (what no HTTP client library would send), the answer read until the server closes. */
function sendRaw(bytes: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ statusCode: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

function expectEnvelope(res: Response, status: number, message?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(envelopeProblem(res, { binary: false })).toBeNull();
  if (message) expect(JSON.parse(res.body).message).toBe(message);
}

describe("Node's own refusals", () => {
  it('headers over 16 KB: 431 in the envelope', async () => {
    const res = await send('GET', '/api/health/live', { 'x-padding': 'a'.repeat(20_000) });
    expectEnvelope(res, 431, '请求头或请求地址过长');
  });

  it('a query string over 16 KB: 431 in the envelope', async () => {
    const res = await send('GET', `/api/customers?name=${'a'.repeat(20_000)}`);
    expectEnvelope(res, 431, '请求头或请求地址过长');
  });

  it('a request the HTTP parser cannot read: 400 in the envelope', async () => {
    for (const bytes of [
      'GET /api/health/live HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n{}',
      'NOT-HTTP AT ALL\r\n\r\n',
    ]) {
      const res = await sendRaw(bytes);
      expectEnvelope(res, 400, '请求格式不正确');
    }
  });
});

describe('the body parsers', () => {
  it('a body over 2 MB: 413', async () => {
    const body = JSON.stringify({ username: 'a'.repeat(3_000_000), password: 'x' });
    const res = await send('POST', '/api/auth/login', { 'content-type': 'application/json' }, body);
    expectEnvelope(res, 413, '请求内容过大');
  });

  it('a content type the route does not read: 415', async () => {
    const res = await send('POST', '/api/auth/login', { 'content-type': 'text/xml' }, '<a/>');
    expectEnvelope(res, 415, '不支持的请求内容类型');
  });

  it('malformed and empty JSON: 400', async () => {
    const json = { 'content-type': 'application/json' };
    expectEnvelope(
      await send('POST', '/api/auth/login', json, '{"username":'),
      400,
      '请求内容不是有效的 JSON',
    );
    expectEnvelope(await send('POST', '/api/auth/login', json, ''), 400, '请求内容不能为空');
  });
});

describe('the router', () => {
  it('an unknown /api path: 404', async () => {
    const res = await send('GET', '/api/no/such/thing');
    expectEnvelope(res, 404, '接口不存在：GET /api/no/such/thing');
  });

  it('a known /api path asked with another method: 405 and the methods it takes (Allow)', async () => {
    const res = await send('PATCH', '/api/health');
    expectEnvelope(res, 405, '接口不支持 PATCH 请求（可用：GET、HEAD）');
    expect(res.headers.allow).toBe('GET, HEAD');
    const put = await send('PUT', '/api/auth/login', { 'content-type': 'application/json' }, '{}');
    expectEnvelope(put, 405);
    expect(put.headers.allow).toBe('POST');
    // A path with a parameter is matched as the route it belongs to.
    expectEnvelope(await send('PATCH', '/api/applications/1'), 405);
  });

  it('outside /api: a missing asset, a page without the built web app, another method: 404 in the envelope', async () => {
    for (const [method, path] of [
      ['GET', '/assets/missing-1234.js'],
      ['GET', '/favicon-missing.png'],
      ['GET', '/piibs/dashboard'],
      ['POST', '/piibs/dashboard'],
      ['DELETE', '/no/such/page'],
    ] as const) {
      const res = await send(method, path);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(envelopeProblem(res, { binary: false }), `${method} ${path}`).toBeNull();
    }
  });
});

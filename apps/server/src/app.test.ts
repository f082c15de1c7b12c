import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../test/helpers.ts';

let t: TestContext;
beforeAll(async () => {
  // A throwaway route to prove the validation policy end to end.
  t = await createTestApp({}, (app) =>
    app.post(
      '/api/__test/echo',
      {
        config: { auth: 'public' },
        schema: {
          body: z.object({
            phone: z
              .string()
              .regex(/^1\d{10}$/, '请输入正确的11位手机号码')
              .meta({ title: '手机号' }),
            count: z.number().int().meta({ title: '数量' }),
          }),
        },
      },
      async (req) => req.body,
    ),
  );
});
afterAll(() => t.close());

describe('GET /api/health (CONTRACT)', () => {
  it('answers 200 with status ok, database postgres, embedded flag and version when the database answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', database: 'postgres', version: t.config.version });
    expect(typeof body.embedded).toBe('boolean');
  });

  it('/api/health/live answers 200 without a session (the liveness probe and the benchmark baseline)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });
});

describe('error envelope { status, message }', () => {
  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no/such/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 404, message: '接口不存在：GET /api/no/such/thing' });
  });

  it('answers bad input with 400 naming the field in Chinese, never 5xx', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/__test/echo',
      payload: { phone: '123', count: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      status: 400,
      message: '手机号：请输入正确的11位手机号码',
      errors: [{ field: 'phone', message: '请输入正确的11位手机号码' }],
    });

    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/__test/echo',
      payload: { phone: '13800138000' },
    });
    expect(missing.json()).toEqual({
      status: 400,
      message: '数量：不能为空',
      errors: [{ field: 'count', message: '不能为空' }],
    });

    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/__test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"phone":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('请求内容不是有效的 JSON');
  });
});

describe('compressed answers', () => {
  it('an answer over 1 KB goes gzipped to a client that accepts it, the same JSON; others go plain', async () => {
    const url = '/api/docs/json';
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    // As Chromium asks.
    const gz = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    // A client that takes only brotli, and a small answer, go plain.
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBeUndefined();
    expect(br.json()).toEqual(plain.json());
    const small = await t.app.inject({
      method: 'GET',
      url: '/api/health/live',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 'ok' });
  });
});

describe('security headers', () => {
  it('sends a CSP that allows nothing external', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('routes of the SPA', () => {
  it('redirects / and /piibs to /piibs/dashboard', async () => {
    for (const url of ['/', '/piibs', '/piibs/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/piibs/dashboard');
    }
  });
});

describe('OpenAPI document', () => {
  it('is served at /api/docs/json with the health route and a Swagger UI at /api/docs', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
    expect(doc.json().paths['/api/health']).toBeDefined();
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
    expect(ui.body).not.toMatch(/<script[^>]+src="https?:/);
  });
});

// HTTPS served by PIIBS itself: the settings refuse what would not work, and a server started with them answers
// browsers over HTTP/2, other clients over HTTP/1.1, and the notification feed's WebSocket over wss. Real server
// on a port, real TLS handshakes (ALPN), certificates from the demo CA.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestContext } from '../../test/helpers.ts';
import { createRootCa, createSelfSignedEnterpriseCert, issueServerCert } from '../ca/demo-ca.ts';
import { loadConfig } from '../config.ts';
import { tlsSettingsFrom } from './tls.ts';

const ca = createRootCa();
const server = issueServerCert(ca, ['127.0.0.1', 'localhost']);
const dir = mkdtempSync(path.join(os.tmpdir(), 'piibs-tls-'));
const file = (name: string, text: string) => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};
const certFile = file('server.crt', server.certPem);
const keyFile = file('server.key', server.keyPem);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('PIIBS_TLS_CERT and PIIBS_TLS_KEY', () => {
  it('neither: plain HTTP, the public URL http://', () => {
    const config = loadConfig({ JWT_SECRET: 'x'.repeat(32), DATA_DIR: dir, PORT: '8443' });
    expect(config.tls).toBeNull();
    expect(config.business.publicUrl).toBe('http://127.0.0.1:8443');
  });

  it('both: the PEM texts, the public URL https://', () => {
    const config = loadConfig({
      JWT_SECRET: 'x'.repeat(32),
      DATA_DIR: dir,
      PORT: '8443',
      PIIBS_TLS_CERT: certFile,
      PIIBS_TLS_KEY: keyFile,
    });
    expect(config.tls).toEqual({ cert: server.certPem, key: server.keyPem });
    expect(config.business.publicUrl).toBe('https://127.0.0.1:8443');
  });

  it('refuses to start on what would fail in every browser, naming the setting', () => {
    const other = createSelfSignedEnterpriseCert({ uscc: '91320000MA1XXXXX0X', name: '另一家' });
    const expired = issueServerCert(ca, ['127.0.0.1'], {
      notBefore: new Date(Date.now() - 100 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    });
    const refusal = (env: Record<string, string>) => {
      try {
        tlsSettingsFrom(env);
      } catch (err) {
        return (err as Error).message;
      }
      return 'started';
    };
    expect(refusal({ PIIBS_TLS_CERT: certFile })).toBe(
      'PIIBS_TLS_CERT and PIIBS_TLS_KEY go together: PIIBS_TLS_KEY is not set',
    );
    expect(refusal({ PIIBS_TLS_KEY: keyFile })).toBe(
      'PIIBS_TLS_CERT and PIIBS_TLS_KEY go together: PIIBS_TLS_CERT is not set',
    );
    expect(refusal({ PIIBS_TLS_CERT: path.join(dir, 'none.crt'), PIIBS_TLS_KEY: keyFile })).toBe(
      `PIIBS_TLS_CERT: cannot read "${path.join(dir, 'none.crt')}" (ENOENT)`,
    );
    expect(refusal({ PIIBS_TLS_CERT: keyFile, PIIBS_TLS_KEY: keyFile })).toBe(
      `PIIBS_TLS_CERT: "${keyFile}" holds no PEM certificate`,
    );
    expect(refusal({ PIIBS_TLS_CERT: certFile, PIIBS_TLS_KEY: certFile })).toBe(
      `PIIBS_TLS_KEY: "${certFile}" holds no PEM private key (or it is encrypted)`,
    );
    expect(refusal({ PIIBS_TLS_CERT: certFile, PIIBS_TLS_KEY: file('other.key', other.keyPem) })).toBe(
      `PIIBS_TLS_KEY: "${path.join(dir, 'other.key')}" is not the key of the certificate in PIIBS_TLS_CERT`,
    );
    expect(
      refusal({
        PIIBS_TLS_CERT: file('old.crt', expired.certPem),
        PIIBS_TLS_KEY: file('old.key', expired.keyPem),
      }),
    ).toMatch(/^PIIBS_TLS_CERT: the certificate is valid from .+ to .+, not now$/);
  });
});

describe('a server started with them', () => {
  let t: TestContext;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ tls: { cert: server.certPem, key: server.keyPem } });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  }, 60_000);
  afterAll(() => t.close());

  it('answers a browser over HTTP/2: the page and an API call on one connection', async () => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { ca: ca.certPem });
    try {
      const get = (p: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = session.request({ ':path': p });
          let status = 0;
          let body = '';
          req.on('response', (h) => {
            status = Number(h[':status']);
          });
          req.setEncoding('utf8');
          req.on('data', (d: string) => {
            body += d;
          });
          req.on('end', () => resolve({ status, body }));
          req.on('error', reject);
        });
      const [live, missing] = await Promise.all([get('/api/health/live'), get('/api/no/such/thing')]);
      expect(session.alpnProtocol).toBe('h2');
      expect(live).toEqual({ status: 200, body: '{"status":"ok"}' });
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body)).toEqual({
        status: 404,
        message: '接口不存在：GET /api/no/such/thing',
      });
    } finally {
      session.close();
    }
  });

  it('answers a client without HTTP/2 over HTTP/1.1', async () => {
    const answer = await new Promise<{ status: number; alpn: unknown; body: string }>((resolve, reject) => {
      const options: https.RequestOptions & { ALPNProtocols: string[] } = {
        host: '127.0.0.1',
        port,
        path: '/api/health/live',
        ca: ca.certPem,
        ALPNProtocols: ['http/1.1'],
      };
      const req = https.get(options, (res) => {
        const alpn = (res.socket as TLSSocket).alpnProtocol;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, alpn, body }));
      });
      req.on('error', reject);
    });
    expect(answer).toEqual({ status: 200, alpn: 'http/1.1', body: '{"status":"ok"}' });
  });

  it('carries the notification feed over wss (a WebSocket upgrade on HTTP/1.1)', async () => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}/api/notifications/ws`, { ca: ca.certPem });
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      // A socket that signs in with a bad token is told so and closed by the server.
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      ws.send(JSON.stringify({ type: 'auth', token: 'not-a-session', after: 0 }));
      expect(await closed).toBeGreaterThanOrEqual(4000);
    } finally {
      ws.terminate();
    }
  });
});

// An S3-protocol server for the tests (s3rver, on a free loopback port, its objects in a temporary directory),
// with a check in front that s3rver lacks: every request's AWS Signature Version 4 is computed again with the
// account's secret and compared, so a client signing wrongly (or with another secret) gets 403
// SignatureDoesNotMatch as from a real object store.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Requests whose signature was checked and matched. */
  verified(): number;
  close(): Promise<void>;
}

/** s3rver's one account. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET = 'S3RVER';

const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/** The signature a request with this Authorization header should carry, or null when it is not SigV4. */
function expectedSignature(
  method: string,
  rawUrl: string,
  headers: Record<string, string | string[] | undefined>,
): { given: string; expected: string } | null {
  const auth = String(headers.authorization ?? '');
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return null;
  const [, keyId, day, region, signedHeaders, given] = m as unknown as string[];
  if (keyId !== ACCESS_KEY_ID) return { given: given!, expected: '' };
  const [rawPath = '/', rawQuery = ''] = rawUrl.split('?');
  const query = rawQuery
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const [k = '', v = ''] = p.split('=');
      return [rfc3986(decodeURIComponent(k)), rfc3986(decodeURIComponent(v.replace(/\+/g, ' ')))] as const;
    })
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names
    .map(
      (n) =>
        `${n}:${String(headers[n] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const amzDate = String(headers['x-amz-date'] ?? '');
  const canonical = [
    method,
    rawPath,
    query,
    canonicalHeaders,
    signedHeaders,
    String(headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'),
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, day!), region!), 's3'), 'aws4_request');
  return { given: given!, expected: hmac(key, toSign).toString('hex') };
}

/** Starts the server with one empty bucket; `close` stops it and removes its directory. */
export async function startTestS3(bucket = 'piibs-test'): Promise<TestS3> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'piibs-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  let verified = 0;
  // Koa middleware, run before s3rver's own (which accepts any SigV4 signature of a known key).
  (server as unknown as { middleware: unknown[] }).middleware.unshift(
    async (
      ctx: {
        method: string;
        req: { url?: string; headers: Record<string, string | string[] | undefined> };
        status: number;
        type: string;
        body: string;
      },
      next: () => Promise<void>,
    ) => {
      const sig = expectedSignature(ctx.method, ctx.req.url ?? '/', ctx.req.headers);
      const matches =
        sig !== null &&
        sig.expected.length === sig.given.length &&
        timingSafeEqual(Buffer.from(sig.expected), Buffer.from(sig.given));
      if (!matches) {
        ctx.status = 403;
        ctx.type = 'application/xml';
        ctx.body =
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code>' +
          '<Message>The request signature we calculated does not match the signature you provided.</Message></Error>';
        return;
      }
      verified++;
      await next();
    },
  );
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET,
    verified: () => verified,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

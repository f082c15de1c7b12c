// Stored files in an S3-compatible bucket (PIIBS_STORAGE=s3): the settings' checks, the storage itself against an
// S3-protocol server that checks every request's SigV4 signature (test/s3.ts), materials uploaded and read back
// through the API with the bucket as the storage, and the migration of a local directory into the bucket.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, PDF } from '../../../test/admin.ts';
import { bearer, tokenFor } from '../../../test/auth.ts';
import { createWorld, customerForm, type World } from '../../../test/business.ts';
import { startTestS3, type TestS3 } from '../../../test/s3.ts';
import { ConfigError } from '../../config-error.ts';
import { materials } from '../../db/schema.ts';
import { sha256Of } from './file-storage.ts';
import { migrateFiles } from './migrate.ts';
import { S3FileStorage } from './s3-storage.ts';
import { FsMaterialStorage, materialsDir, newStorageKey } from './storage.ts';
import { type StorageSettings, storageSettingsFrom } from './storage-settings.ts';

let s3: TestS3;
let settings: Extract<StorageSettings, { kind: 's3' }>;
let bucket: S3FileStorage;
const envOf = (s: TestS3) => ({
  PIIBS_STORAGE: 's3',
  PIIBS_S3_ENDPOINT: s.endpoint,
  PIIBS_S3_BUCKET: s.bucket,
  PIIBS_S3_REGION: 'cn-test-1',
  PIIBS_S3_ACCESS_KEY_ID: s.accessKeyId,
  PIIBS_S3_SECRET_ACCESS_KEY: s.secretAccessKey,
  PIIBS_S3_FORCE_PATH_STYLE: 'on',
});
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  s3 = await startTestS3();
  settings = storageSettingsFrom(envOf(s3)) as typeof settings;
  bucket = new S3FileStorage(settings);
});
afterAll(async () => {
  await s3?.close();
});

describe('settings', () => {
  it('defaults to the local directory and reads the S3 settings', () => {
    expect(storageSettingsFrom({})).toEqual({ kind: 'fs' });
    expect(settings).toEqual({
      kind: 's3',
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: 'cn-test-1',
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      forcePathStyle: true,
    });
  });

  it.each([
    [{ PIIBS_STORAGE: 'oss' }, 'PIIBS_STORAGE 只能是 fs'],
    [{ PIIBS_S3_BUCKET: '' }, '必须设置存储桶名称 PIIBS_S3_BUCKET'],
    [{ PIIBS_S3_BUCKET: 'My_Bucket' }, 'PIIBS_S3_BUCKET 不是有效的存储桶名称'],
    [{ PIIBS_S3_ENDPOINT: 'minio:9000' }, 'PIIBS_S3_ENDPOINT 应为对象存储服务的地址'],
    [{ PIIBS_S3_SECRET_ACCESS_KEY: '' }, 'PIIBS_S3_ACCESS_KEY_ID 与 PIIBS_S3_SECRET_ACCESS_KEY 须同时设置'],
    [{ PIIBS_S3_FORCE_PATH_STYLE: 'maybe' }, 'PIIBS_S3_FORCE_PATH_STYLE 只能是 on 或 off'],
    [{ PIIBS_S3_REGION: 'cn hangzhou' }, 'PIIBS_S3_REGION 不是有效的区域名称'],
  ])('refuses %o with a message naming the setting', (change, message) => {
    const run = () => storageSettingsFrom({ ...envOf(s3), ...change });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });

  it('stops at start when the bucket does not answer: wrong secret, unknown bucket', async () => {
    const wrongKey = new S3FileStorage(
      storageSettingsFrom({ ...envOf(s3), PIIBS_S3_SECRET_ACCESS_KEY: 'not-the-secret' }) as typeof settings,
    );
    await expect(wrongKey.check()).rejects.toThrow(/访问被拒绝：密钥不对/);
    const noBucket = new S3FileStorage(
      storageSettingsFrom({ ...envOf(s3), PIIBS_S3_BUCKET: 'no-such-bucket' }) as typeof settings,
    );
    await expect(noBucket.check()).rejects.toThrow(/存储桶不存在/);
    await expect(bucket.check()).resolves.toBeUndefined();
  });
});

describe('the bucket as storage', () => {
  it('puts, streams back, lists and deletes by key; refuses to overwrite and keys that leave the form', async () => {
    const key = newStorageKey('pdf');
    // 3 MB: the read arrives in many chunks from the socket, not as one buffer.
    const bytes = randomBytes(3 * 1024 * 1024);
    expect(await bucket.exists(key)).toBe(false);
    expect(await bucket.get(key)).toBeNull();
    await bucket.put(key, bytes);
    expect(await bucket.exists(key)).toBe(true);
    const stream = await bucket.get(key);
    let chunks = 0;
    const hash = createHash('sha256');
    for await (const c of stream!) {
      chunks++;
      hash.update(c as Buffer);
    }
    expect(hash.digest('hex')).toBe(sha(bytes));
    expect(chunks).toBeGreaterThan(1);
    const keys: string[] = [];
    for await (const k of bucket.keys()) keys.push(k);
    expect(keys).toContain(key);
    await expect(bucket.put(key, Buffer.from('other'))).rejects.toThrow('storage key already used');
    expect((await sha256Of((await bucket.get(key))!)).sha256).toBe(sha(bytes));
    for (const bad of ['../x.pdf', '/etc/passwd', '2026/../../x', '.hidden/x.pdf', '2026/11/a.pdf.part'])
      await expect(bucket.put(bad, bytes)).rejects.toThrow('invalid storage key');
    await bucket.delete(key);
    await bucket.delete(key); // a missing key is not an error
    expect(await bucket.exists(key)).toBe(false);
    // Every request above was signed with the account's secret and checked by the server.
    expect(s3.verified()).toBeGreaterThan(8);
  });
});

describe('materials with PIIBS_STORAGE=s3', () => {
  let w: World;
  let token: string;
  let customerId: number;

  beforeAll(async () => {
    w = await createWorld({ storage: settings });
    token = await tokenFor(w.t, 'ent');
    const res = await w.ent.post('/api/customers', customerForm({ uscc: w.entUscc }));
    expect(res.statusCode, res.body).toBe(200);
    customerId = res.json().id;
  });
  afterAll(async () => {
    await w?.t.close();
    if (w) rmSync(w.t.config.dataDir, { recursive: true, force: true });
  });

  const upload = (data: Buffer, name: string) => {
    const body = multipart(
      { businessType: 'customer', businessId: customerId, docType: 'BUSINESS_LICENSE' },
      { name, type: 'application/octet-stream', data },
    );
    return w.t.app.inject({
      method: 'POST',
      url: '/api/materials',
      headers: { ...bearer(token), 'content-type': body.contentType },
      payload: body.payload,
    });
  };
  const download = (id: number) =>
    w.t.app.inject({ method: 'GET', url: `/api/materials/${id}/file`, headers: bearer(token) });

  it('an upload goes to the bucket (nothing under DATA_DIR) and downloads byte for byte', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(600 * 1024),
    ]);
    for (const [data, name, mime] of [
      [png, '营业执照.png', 'image/png'],
      [PDF, '营业执照.pdf', 'application/pdf'],
    ] as const) {
      const res = await upload(data, name);
      expect(res.statusCode, res.body).toBe(200);
      const row = res.json();
      const [stored] = await w.t.database.db.select().from(materials).where(eq(materials.id, row.id));
      expect(await bucket.exists(stored!.storageKey)).toBe(true);
      expect((await sha256Of((await bucket.get(stored!.storageKey))!)).sha256).toBe(sha(data));
      const got = await download(row.id);
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(mime);
      expect(got.rawPayload.equals(data)).toBe(true);
    }
    expect(existsSync(materialsDir(w.t.config.dataDir))).toBe(false);
  });

  it('a file gone from the bucket is told in words, not a server error', async () => {
    const res = await upload(PDF, '清单.pdf');
    const [stored] = await w.t.database.db.select().from(materials).where(eq(materials.id, res.json().id));
    await bucket.delete(stored!.storageKey);
    const got = await download(res.json().id);
    expect(got.statusCode).toBe(404);
    expect(got.json().message).toBe('影像资料文件已丢失，请重新上传');
  });
});

describe('migration from the local directory (npm run storage:migrate)', () => {
  it('copies every file, checks each by SHA-256 read back, skips what is there and reports a conflict', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'piibs-migrate-'));
    try {
      const local = new FsMaterialStorage(dir);
      const files = Array.from({ length: 5 }, (_, i) => ({
        key: newStorageKey(i % 2 ? 'png' : 'pdf'),
        bytes: randomBytes(1000 + i * 5000),
      }));
      for (const f of files) await local.put(f.key, f.bytes);
      // One already copied (an earlier, interrupted run), one with other bytes under its key.
      await bucket.put(files[0]!.key, files[0]!.bytes);
      await bucket.put(files[1]!.key, Buffer.from('not the same bytes'));

      const first = await migrateFiles(local, bucket);
      expect([first.copied, first.present, first.failed.map((f) => f.key)]).toEqual([3, 1, [files[1]!.key]]);
      expect(first.failed[0]!.why).toContain('target holds other bytes');
      for (const f of files.slice(2))
        expect((await sha256Of((await bucket.get(f.key))!)).sha256).toBe(sha(f.bytes));
      // The local files stay; a second run copies nothing.
      expect((await sha256Of((await local.get(files[2]!.key))!)).sha256).toBe(sha(files[2]!.bytes));
      const again = await migrateFiles(local, bucket);
      expect([again.copied, again.present, again.failed.length]).toEqual([0, 4, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

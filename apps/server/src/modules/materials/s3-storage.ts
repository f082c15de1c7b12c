// Stored files as objects in an S3-compatible bucket (AWS S3, MinIO, Alibaba OSS, Tencent COS), through the
// official AWS SDK v3. The storage key is the object's name. Reads hand back the SDK's response body, a stream
// straight from the socket: nothing is buffered here.
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { ConfigError } from '../../config-error.ts';
import { checkKey, type FileStorage } from './file-storage.ts';
import type { StorageSettings } from './storage-settings.ts';

type S3Settings = Extract<StorageSettings, { kind: 's3' }>;

function isMissing(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
}

export class S3FileStorage implements FileStorage {
  readonly client: S3Client;
  readonly bucket: string;
  readonly where: string;

  constructor(s: S3Settings) {
    this.bucket = s.bucket;
    this.where = `s3://${s.bucket}${s.endpoint ? ` at ${s.endpoint}` : ` (AWS ${s.region})`}`;
    this.client = new S3Client({
      region: s.region,
      forcePathStyle: s.forcePathStyle,
      ...(s.endpoint ? { endpoint: s.endpoint } : {}),
      ...(s.credentials ? { credentials: s.credentials } : {}),
      // Checksums only where the operation requires them: OSS, COS and older MinIO refuse the newer headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Throws a ConfigError unless the bucket answers (checked at start, so a wrong setting stops the server). */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const status = err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
      const other = (err as Error).message || (err as Error).name;
      const [zh, en] =
        status === 403
          ? [
              '访问被拒绝：密钥不对或没有该存储桶的权限',
              'access denied: wrong keys or no permission on the bucket',
            ]
          : status === 404
            ? ['存储桶不存在', 'no such bucket']
            : status === 301 || status === 400
              ? ['区域或访问方式不对', 'wrong region or addressing style']
              : [other, other];
      throw new ConfigError(
        `无法访问对象存储 ${this.where}（${zh}）：请检查 PIIBS_S3_ENDPOINT、PIIBS_S3_BUCKET、PIIBS_S3_REGION、` +
          `访问密钥与 PIIBS_S3_FORCE_PATH_STYLE / cannot reach the object store ${this.where} (${en}): ` +
          'check PIIBS_S3_ENDPOINT, PIIBS_S3_BUCKET, PIIBS_S3_REGION, the access keys and PIIBS_S3_FORCE_PATH_STYLE',
      );
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    checkKey(key);
    // Keys are random (a uuid each), so a collision means a bug: refuse rather than replace a file.
    if (await this.exists(key)) throw new Error(`storage key already used: ${key}`);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentLength: bytes.length }),
    );
  }

  async get(key: string): Promise<Readable | null> {
    checkKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return (res.Body as Readable | undefined) ?? null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    checkKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    checkKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *keys(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

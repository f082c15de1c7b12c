// PIIBS_STORAGE and the PIIBS_S3_* settings: where stored files (materials, documents) live. Read once at start
// by loadConfig; a bad value stops the server with a message in Chinese and English.
import { ConfigError } from '../../config-error.ts';

export type StorageSettings =
  | { kind: 'fs' }
  | {
      kind: 's3';
      /** The S3 API's address (MinIO, OSS, COS …); undefined: AWS S3 of the region. */
      endpoint: string | undefined;
      bucket: string;
      region: string;
      /** Both set, or neither (then the AWS SDK's own chain: AWS_* variables, instance role …). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      /** Bucket in the path (http://host/bucket/key) rather than the host name: MinIO and most local servers. */
      forcePathStyle: boolean;
    };

const fail = (zh: string, en: string) => new ConfigError(`${zh} / ${en}`);

/** Bucket names as S3 allows them (3–63 lower-case letters, digits, dots and hyphens). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function storageSettingsFrom(env: NodeJS.ProcessEnv): StorageSettings {
  const kind = (env.PIIBS_STORAGE ?? '').trim().toLowerCase() || 'fs';
  if (kind === 'fs') return { kind: 'fs' };
  if (kind !== 's3') {
    throw fail(
      `PIIBS_STORAGE 只能是 fs（本机目录，默认）或 s3（对象存储），当前为“${env.PIIBS_STORAGE}”`,
      `PIIBS_STORAGE must be "fs" (local directory, the default) or "s3" (object storage), got "${env.PIIBS_STORAGE}"`,
    );
  }
  const endpointText = env.PIIBS_S3_ENDPOINT?.trim() || undefined;
  if (endpointText) {
    let url: URL | undefined;
    try {
      url = new URL(endpointText);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw fail(
        `PIIBS_S3_ENDPOINT 应为对象存储服务的地址，如 https://oss-cn-hangzhou.aliyuncs.com，当前为“${endpointText}”`,
        `PIIBS_S3_ENDPOINT must be the object store's http(s) URL, e.g. https://oss-cn-hangzhou.aliyuncs.com, got "${endpointText}"`,
      );
    }
  }
  const bucket = env.PIIBS_S3_BUCKET?.trim() ?? '';
  if (!bucket) {
    throw fail(
      'PIIBS_STORAGE=s3 时必须设置存储桶名称 PIIBS_S3_BUCKET',
      'PIIBS_S3_BUCKET (the bucket name) is required when PIIBS_STORAGE=s3',
    );
  }
  if (!BUCKET.test(bucket) || bucket.includes('..')) {
    throw fail(
      `PIIBS_S3_BUCKET 不是有效的存储桶名称（3–63 位小写字母、数字、点或连字符）：“${bucket}”`,
      `PIIBS_S3_BUCKET is not a valid bucket name (3-63 lower-case letters, digits, dots, hyphens): "${bucket}"`,
    );
  }
  const region = env.PIIBS_S3_REGION?.trim() || 'us-east-1';
  if (!/^[a-z0-9-]+$/i.test(region)) {
    throw fail(
      `PIIBS_S3_REGION 不是有效的区域名称，如 cn-hangzhou、ap-guangzhou：“${region}”`,
      `PIIBS_S3_REGION is not a valid region name such as cn-hangzhou or ap-guangzhou: "${region}"`,
    );
  }
  const accessKeyId = env.PIIBS_S3_ACCESS_KEY_ID?.trim() || '';
  const secretAccessKey = env.PIIBS_S3_SECRET_ACCESS_KEY?.trim() || '';
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw fail(
      'PIIBS_S3_ACCESS_KEY_ID 与 PIIBS_S3_SECRET_ACCESS_KEY 须同时设置（或都不设置，使用 AWS SDK 默认凭证）',
      'PIIBS_S3_ACCESS_KEY_ID and PIIBS_S3_SECRET_ACCESS_KEY go together (or set neither to use the AWS SDK default credentials)',
    );
  }
  const pathStyle = (env.PIIBS_S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase();
  if (!['', '0', '1', 'on', 'off', 'true', 'false'].includes(pathStyle)) {
    throw fail(
      `PIIBS_S3_FORCE_PATH_STYLE 只能是 on 或 off，当前为“${env.PIIBS_S3_FORCE_PATH_STYLE}”`,
      `PIIBS_S3_FORCE_PATH_STYLE must be "on" or "off", got "${env.PIIBS_S3_FORCE_PATH_STYLE}"`,
    );
  }
  return {
    kind: 's3',
    endpoint: endpointText,
    bucket,
    region,
    credentials: accessKeyId ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: ['1', 'on', 'true'].includes(pathStyle),
  };
}

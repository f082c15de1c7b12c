import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type BackupSettings, backupSettingsFrom } from './backup/settings.ts';
import { ConfigError } from './config-error.ts';
import { type TlsFiles, tlsSettingsFrom } from './lib/tls.ts';
import { type StorageSettings, storageSettingsFrom } from './modules/materials/storage-settings.ts';
import { type BusinessSettings, businessSettingsFrom } from './modules/payments/settings.ts';

export interface Config {
  port: number;
  host: string;
  /** HTTPS (HTTP/2, with HTTP/1.1 for other clients) from PIIBS_TLS_CERT and PIIBS_TLS_KEY; null: plain HTTP. */
  tls: TlsFiles | null;
  dataDir: string;
  databaseUrl: string | undefined;
  demo: boolean;
  captcha: boolean;
  /**
   * Which proxies' X-Forwarded-For is believed (TRUST_PROXY): false (none: the client is the TCP peer), a hop
   * count (`1`: one proxy in front, the address it appended is the client's), or the proxies' addresses/CIDRs
   * (the client is the first address from the right that is not one of them). Never every hop.
   */
  trustProxy: false | number | string[];
  /** Sign-in calls allowed per IP per minute (PIIBS_SIGNIN_RATE). */
  signInRatePerMinute: number;
  /** Connections in the database pool (PIIBS_DB_POOL; default four per CPU core, see dbPoolSize). */
  dbPoolSize: number;
  jwtSecret: string;
  webDist: string;
  version: string;
  /** Where stored files live: DATA_DIR/materials, or an S3-compatible bucket (PIIBS_STORAGE, PIIBS_S3_*). */
  storage: StorageSettings;
  /** Payments, pg-boss jobs, the public URL (PIIBS_PAYMENT_PROVIDER, PIIBS_SANDBOX_PAY_KEY, PIIBS_JOBS …). */
  business: BusinessSettings;
  /** The daily backup: where and how many (PIIBS_BACKUP_DIR, PIIBS_BACKUP_KEEP). */
  backup: BackupSettings;
  /** A streaming replica for slightly-stale-tolerant reads (DATABASE_REPLICA_URL). */
  replicaUrl: string | undefined;
  /** Whether PIIBS_PUBLIC_URL is set (the e-documents' QR codes and links use it; start-up warns without it). */
  publicUrlSet: boolean;
  /**
   * The insurer's document-signing key (PIIBS_SIGNING_P12: a PKCS#12 file, PIIBS_SIGNING_P12_PASSWORD). Without
   * one the demo CA issues a demo certificate (lib/signing.ts).
   */
  signing: { p12Path: string | null; p12Password: string };
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** Secrets generated on first start and kept under DATA_DIR (mode 0600), so restarts keep sessions valid. */
export function loadSecrets(dataDir: string): Record<string, string> {
  const file = path.join(dataDir, 'secrets.json');
  const secrets: Record<string, string> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)
    : {};
  let changed = false;
  for (const key of ['jwtSecret', 'dbPassword']) {
    if (!secrets[key]) {
      secrets[key] = randomBytes(32).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return secrets;
}

/** proxy-addr's names for address ranges (loopback 127.0.0.1/8 and ::1; linklocal; uniquelocal: the private ranges). */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...more] = entry.split('/');
  const family = isIP(address);
  if (!family || more.length > 0) return false;
  if (prefix === undefined) return true;
  // A prefix length, or (IPv4) a netmask such as 255.255.255.0.
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(prefix) === 4;
}

/**
 * TRUST_PROXY: unset, empty, `0`, `off` or `false` → none; a whole number → that many proxy hops; otherwise a
 * comma-separated list of proxy addresses, CIDRs (10.0.0.0/8) or the names loopback / linklocal / uniquelocal.
 * `true` (every hop) is refused: any client could then name its own address in X-Forwarded-For.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const v = (value ?? '').trim();
  if (v === '' || /^(0|off|false|no)$/i.test(v)) return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) throw new ConfigError(`TRUST_PROXY: at most 10 proxy hops, got "${v}"`);
    return hops;
  }
  if (/^(true|on|yes|all|\*)$/i.test(v)) {
    throw new ConfigError(
      `TRUST_PROXY="${v}" would trust every hop, so any client could choose its own address in X-Forwarded-For. ` +
        'Give the number of proxies in front of PIIBS (usually 1) or their addresses/CIDRs (e.g. 10.0.0.5,10.1.0.0/16).',
    );
  }
  const entries = v.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0) {
    throw new ConfigError(
      `TRUST_PROXY: not a proxy hop count, address or CIDR: ${bad.map((b) => `"${b}"`).join(', ')}`,
    );
  }
  return entries;
}

/**
 * PIIBS_DB_POOL, or four connections per CPU core: more backends than the cores can run only queue inside
 * PostgreSQL and switch between each other (2 cores, 50 concurrent list requests: 8 connections answered 11–29%
 * more than 20, at a lower p99; docs/performance.md).
 */
export function dbPoolSize(value: string | undefined, cores = os.availableParallelism()): number {
  if (value === undefined || value.trim() === '') return Math.max(4, 4 * cores);
  const size = Number(value);
  if (!Number.isInteger(size) || size < 2 || size > 200)
    throw new ConfigError(`PIIBS_DB_POOL must be a whole number from 2 to 200, got "${value}"`);
  return size;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8013);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be 0-65535, got "${env.PORT}"`);
  const dataDir = path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data'));
  const databaseUrl = env.DATABASE_URL || undefined;
  let jwtSecret = env.JWT_SECRET;
  if (!jwtSecret) {
    if (databaseUrl) {
      throw new ConfigError(
        'JWT_SECRET is required when DATABASE_URL is set (every instance against that database must share it).',
      );
    }
    jwtSecret = loadSecrets(dataDir).jwtSecret!;
  }
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long.');
  const captcha = (env.PIIBS_CAPTCHA ?? 'on').toLowerCase();
  if (captcha !== 'on' && captcha !== 'off') throw new ConfigError('PIIBS_CAPTCHA must be "on" or "off".');
  const signInRatePerMinute = Number(env.PIIBS_SIGNIN_RATE ?? 20);
  if (!Number.isInteger(signInRatePerMinute) || signInRatePerMinute < 1) {
    throw new ConfigError(`PIIBS_SIGNIN_RATE must be a whole number ≥ 1, got "${env.PIIBS_SIGNIN_RATE}"`);
  }
  const tls = tlsSettingsFrom(env);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    tls,
    dataDir,
    databaseUrl,
    demo: env.PIIBS_DEMO === '1',
    captcha: captcha === 'on',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    signInRatePerMinute,
    dbPoolSize: dbPoolSize(env.PIIBS_DB_POOL),
    jwtSecret,
    webDist: path.join(repoRoot, 'apps/web/dist'),
    version: readVersion(),
    storage: storageSettingsFrom(env),
    business: businessSettingsFrom(env, { host: env.HOST || '127.0.0.1', port, https: tls !== null }),
    backup: backupSettingsFrom(env, dataDir),
    replicaUrl: env.DATABASE_REPLICA_URL || undefined,
    publicUrlSet: Boolean(env.PIIBS_PUBLIC_URL?.trim()),
    signing: {
      p12Path: env.PIIBS_SIGNING_P12?.trim() ? path.resolve(env.PIIBS_SIGNING_P12.trim()) : null,
      p12Password: env.PIIBS_SIGNING_P12_PASSWORD ?? '',
    },
  };
}

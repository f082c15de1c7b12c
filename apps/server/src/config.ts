import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { type BusinessSettings, businessSettingsFrom } from './modules/payments/settings.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  demo: boolean;
  captcha: boolean;
  /** Sign-in calls allowed per IP per minute (PIIBS_SIGNIN_RATE). */
  signInRatePerMinute: number;
  jwtSecret: string;
  webDist: string;
  version: string;
  /** Payments, pg-boss jobs, the public URL (PIIBS_PAYMENT_PROVIDER, PIIBS_SANDBOX_PAY_KEY, PIIBS_JOBS …). */
  business: BusinessSettings;
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
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl,
    demo: env.PIIBS_DEMO === '1',
    captcha: captcha === 'on',
    signInRatePerMinute,
    jwtSecret,
    webDist: path.join(repoRoot, 'apps/web/dist'),
    version: readVersion(),
    business: businessSettingsFrom(env, { host: env.HOST || '127.0.0.1', port }),
  };
}

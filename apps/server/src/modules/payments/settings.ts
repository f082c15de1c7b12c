// Settings of payments, background jobs and public links, read from the environment by loadConfig():
//   PIIBS_PAYMENT_PROVIDER  'sandbox' (the only provider so far; the default)
//   PIIBS_SANDBOX_PAY_KEY   the sandbox gateway's signing key (≥ 32 characters); unset: generated on first use
//                           and kept in DATA_DIR/secrets.json (set it when several instances share a database)
//   PIIBS_MERCHANT_ID       the merchant id the gateway knows us by (default 'PIIBS')
//   PIIBS_NOTIFY_RATE       payment notifications a minute from one IP address to one provider (default 300;
//                           more answer 429, which a gateway retries later)
//   PIIBS_JOBS              'on' (default) | 'off': run the pg-boss queue (payment expiry, policy issuance)
//   PIIBS_PUBLIC_URL        the address users reach the site at, for links printed on documents (the e-policy's
//                           QR code); default http://HOST:PORT
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PAYMENT_PROVIDERS, type PaymentProviderName } from '@piibs/shared/payment';
import { ConfigError } from '../../config-error.ts';

export interface BusinessSettings {
  paymentProvider: PaymentProviderName;
  /** From PIIBS_SANDBOX_PAY_KEY; undefined: generated under DATA_DIR on first use (see sandboxKey()). */
  sandboxPayKey: string | undefined;
  merchantId: string;
  /** Payment notifications allowed a minute per sender IP and provider (PIIBS_NOTIFY_RATE). */
  notifyRatePerMinute: number;
  /** Start the pg-boss queue when the server listens. */
  jobs: boolean;
  /** No trailing slash. */
  publicUrl: string;
}

/** The merchant id the gateway knows us by when PIIBS_MERCHANT_ID is not set. */
export const DEFAULT_MERCHANT_ID = 'PIIBS';

export function businessSettingsFrom(
  env: NodeJS.ProcessEnv,
  listen: { host: string; port: number; https?: boolean },
): BusinessSettings {
  const provider = (env.PIIBS_PAYMENT_PROVIDER || 'sandbox').toLowerCase();
  if (!(PAYMENT_PROVIDERS as readonly string[]).includes(provider))
    throw new ConfigError(`PIIBS_PAYMENT_PROVIDER must be one of ${PAYMENT_PROVIDERS.join(', ')}.`);
  const key = env.PIIBS_SANDBOX_PAY_KEY || undefined;
  if (key !== undefined && key.length < 32)
    throw new ConfigError('PIIBS_SANDBOX_PAY_KEY must be at least 32 characters long.');
  const merchantId = env.PIIBS_MERCHANT_ID || DEFAULT_MERCHANT_ID;
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(merchantId))
    throw new ConfigError('PIIBS_MERCHANT_ID must be 1-32 letters, digits, "-" or "_".');
  const notifyRatePerMinute = Number(env.PIIBS_NOTIFY_RATE ?? 300);
  if (!Number.isInteger(notifyRatePerMinute) || notifyRatePerMinute < 1)
    throw new ConfigError(`PIIBS_NOTIFY_RATE must be a whole number ≥ 1, got "${env.PIIBS_NOTIFY_RATE}"`);
  const jobs = (env.PIIBS_JOBS ?? 'on').toLowerCase();
  if (jobs !== 'on' && jobs !== 'off') throw new ConfigError('PIIBS_JOBS must be "on" or "off".');
  const host = listen.host === '0.0.0.0' || listen.host === '::' ? '127.0.0.1' : listen.host;
  const scheme = listen.https ? 'https' : 'http';
  const publicUrl = (env.PIIBS_PUBLIC_URL || `${scheme}://${host}:${listen.port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(publicUrl))
    throw new ConfigError('PIIBS_PUBLIC_URL must be an http(s) URL, e.g. https://piibs.example.com');
  return {
    paymentProvider: provider as PaymentProviderName,
    sandboxPayKey: key,
    merchantId,
    notifyRatePerMinute,
    jobs: jobs === 'on',
    publicUrl,
  };
}

/**
 * The sandbox signing key: the configured one, else the one kept in DATA_DIR/secrets.json (made there on first
 * use, file mode 0600, next to the other generated secrets). Never logged.
 */
export function sandboxKey(settings: BusinessSettings, dataDir: string): string {
  if (settings.sandboxPayKey) return settings.sandboxPayKey;
  const file = path.join(dataDir, 'secrets.json');
  const secrets: Record<string, string> = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)
    : {};
  if (!secrets.sandboxPayKey) {
    secrets.sandboxPayKey = randomBytes(32).toString('base64url');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return secrets.sandboxPayKey;
}

// HTTPS served by PIIBS itself (PIIBS_TLS_CERT, PIIBS_TLS_KEY): HTTP/2 for browsers (one connection carries every
// request of a page), HTTP/1.1 for other clients and WebSocket upgrades. Without the two settings PIIBS speaks plain
// HTTP/1.1, for a proxy in front that terminates TLS (docs/operations.md).
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config-error.ts';

/** The server's certificate chain and private key, PEM, as read at start. */
export interface TlsFiles {
  cert: string;
  key: string;
}

function readPem(name: string, file: string): string {
  try {
    return readFileSync(path.resolve(file), 'utf8');
  } catch (err) {
    throw new ConfigError(`${name}: cannot read "${file}" (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
}

/**
 * Both settings or neither; the files must be PEM, the key must be the certificate's, and the certificate must be
 * valid now (a start with an expired one would only fail in every browser).
 */
export function tlsSettingsFrom(env: NodeJS.ProcessEnv, now = new Date()): TlsFiles | null {
  const certFile = env.PIIBS_TLS_CERT?.trim();
  const keyFile = env.PIIBS_TLS_KEY?.trim();
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile)
    throw new ConfigError(
      `PIIBS_TLS_CERT and PIIBS_TLS_KEY go together: ${certFile ? 'PIIBS_TLS_KEY' : 'PIIBS_TLS_CERT'} is not set`,
    );
  const cert = readPem('PIIBS_TLS_CERT', certFile);
  const key = readPem('PIIBS_TLS_KEY', keyFile);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch {
    throw new ConfigError(`PIIBS_TLS_CERT: "${certFile}" holds no PEM certificate`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw new ConfigError(`PIIBS_TLS_KEY: "${keyFile}" holds no PEM private key (or it is encrypted)`);
  }
  if (!leaf.checkPrivateKey(privateKey))
    throw new ConfigError(`PIIBS_TLS_KEY: "${keyFile}" is not the key of the certificate in PIIBS_TLS_CERT`);
  if (now < new Date(leaf.validFrom) || now > new Date(leaf.validTo))
    throw new ConfigError(
      `PIIBS_TLS_CERT: the certificate is valid from ${leaf.validFrom} to ${leaf.validTo}, not now`,
    );
  return { cert, key };
}

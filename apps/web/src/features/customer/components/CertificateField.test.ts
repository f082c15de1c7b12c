import { X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { certificateFingerprint, FINGERPRINT, normalizeFingerprint } from './CertificateField.tsx';

function selfSigned(): string {
  const keys = forge.pki.rsa.generateKeyPair(1024);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date('2026-01-01');
  cert.validity.notAfter = new Date('2027-01-01');
  cert.setSubject([{ name: 'commonName', value: 'PIIBS test' }]);
  cert.setIssuer([{ name: 'commonName', value: 'PIIBS test' }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

describe('CA证书 binding', () => {
  it('reads the SHA-256 fingerprint the server compares, from PEM and from DER files', async () => {
    const pem = selfSigned();
    const x509 = new X509Certificate(pem);
    const expected = normalizeFingerprint(x509.fingerprint256);
    expect(expected).toMatch(FINGERPRINT);
    expect(await certificateFingerprint(new TextEncoder().encode(pem))).toBe(expected);
    expect(await certificateFingerprint(new Uint8Array(x509.raw))).toBe(expected);
  });

  it('accepts a fingerprint as certificate viewers show it (colons, capitals)', () => {
    expect(normalizeFingerprint('AB:CD: 01')).toBe('abcd01');
  });
});

import forge from 'node-forge';
import { beforeAll, describe, expect, it } from 'vitest';
import { unlockPkcs12 } from './pkcs12.ts';

const PASSWORD = 'Demo@2026';
let keys: forge.pki.rsa.KeyPair;
let cert: forge.pki.Certificate;

function toBytes(asn1: forge.asn1.Asn1): ArrayBuffer {
  const der = forge.asn1.toDer(asn1).getBytes();
  return Uint8Array.from(der, (c) => c.charCodeAt(0)).buffer;
}

function makeCert(publicKey: forge.pki.PublicKey, signer: forge.pki.rsa.PrivateKey, cn: string) {
  const c = forge.pki.createCertificate();
  c.publicKey = publicKey;
  c.serialNumber = '01';
  c.validity.notBefore = new Date(Date.now() - 86_400_000);
  c.validity.notAfter = new Date(Date.now() + 86_400_000);
  c.setSubject([{ name: 'commonName', value: cn }]);
  c.setIssuer([{ name: 'commonName', value: 'Test Root' }]);
  c.sign(signer, forge.md.sha256.create());
  return c;
}

beforeAll(() => {
  // Small keys keep the test fast; the algorithm is the same.
  keys = forge.pki.rsa.generateKeyPair({ bits: 1024, e: 0x10001 });
  cert = makeCert(keys.publicKey, keys.privateKey, 'Enterprise');
});

describe('PKCS#12 unlocked in the browser', () => {
  it('gives the leaf certificate first and signs RSASSA-PKCS1-v1_5 / SHA-256 over the UTF-8 challenge', () => {
    const other = forge.pki.rsa.generateKeyPair({ bits: 512, e: 0x10001 });
    const root = makeCert(other.publicKey, other.privateKey, 'Test Root');
    // The root comes first in the file; the leaf is the one matching the key.
    const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [root, cert], PASSWORD, { algorithm: '3des' });
    const unlocked = unlockPkcs12(toBytes(p12), PASSWORD);

    const pems = unlocked.certificatePem.match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
    );
    expect(pems).toHaveLength(2);
    expect(forge.pki.certificateFromPem(pems![0]!).subject.getField('CN').value).toBe('Enterprise');

    const challenge = 'challenge-挑战码';
    const signature = unlocked.sign(challenge);
    const md = forge.md.sha256.create();
    md.update(challenge, 'utf8');
    expect(keys.publicKey.verify(md.digest().bytes(), forge.util.decode64(signature))).toBe(true);
    expect(unlocked.certificatePem).not.toContain('PRIVATE KEY');
  });

  it('a wrong file password: 证书密码错误', () => {
    const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], PASSWORD, { algorithm: '3des' });
    expect(() => unlockPkcs12(toBytes(p12), 'wrong')).toThrow('证书密码错误');
  });

  it('a file without a private key: 证书文件中没有私钥', () => {
    const p12 = forge.pkcs12.toPkcs12Asn1(null, [cert], PASSWORD, { algorithm: '3des' });
    expect(() => unlockPkcs12(toBytes(p12), PASSWORD)).toThrow('证书文件中没有私钥');
  });

  it('not a PKCS#12 file', () => {
    const bytes = new TextEncoder().encode('-----BEGIN CERTIFICATE-----').buffer as ArrayBuffer;
    expect(() => unlockPkcs12(bytes, PASSWORD)).toThrow('文件不是有效的 PKCS#12 证书文件');
  });
});

// PKCS#12 in the browser: unlock the file, pick the certificate that belongs to the private key, sign the
// challenge. Imported lazily by the CA page only, so node-forge stays out of every other chunk. Only the
// node-forge modules this needs (they register on its one shared object): its index also brings TLS, SSH,
// PKCS#7, ed25519 and more, a third of the chunk.
import type Forge from 'node-forge';
import forge from 'node-forge/lib/forge';
import 'node-forge/lib/pkcs12';
import 'node-forge/lib/pki';
import 'node-forge/lib/sha256';
import { AUTH_TEXTS as T } from './texts.ts';

export type UnlockedCertificate = {
  /** The leaf certificate followed by the other certificates of the file, as PEM. */
  certificatePem: string;
  /** base64 RSASSA-PKCS1-v1_5 / SHA-256 signature over the UTF-8 bytes of `data`. */
  sign(data: string): string;
};

/** A failure worded for the user. */
export class CertificateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CertificateError';
  }
}

function bagsOf(p12: Forge.pkcs12.Pkcs12Pfx, bagType: string): Forge.pkcs12.Bag[] {
  return p12.getBags({ bagType })[bagType] ?? [];
}

function sameRsaKey(cert: Forge.pki.Certificate, key: Forge.pki.rsa.PrivateKey): boolean {
  const pub = cert.publicKey as Partial<Forge.pki.rsa.PublicKey>;
  return Boolean(pub.n && pub.e && pub.n.equals(key.n) && pub.e.equals(key.e));
}

/** Opens a .p12/.pfx with its password. The private key stays in this object; nothing is sent anywhere. */
export function unlockPkcs12(bytes: ArrayBuffer, password: string): UnlockedCertificate {
  let asn1: Forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.binary.raw.encode(new Uint8Array(bytes)));
  } catch {
    throw new CertificateError(T.caNotP12);
  }
  let p12: Forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (err) {
    const message = err instanceof Error ? err.message : '';
    // forge: "PKCS#12 MAC could not be verified. Invalid password?" or a failed decryption of a bag.
    if (/password|MAC|decrypt|pad/i.test(message)) throw new CertificateError(T.caWrongPassword);
    throw new CertificateError(T.caNotP12);
  }

  const keyBags = [
    ...bagsOf(p12, forge.pki.oids.pkcs8ShroudedKeyBag!),
    ...bagsOf(p12, forge.pki.oids.keyBag!),
  ];
  if (keyBags.length > 0 && keyBags.every((bag) => !bag.key)) {
    // forge leaves `key` empty for keys it cannot read, such as EC keys.
    throw new CertificateError(T.caNotRsa);
  }
  const key = keyBags.find((bag) => bag.key)?.key as Forge.pki.rsa.PrivateKey | undefined;
  if (!key) throw new CertificateError(T.caNoKey);

  const certs = bagsOf(p12, forge.pki.oids.certBag!).flatMap((bag) => (bag.cert ? [bag.cert] : []));
  const leaf = certs.find((cert) => sameRsaKey(cert, key));
  if (!leaf) throw new CertificateError(T.caNoCert);
  const chain = [leaf, ...certs.filter((cert) => cert !== leaf)];

  return {
    certificatePem: chain.map((cert) => forge.pki.certificateToPem(cert)).join(''),
    sign(data) {
      const md = forge.md.sha256.create();
      md.update(data, 'utf8');
      return forge.util.encode64(key.sign(md));
    },
  };
}

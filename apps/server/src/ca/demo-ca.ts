// A demo certificate authority for trials and tests: a root CA and enterprise sign-in certificates it signs,
// exportable as PKCS#12. Enterprise certificates carry the unified social credit code in the subject twice:
// as organizationIdentifier (2.5.4.97) and as serialNumber (2.5.4.5); the server reads either.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import forge from 'node-forge';

export interface Issued {
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
  certPem: string;
  /** PKCS#8 PEM, usable with node:crypto. */
  keyPem: string;
}

export interface EnterpriseSubject {
  uscc: string;
  /** Enterprise name (Chinese allowed). */
  name: string;
}

export interface Validity {
  notBefore?: Date;
  notAfter?: Date;
}

const DAY = 24 * 60 * 60 * 1000;

/** RSA-2048 keys from node:crypto (much faster than forge's JavaScript generator), as forge keys. */
function generateKeys(): {
  privateKey: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
  keyPem: string;
} {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  return { privateKey: forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e), keyPem };
}

/** A positive random serial number (hex). */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

const utf8 = forge.asn1.Type.UTF8;

function finish(
  cert: forge.pki.Certificate,
  signer: forge.pki.rsa.PrivateKey,
  key: forge.pki.rsa.PrivateKey,
  keyPem: string,
): Issued {
  cert.sign(signer, forge.md.sha256.create());
  return { cert, key, certPem: forge.pki.certificateToPem(cert), keyPem };
}

/**
 * A leaf certificate signed by `ca` on a new key: `subject`, `extensions` (plus the CA's key identifier), valid from
 * yesterday for `days` unless `validity` says otherwise.
 */
function issueLeaf(
  ca: Issued,
  subject: forge.pki.CertificateField[],
  extensions: object[],
  validity: Validity,
  days: number,
): Issued {
  const keys = generateKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = validity.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = validity.notAfter ?? new Date(Date.now() + days * DAY);
  cert.setSubject(subject);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    ...extensions,
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.cert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  return finish(cert, ca.key, keys.privateKey, keys.keyPem);
}

/** A self-signed root CA (10 years by default), or with `parent` an intermediate CA signed by it. */
export function createRootCa(
  opts: { commonName?: string; validity?: Validity; parent?: Issued } = {},
): Issued {
  const keys = generateKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = opts.validity?.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = opts.validity?.notAfter ?? new Date(Date.now() + 3650 * DAY);
  const subject = [
    { name: 'countryName', value: 'CN' },
    { name: 'organizationName', value: 'PIIBS Demo', valueTagClass: utf8 },
    { name: 'commonName', value: opts.commonName ?? 'PIIBS Demo Root CA', valueTagClass: utf8 },
  ] as forge.pki.CertificateField[];
  cert.setSubject(subject);
  cert.setIssuer(opts.parent ? opts.parent.cert.subject.attributes : subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    ...(opts.parent
      ? [
          {
            name: 'authorityKeyIdentifier',
            keyIdentifier: opts.parent.cert.generateSubjectKeyIdentifier().getBytes(),
          },
        ]
      : []),
  ]);
  return finish(cert, opts.parent?.key ?? keys.privateKey, keys.privateKey, keys.keyPem);
}

function enterpriseSubject(s: EnterpriseSubject): forge.pki.CertificateField[] {
  return [
    { name: 'countryName', value: 'CN' },
    { name: 'organizationName', value: s.name, valueTagClass: utf8 },
    { name: 'commonName', value: s.name, valueTagClass: utf8 },
    { name: 'serialNumber', value: s.uscc },
    { type: '2.5.4.97', value: s.uscc, valueTagClass: utf8 },
  ] as forge.pki.CertificateField[];
}

const leafExtensions = (digitalSignature = true) => [
  { name: 'basicConstraints', cA: false },
  digitalSignature
    ? { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true }
    : { name: 'keyUsage', keyEncipherment: true, critical: true },
  { name: 'extKeyUsage', clientAuth: true },
  { name: 'subjectKeyIdentifier' },
];

/** An enterprise sign-in certificate signed by `ca` (2 years by default). */
export function issueEnterpriseCert(
  ca: Issued,
  subject: EnterpriseSubject,
  validity: Validity = {},
  opts: { digitalSignature?: boolean } = {},
): Issued {
  return issueLeaf(ca, enterpriseSubject(subject), leafExtensions(opts.digitalSignature), validity, 730);
}

/**
 * A TLS server certificate signed by `ca` for `hosts` (DNS names or IP addresses, in subjectAltName), 90 days by
 * default: HTTPS for trials, tests and the bench (PIIBS_TLS_CERT / PIIBS_TLS_KEY with `certPem` and `keyPem`).
 */
export function issueServerCert(ca: Issued, hosts: string[], validity: Validity = {}): Issued {
  const altNames = hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h }));
  return issueLeaf(
    ca,
    [{ name: 'commonName', value: hosts[0] ?? 'localhost' }] as forge.pki.CertificateField[],
    [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
    validity,
    90,
  );
}

/** A certificate signed by `ca` whose validity ended yesterday (for tests). */
export function createExpiredEnterpriseCert(ca: Issued, subject: EnterpriseSubject): Issued {
  return issueEnterpriseCert(ca, subject, {
    notBefore: new Date(Date.now() - 400 * DAY),
    notAfter: new Date(Date.now() - DAY),
  });
}

/** An enterprise certificate signed by its own key, chaining to no CA (for tests). */
export function createSelfSignedEnterpriseCert(subject: EnterpriseSubject): Issued {
  const keys = generateKeys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - DAY);
  cert.validity.notAfter = new Date(Date.now() + 365 * DAY);
  cert.setSubject(enterpriseSubject(subject));
  cert.setIssuer(enterpriseSubject(subject));
  cert.setExtensions(leafExtensions());
  return finish(cert, keys.privateKey, keys.privateKey, keys.keyPem);
}

function bmpString(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += String.fromCharCode(code >> 8, code & 0xff);
  }
  return out;
}

/** PKCS#12 (DER) holding the key and certificate, plus the chain, protected by `password` (3DES, SHA-1 MAC). */
export function toPkcs12(leaf: Issued, chain: Issued[], password: string, friendlyName?: string): Buffer {
  const asn1 = forge.pkcs12.toPkcs12Asn1(leaf.key, [leaf.cert, ...chain.map((c) => c.cert)], password, {
    algorithm: '3des',
    // forge writes the friendlyName bytes as given into a BMPString: hand it UTF-16BE.
    ...(friendlyName ? { friendlyName: bmpString(friendlyName) } : {}),
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

/** A CA loaded back from its PEM files. */
export function loadCa(certPem: string, keyPem: string): Issued {
  return {
    cert: forge.pki.certificateFromPem(certPem),
    key: forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey,
    certPem,
    keyPem,
  };
}

export const DEMO_P12_PASSWORD = 'Demo@2026';

export interface DemoCaFiles {
  /** DATA_DIR/ca */
  dir: string;
  /** DATA_DIR/ca/trusted/piibs-demo-root.pem: trusted by the server's CA sign-in. */
  rootCert: string;
  /** DATA_DIR/ca/demo-root.key.pem */
  rootKey: string;
  /** DATA_DIR/ca/enterprise-<uscc>.p12, password Demo@2026 */
  enterpriseP12: string;
  /** Which of the files this call wrote. */
  written: string[];
}

/** DATA_DIR/ca: the demo CA's files. */
export const demoCaDir = (dataDir: string) => path.join(dataDir, 'ca');

export function demoCaPaths(dataDir: string, uscc: string) {
  const dir = demoCaDir(dataDir);
  return {
    dir,
    rootCert: path.join(dir, 'trusted', 'piibs-demo-root.pem'),
    rootKey: path.join(dir, 'demo-root.key.pem'),
    enterpriseP12: path.join(dir, `enterprise-${uscc}.p12`),
  };
}

/** The demo root CA of DATA_DIR/ca, made (and its files listed in `written`) when missing. */
function ensureDemoRoot(
  paths: { rootCert: string; rootKey: string },
  written: string[],
): { root: Issued; newRoot: boolean } {
  mkdirSync(path.dirname(paths.rootCert), { recursive: true });
  if (existsSync(paths.rootCert) && existsSync(paths.rootKey))
    return {
      root: loadCa(readFileSync(paths.rootCert, 'utf8'), readFileSync(paths.rootKey, 'utf8')),
      newRoot: false,
    };
  const root = createRootCa();
  writeFileSync(paths.rootKey, root.keyPem, { mode: 0o600 });
  writeFileSync(paths.rootCert, root.certPem);
  written.push(paths.rootCert, paths.rootKey);
  return { root, newRoot: true };
}

/**
 * Makes sure DATA_DIR/ca holds the demo root CA (kept if present) and a PKCS#12 sign-in certificate for the
 * enterprise (written if missing, or always with `reissue`).
 */
export function ensureDemoCa(
  dataDir: string,
  enterprise: EnterpriseSubject,
  opts: { reissue?: boolean } = {},
): DemoCaFiles {
  const paths = demoCaPaths(dataDir, enterprise.uscc);
  const written: string[] = [];
  const { root, newRoot } = ensureDemoRoot(paths, written);
  if (opts.reissue || newRoot || !existsSync(paths.enterpriseP12)) {
    const leaf = issueEnterpriseCert(root, enterprise);
    writeFileSync(paths.enterpriseP12, toPkcs12(leaf, [root], DEMO_P12_PASSWORD, enterprise.name), {
      mode: 0o600,
    });
    written.push(paths.enterpriseP12);
  }
  return { ...paths, written };
}

/** The insurer's document-signing certificate the demo CA issues: its subject's common name. */
export const demoSealName = (insurer: string) => `${insurer} 电子签章`;

/**
 * A document-signing (电子签章) certificate for the insurer, signed by `ca`: key usage digital signature and
 * non-repudiation, 3 years by default.
 */
export function issueSealCert(ca: Issued, insurer: string, validity: Validity = {}): Issued {
  return issueLeaf(
    ca,
    [
      { name: 'countryName', value: 'CN' },
      { name: 'organizationName', value: insurer, valueTagClass: utf8 },
      { name: 'commonName', value: demoSealName(insurer), valueTagClass: utf8 },
    ] as forge.pki.CertificateField[],
    [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
      { name: 'subjectKeyIdentifier' },
    ],
    validity,
    3 * 365,
  );
}

/**
 * DATA_DIR/ca/document-signing.p12 (password Demo@2026): the demo insurer's document-signing certificate and
 * the demo root, written when missing, expired or issued by an earlier root. Answers the file and whether this
 * call wrote it.
 */
export function ensureDemoSealP12(dataDir: string, insurer: string): { file: string; written: boolean } {
  const dir = path.join(dataDir, 'ca');
  const paths = {
    rootCert: path.join(dir, 'trusted', 'piibs-demo-root.pem'),
    rootKey: path.join(dir, 'demo-root.key.pem'),
  };
  const file = path.join(dir, 'document-signing.p12');
  const { root, newRoot } = ensureDemoRoot(paths, []);
  if (!newRoot && existsSync(file)) {
    const certBag = (forge.pki.oids as Record<string, string>).certBag!;
    const bags = forge.pkcs12
      .pkcs12FromAsn1(forge.asn1.fromDer(readFileSync(file).toString('binary')), false, DEMO_P12_PASSWORD)
      .getBags({ bagType: certBag })[certBag];
    const leaf = bags?.[0]?.cert;
    if (leaf && leaf.validity.notAfter.getTime() > Date.now()) return { file, written: false };
  }
  writeFileSync(
    file,
    toPkcs12(issueSealCert(root, insurer), [root], DEMO_P12_PASSWORD, demoSealName(insurer)),
    {
      mode: 0o600,
    },
  );
  return { file, written: true };
}

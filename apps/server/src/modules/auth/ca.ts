// Certificate sign-in: the client signs a one-time challenge with its certificate's private key.
// Trust: PEM files in DATA_DIR/ca/trusted/*.pem (demo mode writes the demo root there on first start).
import { verify as cryptoVerify, X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isUscc } from '@piibs/shared';
import { and, eq, sql } from 'drizzle-orm';
import forge from 'node-forge';
import type { Db } from '../../db/client.ts';
import { oneTimeTokens } from '../../db/schema.ts';
import { badRequest, HttpError } from '../../lib/errors.ts';
import { randomToken, sha256 } from '../../lib/secrets.ts';

export const CHALLENGE_TTL_MS = 2 * 60 * 1000;

export const CA_MESSAGES = Object.freeze({
  untrusted: '证书不受信任',
  expired: '证书已过期或尚未生效',
  badSignature: '证书签名验证失败',
  keyUsage: '证书用途不包含数字签名，不能用于登录',
  unbound: '证书未绑定企业用户',
  otherCertificate: '该企业已绑定其他CA证书，请使用已绑定的证书登录',
  challenge: '挑战码无效或已过期',
  malformed: '证书格式不正确',
});

const refuse = (message: string) => new HttpError(401, message);

// ---- challenges ----

export async function issueChallenge(db: Db): Promise<{ challenge: string; expiresAt: Date }> {
  const challenge = randomToken(32);
  const [row] = await db
    .insert(oneTimeTokens)
    .values({
      hash: sha256(challenge),
      kind: 'ca_challenge',
      expiresAt: sql`now() + make_interval(secs => ${CHALLENGE_TTL_MS / 1000})`,
    })
    .returning({ expiresAt: oneTimeTokens.expiresAt });
  if (Math.random() < 0.02) {
    await db.delete(oneTimeTokens).where(sql`${oneTimeTokens.expiresAt} < now() - interval '1 hour'`);
  }
  return { challenge, expiresAt: row!.expiresAt };
}

/** Uses up a challenge: true when it existed, was unused and unexpired. Deleted whatever the outcome. */
export async function consumeChallenge(db: Db, challenge: string): Promise<boolean> {
  const [row] = await db
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.hash, sha256(challenge)), eq(oneTimeTokens.kind, 'ca_challenge')))
    .returning({ live: sql<boolean>`${oneTimeTokens.expiresAt} > now()` });
  return Boolean(row?.live);
}

// ---- trust store ----

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function trustedDir(dataDir: string): string {
  return path.join(dataDir, 'ca', 'trusted');
}

/** The trusted roots: every certificate in DATA_DIR/ca/trusted/*.pem (read on each call, so new files count). */
export function loadTrustedRoots(dataDir: string): X509Certificate[] {
  const dir = trustedDir(dataDir);
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.pem'));
  } catch {
    return [];
  }
  const roots: X509Certificate[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const pem of text.match(PEM_CERT) ?? []) {
      try {
        roots.push(new X509Certificate(pem));
      } catch {
        // An unreadable file in the trust store is skipped, never trusted.
      }
    }
  }
  return roots;
}

// ---- certificate fields node:crypto does not expose ----

type Asn1 = forge.asn1.Asn1;

function tbsFields(cert: X509Certificate): Asn1[] {
  const root = forge.asn1.fromDer(forge.util.createBuffer(cert.raw.toString('binary')));
  const tbs = (root.value as Asn1[])[0]!;
  return tbs.value as Asn1[];
}

function asn1String(node: Asn1): string {
  const raw = typeof node.value === 'string' ? node.value : '';
  if (node.type === forge.asn1.Type.BMPSTRING) {
    let out = '';
    for (let i = 0; i + 1 < raw.length; i += 2)
      out += String.fromCharCode((raw.charCodeAt(i) << 8) | raw.charCodeAt(i + 1));
    return out;
  }
  try {
    return forge.util.decodeUtf8(raw);
  } catch {
    return raw;
  }
}

/** Subject attributes as [oid, value] pairs. */
export function subjectAttributes(cert: X509Certificate): Array<[string, string]> {
  const fields = tbsFields(cert);
  const offset = fields[0]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const subject = fields[offset + 4];
  const out: Array<[string, string]> = [];
  for (const rdn of (subject?.value as Asn1[]) ?? []) {
    for (const atv of (rdn.value as Asn1[]) ?? []) {
      const [oid, value] = atv.value as Asn1[];
      if (oid && value) out.push([forge.asn1.derToOid(oid.value as string), asn1String(value)]);
    }
  }
  return out;
}

/** The keyUsage extension's digitalSignature bit, or undefined when the certificate has no keyUsage. */
export function allowsDigitalSignature(cert: X509Certificate): boolean | undefined {
  const fields = tbsFields(cert);
  const extWrapper = fields.find((f) => f.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && f.type === 3);
  const exts = ((extWrapper?.value as Asn1[])?.[0]?.value as Asn1[]) ?? [];
  for (const ext of exts) {
    const parts = ext.value as Asn1[];
    if (forge.asn1.derToOid(parts[0]!.value as string) !== '2.5.29.15') continue;
    const octets = parts[parts.length - 1]!.value as string;
    const bits = forge.asn1.fromDer(forge.util.createBuffer(octets)).value as string;
    // BIT STRING content: unused-bits byte, then the bits; digitalSignature is bit 0 (the first byte's MSB).
    return bits.length > 1 && (bits.charCodeAt(1) & 0x80) !== 0;
  }
  return undefined;
}

// organizationIdentifier, then serialNumber, then commonName.
const USCC_OIDS = ['2.5.4.97', '2.5.4.5', '2.5.4.3'];

/**
 * The enterprise's unified social credit code from the certificate subject: organizationIdentifier
 * (2.5.4.97, an ETSI-style "NTRCN-" prefix is allowed), else serialNumber (2.5.4.5), else the common name,
 * whichever first holds a valid GB 32100 code.
 */
export function usccOf(cert: X509Certificate): string | null {
  const attrs = subjectAttributes(cert);
  for (const oid of USCC_OIDS) {
    for (const [o, v] of attrs) {
      if (o !== oid) continue;
      const code = v
        .trim()
        .toUpperCase()
        .replace(/^NTRCN-/, '');
      if (isUscc(code)) return code;
    }
  }
  return null;
}

// ---- verification ----

function within(cert: X509Certificate, now: Date): boolean {
  return cert.validFromDate <= now && now <= cert.validToDate;
}

function issuedBy(child: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return child.checkIssued(issuer) && child.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

/**
 * Verifies a PEM chain (leaf first, then intermediates) up to one of `roots`, the dates of every certificate,
 * the leaf's key usage and the signature over the challenge. Answers the leaf; throws 400/401 with the reason.
 */
export function verifyCaSignIn(
  pemChain: string,
  challenge: string,
  signatureB64: string,
  roots: X509Certificate[],
  now = new Date(),
): X509Certificate {
  const pems = pemChain.match(PEM_CERT) ?? [];
  if (pems.length === 0 || pems.length > 6) throw badRequest(CA_MESSAGES.malformed);
  let certs: X509Certificate[];
  try {
    certs = pems.map((p) => new X509Certificate(p));
  } catch {
    throw badRequest(CA_MESSAGES.malformed);
  }
  const leaf = certs[0]!;
  if (leaf.ca) throw refuse(CA_MESSAGES.untrusted);

  const chain = [leaf];
  let current = leaf;
  let anchored = false;
  for (let depth = 0; depth < 6 && !anchored; depth++) {
    const root = roots.find((r) => issuedBy(current, r));
    if (root) {
      chain.push(root);
      anchored = true;
      break;
    }
    const next = certs.find((c) => c !== current && !chain.includes(c) && c.ca && issuedBy(current, c));
    if (!next) break;
    chain.push(next);
    current = next;
  }
  if (!anchored) throw refuse(CA_MESSAGES.untrusted);
  if (!chain.every((c) => within(c, now))) throw refuse(CA_MESSAGES.expired);
  if (allowsDigitalSignature(leaf) === false) throw refuse(CA_MESSAGES.keyUsage);

  let ok = false;
  try {
    ok = cryptoVerify(
      'sha256',
      Buffer.from(challenge, 'utf8'),
      leaf.publicKey,
      Buffer.from(signatureB64, 'base64'),
    );
  } catch {
    ok = false;
  }
  if (!ok) throw refuse(CA_MESSAGES.badSignature);
  return leaf;
}

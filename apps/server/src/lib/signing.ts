// The insurer's document signature (电子签章): every document PIIBS issues is signed with a PDF digital signature
// (PAdES baseline B: adbe.pkcs7.detached, SHA-256) by the insurer's signing certificate, the certificate and its
// chain embedded. The signature container and byte ranges come from the @signpdf family: the placeholder is
// appended to pdfkit's output as an incremental update (@signpdf/placeholder-plain, the widget at the seal's
// rectangle on page 1), then @signpdf/signpdf fills it with the PKCS#7 (node-forge: signed attributes content
// type, signing time and message digest; SHA-256 with RSA; every certificate of the PKCS#12 embedded). Nothing
// is rewritten after signing.
//
// The key: PIIBS_SIGNING_P12 (PKCS#12) and PIIBS_SIGNING_P12_PASSWORD; refused at start when it cannot be opened
// or its certificate has expired. Without one (demo mode, a first start) the demo CA issues "<insurer> 电子签章"
// into DATA_DIR/ca/document-signing.p12 and start-up says that documents are signed by a demo certificate.
import { readFileSync } from 'node:fs';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { SignPdf } from '@signpdf/signpdf';
import { Signer } from '@signpdf/utils';
import forge from 'node-forge';
import { DEMO_P12_PASSWORD, ensureDemoSealP12 } from '../ca/demo-ca.ts';
import type { Config } from '../config.ts';
import { ConfigError } from '../config-error.ts';

/** The signing certificate as a document records it. */
export interface SigningCertificate {
  /** The subject's common name, e.g. 示例财产保险股份有限公司 电子签章. */
  subject: string;
  /** The issuer's common name. */
  issuer: string;
  /** Serial number, hex. */
  serial: string;
  notBefore: Date;
  notAfter: Date;
}

export interface DocumentSigner {
  p12: Buffer;
  password: string;
  /** The key, its certificate and the chain, as opened. */
  key: forge.pki.rsa.PrivateKey;
  cert: forge.pki.Certificate;
  chain: forge.pki.Certificate[];
  certificate: SigningCertificate;
  /** Issued by the demo CA (no PIIBS_SIGNING_P12). */
  demo: boolean;
}

const oids = forge.pki.oids as Record<string, string>;
const CERT_BAG = oids.certBag!;
const SHROUDED_KEY_BAG = oids.pkcs8ShroudedKeyBag!;
const KEY_BAG = oids.keyBag!;

const nameOf = (attrs: forge.pki.Certificate['subject']) => {
  const field = (n: string) => attrs.getField(n)?.value as string | undefined;
  // forge decodes UTF8String values as bytes; make them text again.
  const text = (v: string | undefined) => {
    if (v == null) return undefined;
    try {
      return forge.util.decodeUtf8(v);
    } catch {
      return v;
    }
  };
  return text(field('CN')) ?? text(field('O')) ?? '';
};

/**
 * Opens a PKCS#12 with its password and finds the certificate of its private key. Throws a ConfigError saying
 * what is wrong (cannot be read, wrong password, no key, expired or not yet valid at `now`).
 */
export function openSigningP12(
  p12: Buffer,
  password: string,
  source: string,
  now: Date = new Date(),
): DocumentSigner {
  let bags: { certs: forge.pki.Certificate[]; key: forge.pki.rsa.PrivateKey | undefined };
  try {
    const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString('binary')), false, password);
    const certs = (parsed.getBags({ bagType: CERT_BAG })[CERT_BAG] ?? [])
      .map((b) => b.cert)
      .filter((c): c is forge.pki.Certificate => Boolean(c));
    const keyBag =
      parsed.getBags({ bagType: SHROUDED_KEY_BAG })[SHROUDED_KEY_BAG]?.[0] ??
      parsed.getBags({ bagType: KEY_BAG })[KEY_BAG]?.[0];
    bags = { certs, key: keyBag?.key as forge.pki.rsa.PrivateKey | undefined };
  } catch (err) {
    throw new ConfigError(
      `${source}: the document-signing PKCS#12 cannot be opened (wrong PIIBS_SIGNING_P12_PASSWORD or not a PKCS#12 file): ${(err as Error).message}`,
    );
  }
  const { key } = bags;
  const cert = key
    ? bags.certs.find((c) => {
        const pub = c.publicKey as forge.pki.rsa.PublicKey;
        return pub.n?.compareTo(key.n) === 0 && pub.e?.compareTo(key.e) === 0;
      })
    : undefined;
  if (!key || !cert)
    throw new ConfigError(
      `${source}: the document-signing PKCS#12 holds no RSA private key with its certificate`,
    );
  if (cert.validity.notAfter.getTime() <= now.getTime())
    throw new ConfigError(
      `${source}: the document-signing certificate "${nameOf(cert.subject)}" expired on ${cert.validity.notAfter.toISOString()}; configure a valid one (PIIBS_SIGNING_P12)`,
    );
  if (cert.validity.notBefore.getTime() > now.getTime())
    throw new ConfigError(
      `${source}: the document-signing certificate "${nameOf(cert.subject)}" is not valid before ${cert.validity.notBefore.toISOString()}`,
    );
  return {
    p12,
    password,
    key,
    cert,
    chain: bags.certs.filter((c) => c !== cert),
    demo: false,
    certificate: {
      subject: nameOf(cert.subject),
      issuer: nameOf(cert.issuer),
      serial: cert.serialNumber,
      notBefore: cert.validity.notBefore,
      notAfter: cert.validity.notAfter,
    },
  };
}

const signers = new Map<string, DocumentSigner>();

/**
 * The signer of an installation: PIIBS_SIGNING_P12 when configured, else the demo certificate of DATA_DIR/ca
 * (issued now when missing or expired; `insurer` names it). Opened once per file; throws a ConfigError when it
 * cannot be used. `onDemo` hears of a demo certificate (start-up logs it).
 */
export function documentSigner(
  config: Pick<Config, 'dataDir' | 'signing'>,
  insurer: string,
  onDemo?: (file: string, written: boolean) => void,
): DocumentSigner {
  const { p12Path, p12Password } = config.signing;
  const key = p12Path ? `${p12Path}\0${p12Password}` : `demo:${config.dataDir}`;
  const known = signers.get(key);
  if (known && known.certificate.notAfter.getTime() > Date.now()) {
    if (known.demo) onDemo?.(key.slice(5), false);
    return known;
  }
  let signer: DocumentSigner;
  if (p12Path) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(p12Path);
    } catch (err) {
      throw new ConfigError(`PIIBS_SIGNING_P12: cannot read ${p12Path}: ${(err as Error).message}`);
    }
    signer = openSigningP12(bytes, p12Password, 'PIIBS_SIGNING_P12');
  } else {
    const demo = ensureDemoSealP12(config.dataDir, insurer);
    signer = {
      ...openSigningP12(readFileSync(demo.file), DEMO_P12_PASSWORD, demo.file),
      demo: true,
    };
    onDemo?.(demo.file, demo.written);
  }
  signers.set(key, signer);
  return signer;
}

export interface SignatureOptions {
  /** The widget's rectangle on page 1 in PDF units (origin bottom left): [x1, y1, x2, y2]. */
  rect: [number, number, number, number];
  reason: string;
  location: string;
  /** The signer's name in the signature dictionary. */
  name: string;
}

/** Signs a finished PDF (a signature field on page 1 at `rect`); answers the signed bytes. */
export async function signPdf(pdf: Buffer, signer: DocumentSigner, o: SignatureOptions): Promise<Buffer> {
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: o.reason,
    contactInfo: '',
    name: o.name,
    location: o.location,
    subFilter: 'adbe.pkcs7.detached',
    // The PKCS#7 holds the chain (at most what the PKCS#12 holds) and the signature.
    signatureLength: signer.p12.length + 4096,
    widgetRect: o.rect,
    appName: 'PIIBS',
  });
  return new SignPdf().sign(withPlaceholder, new Pkcs7Signer(signer));
}

/**
 * The detached PKCS#7 of a PDF's signed byte ranges, as @signpdf/signer-p12 makes it, from the key opened once.
 * Unlike it, the signer's issuer name keeps non-ASCII names intact: forge reads a UTF8String attribute as its
 * bytes and would encode them again in the IssuerAndSerialNumber, so a CA named in Chinese would not match.
 */
class Pkcs7Signer extends Signer {
  private readonly s: DocumentSigner;

  constructor(signer: DocumentSigner) {
    super();
    this.s = signer;
  }

  override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdfBuffer.toString('binary'));
    for (const c of [this.s.cert, ...this.s.chain]) p7.addCertificate(c);
    const issuer = this.s.cert.issuer.attributes.map((a) => {
      if ((a.valueTagClass as unknown) !== forge.asn1.Type.UTF8 || typeof a.value !== 'string') return a;
      try {
        return { ...a, value: forge.util.decodeUtf8(a.value) };
      } catch {
        return a;
      }
    });
    const certificate = Object.create(this.s.cert, {
      issuer: { value: { ...this.s.cert.issuer, attributes: issuer } },
    }) as forge.pki.Certificate;
    p7.addSigner({
      key: this.s.key,
      certificate,
      digestAlgorithm: oids.sha256!,
      authenticatedAttributes: [
        { type: oids.contentType!, value: oids.data! },
        // forge's typing wants a string; it accepts (and encodes) a Date.
        { type: oids.signingTime!, value: (signingTime ?? new Date()) as unknown as string },
        { type: oids.messageDigest! },
      ],
    });
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary');
  }
}

// Issuing a signed document: the one way every document PIIBS issues (电子保单 and its demo redraw, 批单,
// 退保通知书, 事故预防服务档案) is sealed, signed and recorded. issueSignedDocument() opens the insurer's signer
// (lib/signing.ts), hands the renderer the seal (its renderer draws the seal on page 1 and signs: lib/pdf.ts
// finish), and adds a row to issued_document with the kind, number, SHA-256 of the signed bytes, the signing
// certificate and (for a policy's documents) the bytes themselves. Rows are only ever added, so a new certificate
// or a redraw never touches a file already issued; the public verification lists them all.
import { createHash } from 'node:crypto';
import type { DocumentKind } from '@piibs/shared/documents';
import type { Config } from '../../config.ts';
import type { Db, Tx } from '../../db/client.ts';
import { issuedDocuments } from '../../db/schema.ts';
import type { Seal } from '../../lib/pdf.ts';
import { documentSigner, type SigningCertificate } from '../../lib/signing.ts';
import { insurerName } from '../init/service.ts';

export interface IssueDocument {
  kind: DocumentKind;
  /** The policy the document belongs to (null: the prevention archive). */
  policyId: number | null;
  /** The document's number, as printed on it. */
  number: string;
  /** The seal's lower line (电子保单专用章 …). */
  sealLabel: string;
  /** The signature's reason (签发电子保单 PAZX…). */
  reason: string;
  /** Draws the document and finishes it with the seal given (lib/pdf.ts: finish(footer, seal)). */
  render: (seal: Seal) => Promise<Buffer>;
  /** Keep the signed bytes (default true; the archive, made per request, keeps its hash only). */
  keepContent?: boolean;
}

export interface IssuedDocument {
  id: number;
  /** The signed bytes: what a download answers, byte for byte. */
  content: Buffer;
  sha256: string;
  size: number;
  certificate: SigningCertificate;
}

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Seals, signs and records one document; answers the signed bytes and their record. */
export async function issueSignedDocument(
  db: Db | Tx,
  ctx: { config: Pick<Config, 'dataDir' | 'signing'> },
  d: IssueDocument,
): Promise<IssuedDocument> {
  const insurer = await insurerName(db);
  const signer = documentSigner(ctx.config, insurer);
  const content = await d.render({ signer, insurerName: insurer, label: d.sealLabel, reason: d.reason });
  const sha256 = sha256Of(content);
  const c = signer.certificate;
  const [row] = await db
    .insert(issuedDocuments)
    .values({
      kind: d.kind,
      policyId: d.policyId,
      number: d.number,
      sha256,
      size: content.length,
      content: d.keepContent === false ? null : content,
      certSubject: c.subject,
      certIssuer: c.issuer,
      certSerial: c.serial,
      certNotBefore: c.notBefore,
      certNotAfter: c.notAfter,
    })
    .returning({ id: issuedDocuments.id });
  return { id: row!.id, content, sha256, size: content.length, certificate: c };
}

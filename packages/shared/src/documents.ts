// The signed documents PIIBS issues (电子保单, 批单, 退保通知书, 事故预防服务档案): their kinds as stored with each
// issued file (the server's issued_document table) and as the public verification page names them.
// Import it as `@piibs/shared/documents`.
import { z } from 'zod';

export const DOCUMENT_KINDS = ['POLICY', 'ENDORSEMENT', 'CANCELLATION', 'PREVENTION_ARCHIVE'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_KIND_LABELS: Readonly<Record<DocumentKind, string>> = Object.freeze({
  POLICY: '电子保单',
  ENDORSEMENT: '批单',
  CANCELLATION: '退保通知书',
  PREVENTION_ARCHIVE: '事故预防服务档案',
});

/** What the verification page says of a dropped file whose SHA-256 is, or is not, one of the issued files'. */
export const FILE_MATCHES = '与签发文件一致';
export const FILE_DIFFERS = '与签发文件不一致';

/** The certificate a file was signed with, as recorded when it was issued. */
export const signingCertificate = z.object({
  subject: z.string(),
  issuer: z.string(),
  serial: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
});

/** One file issued for a policy (the public verification lists them all, oldest first). */
export const issuedDocumentRow = z.object({
  kind: z.enum(DOCUMENT_KINDS),
  kindLabel: z.string(),
  number: z.string(),
  sha256: z.string(),
  sizeBytes: z.number(),
  issuedAt: z.string(),
  /** Null for a file issued before documents were signed. */
  certificate: signingCertificate.nullable(),
});
export type IssuedDocumentRow = z.infer<typeof issuedDocumentRow>;

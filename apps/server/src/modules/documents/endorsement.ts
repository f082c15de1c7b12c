// Issuing a 批单: the one way both kinds of endorsement (a project order's change and a policy's 批改 / 退保) are
// numbered, sealed, signed, stored with their SHA-256 and audited. The caller renders the PDF; this file owns the
// number (endorsement_number_seq), the endorsement row, its document and the audit entry.
import { SYSTEM_ACTOR } from '@piibs/shared/audit-text';
import { formatTime } from '@piibs/shared/constants';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { endorsementDocuments, endorsements } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { Seal } from '../../lib/pdf.ts';
import { numberPrefix } from '../products/service.ts';
import { issueSignedDocument } from './issue.ts';

type EndorsementValues = typeof endorsements.$inferInsert;

export interface NewEndorsement {
  /** 批单 or 退保批单. */
  kind: 'ENDORSEMENT' | 'CANCELLATION';
  policyId: number;
  /** The product's code: the number's prefix (E + the policy's prefix). */
  productCode: string;
  /** What the endorsement records: its source and its figures (the row without number, policy and file). */
  values: Omit<EndorsementValues, 'number' | 'policyId' | 'pdfSha256' | 'pdfSize'>;
  /** More of the audit entry's detail (the number, policy, premium difference and file hash are always there). */
  auditDetail: Record<string, unknown>;
  /** Draws the 批单 with its number and finishes it with the seal given. */
  render: (number: string, seal: Seal) => Promise<Buffer>;
}

/** Numbers, signs and records one 批单 inside the caller's transaction; answers its row id and number. */
export async function recordEndorsement(
  tx: Tx,
  ctx: Parameters<typeof issueSignedDocument>[1],
  e: NewEndorsement,
): Promise<{ id: number; number: string }> {
  const res = await tx.execute<{ n: string }>(sql`select nextval('endorsement_number_seq')::text as n`);
  const number = `E${numberPrefix(e.productCode, 'X')}${formatTime(Date.now(), '{y}')}${res.rows[0]!.n.padStart(8, '0')}`;
  const cancellation = e.kind === 'CANCELLATION';
  // Sealed, signed and recorded (issued_document): the verification page lists it with the policy's files.
  const doc = await issueSignedDocument(tx, ctx, {
    kind: e.kind,
    policyId: e.policyId,
    number,
    sealLabel: '批单专用章',
    reason: `签发${cancellation ? '退保批单' : '批单'} ${number}`,
    render: (seal) => e.render(number, seal),
  });
  const [row] = await tx
    .insert(endorsements)
    .values({ ...e.values, number, policyId: e.policyId, pdfSha256: doc.sha256, pdfSize: doc.content.length })
    .returning({ id: endorsements.id });
  await tx
    .insert(endorsementDocuments)
    .values({ endorsementId: row!.id, content: doc.content, sha256: doc.sha256 });
  await writeAudit(tx, {
    actorName: SYSTEM_ACTOR,
    action: 'issue',
    entity: 'endorsement',
    entityId: row!.id,
    detail: {
      number,
      policyId: e.policyId,
      ...e.auditDetail,
      premiumDiffFen: e.values.premiumDiffFen,
      pdfSha256: doc.sha256,
    },
  });
  return { id: row!.id, number };
}

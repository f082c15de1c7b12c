// Issuance (出单): a paid application becomes a policy, once.
//
// issuePolicy() is one transaction that locks the application; a policy already there answers it (so any
// number of retries, sweeps or instances make exactly one, backed by the unique index on
// policy.application_id). It makes the policy number on the server ('P' + product prefix + year + 8-digit
// serial from policy_number_seq), copies the period, the covers (the product's coverages the quote priced,
// with their limits and deductibles: policyCoversOf), the co-insurance table (the issuing insurer's row named as
// the organisation) and the prevention fee, draws a
// random verification code, renders the e-policy PDF sealed and signed by the insurer (issueSignedDocument, which
// records the file in issued_document) and stores it with its SHA-256, and moves the application PAID → ISSUED
// with its event and audit trail. A policy written without its e-policy (the volume data set, demo/volume.ts)
// has it drawn the same way on its first download (storedPolicyDocument).
//
// It runs right after payment; a failure is handed to the pg-boss job 'policy-issue' (retried with back-off)
// and, in any case, the sweep job 'policy-issue-sweep' (every minute and on start) picks up every paid
// application without a policy.
import { randomBytes } from 'node:crypto';
import { SYSTEM_ACTOR } from '@piibs/shared/audit-text';
import { formatTime } from '@piibs/shared/constants';
import { maskIdNumber } from '@piibs/shared/named-insured';
import {
  type PolicyCoinsurer,
  type PolicyCoverage,
  policyCoinsurerOf,
  policyCoversOf,
  verifyPath,
} from '@piibs/shared/policy';
import type { QuoteResult } from '@piibs/shared/product';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { BusinessContext } from '../../app-types.ts';
import type { Db, Tx } from '../../db/client.ts';
import {
  applicationEvents,
  applicationInsuredPersons,
  applications,
  customers,
  payments,
  policies,
  policyCoinsurers,
  policyDocuments,
  products,
} from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { copyInsuredListToPolicy, policyInsuredRows } from '../applications/insured-persons.ts';
import { applicationCoinsurersOf } from '../applications/queries.ts';
import { type IssuedDocument, issueSignedDocument } from '../documents/issue.ts';
import { insurerName } from '../init/service.ts';
import { notifyPolicyIssued } from '../notifications/events.ts';
import { getProduct, numberPrefix } from '../products/service.ts';
import { type PolicyPdfData, renderPolicyPdf } from './pdf.ts';

/** The e-policy as issueSignedDocument signs it. */
const policyDocument = (policyId: number, data: PolicyPdfData) => ({
  kind: 'POLICY' as const,
  policyId,
  number: data.number,
  sealLabel: '电子保单专用章',
  reason: `签发电子保单 ${data.number}`,
  render: (seal: Parameters<typeof renderPolicyPdf>[1]) => renderPolicyPdf(data, seal),
});

/**
 * Test hook: while `remaining` > 0, an issuance fails after it has written everything (so the rollback is
 * exercised) and counts down. Never set outside tests.
 */
export const issuanceFaults = { remaining: 0 };

export interface IssueResult {
  policyId: number;
  number: string;
  /** False when the policy was already there. */
  created: boolean;
}

/** Crockford's base-32 alphabet: no I, L, O, U. */
export const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A random verification code of 16 characters (80 bits). */
export function newVerificationCode(): string {
  const bytes = randomBytes(16);
  return Array.from(bytes, (b) => CODE_ALPHABET[b & 31]).join('');
}

async function nextPolicyNumber(tx: Tx, productCode: string): Promise<string> {
  const res = await tx.execute<{ n: string }>(sql`select nextval('policy_number_seq')::text as n`);
  return `P${numberPrefix(productCode, 'X')}${formatTime(Date.now(), '{y}')}${res.rows[0]!.n.padStart(8, '0')}`;
}

/** What a policy's PDF says of the policy itself (its row). */
type PdfRow = Pick<
  PolicyPdfData,
  | 'number'
  | 'holderName'
  | 'holderUscc'
  | 'insuredName'
  | 'insuredUscc'
  | 'insuredAddress'
  | 'startDate'
  | 'endDate'
  | 'premiumFen'
  | 'preventionRatio'
  | 'preventionFeeFen'
  | 'headcount'
  | 'projectName'
  | 'specialTerms'
  | 'coverages'
  | 'verificationCode'
  | 'issuedAt'
>;

/** The e-policy's content: the policy's row and what it is about. */
const pdfData = (
  ctx: Pick<BusinessContext, 'config'>,
  row: PdfRow,
  about: Pick<
    PolicyPdfData,
    'insurerName' | 'applicationNumber' | 'productName' | 'clauseVersion' | 'coinsurers' | 'insuredPersons'
  >,
): PolicyPdfData => ({
  ...about,
  number: row.number,
  holderName: row.holderName,
  holderUscc: row.holderUscc,
  insuredName: row.insuredName,
  insuredUscc: row.insuredUscc,
  insuredAddress: row.insuredAddress,
  startDate: row.startDate,
  endDate: row.endDate,
  premiumFen: row.premiumFen,
  preventionRatio: row.preventionRatio,
  preventionFeeFen: row.preventionFeeFen,
  headcount: row.headcount,
  projectName: row.projectName,
  specialTerms: row.specialTerms,
  coverages: row.coverages,
  verificationCode: row.verificationCode,
  verifyUrl: `${ctx.config.business.publicUrl}${verifyPath(row.verificationCode)}`,
  issuedAt: row.issuedAt,
  issuedAtText: formatTime(row.issuedAt),
});

/** A named insured person as the e-policy annex prints them: the identity card number masked. */
const maskedPerson = (p: { name: string; idNumber: string }) => ({
  name: p.name,
  idNumberMasked: maskIdNumber(p.idNumber),
});

/** Draws, signs and records (issued_document) the e-policy of an issued policy from its row as it stands. */
async function drawFromRow(
  tx: Tx,
  ctx: Pick<BusinessContext, 'config'>,
  p: typeof policies.$inferSelect,
): Promise<IssuedDocument> {
  const [a] = await tx
    .select({ number: applications.number })
    .from(applications)
    .where(eq(applications.id, p.applicationId));
  const [product] = await tx.select().from(products).where(eq(products.id, p.productId));
  const coinsurers = await tx
    .select()
    .from(policyCoinsurers)
    .where(eq(policyCoinsurers.policyId, p.id))
    .orderBy(asc(policyCoinsurers.sort));
  const data = pdfData(
    ctx,
    { ...p, coverages: p.coverages as PolicyCoverage[] },
    {
      insurerName: await insurerName(tx),
      applicationNumber: a?.number ?? '',
      productName: product?.name ?? '',
      clauseVersion: product?.clauseVersion ?? null,
      coinsurers: coinsurers.map(policyCoinsurerOf),
      insuredPersons: (await policyInsuredRows(tx, p.id)).map(maskedPerson),
    },
  );
  return issueSignedDocument(tx, ctx, policyDocument(p.id, data));
}

/**
 * Draws an issued policy's e-policy again from its row, signs it and stores it as the policy's e-policy with its
 * new SHA-256: for the demo's clock (demo/clock.ts), which moves a policy's period and issue time after it was
 * issued. The file drawn before stays recorded (issued_document) as it was signed. Not for business changes —
 * those are endorsements (批单), documents of their own.
 */
export async function redrawPolicyDocument(ctx: BusinessContext, policyId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [p] = await tx.select().from(policies).where(eq(policies.id, policyId)).for('update');
    if (!p) throw new Error(`policy ${policyId} not found`);
    const doc = await drawFromRow(tx, ctx, p);
    await tx.update(policies).set({ pdfSha256: doc.sha256, pdfSize: doc.size }).where(eq(policies.id, p.id));
    await tx
      .update(policyDocuments)
      .set({ content: doc.content, sha256: doc.sha256 })
      .where(eq(policyDocuments.policyId, p.id));
  });
}

/**
 * A policy's stored e-policy, drawn first when it has none. Issuing stores it, so only the policies of the volume
 * data set (demo/volume.ts) come here: they are written in bulk, and drawing and signing a PDF for each of tens
 * of thousands would take that seed from seconds to hours. It is drawn from the policy's row as issuing draws
 * it, signed and stored the same way (issued_document, policy_document, the hash and size on the row), once:
 * under the policy's lock a concurrent download waits and answers the file the first one stored.
 */
export async function storedPolicyDocument(
  ctx: Pick<BusinessContext, 'db' | 'config'>,
  policyId: number,
): Promise<{ content: Buffer; sha256: string } | null> {
  const stored = (db: Db | Tx) =>
    db
      .select({ content: policyDocuments.content, sha256: policyDocuments.sha256 })
      .from(policyDocuments)
      .where(eq(policyDocuments.policyId, policyId));
  const [doc] = await stored(ctx.db);
  if (doc) return doc;
  return ctx.db.transaction(async (tx) => {
    const [p] = await tx.select().from(policies).where(eq(policies.id, policyId)).for('update');
    if (!p) return null;
    const [drawn] = await stored(tx);
    if (drawn) return drawn;
    const made = await drawFromRow(tx, ctx, p);
    await tx
      .update(policies)
      .set({ pdfSha256: made.sha256, pdfSize: made.size })
      .where(eq(policies.id, p.id));
    await tx.insert(policyDocuments).values({ policyId: p.id, content: made.content, sha256: made.sha256 });
    return { content: made.content, sha256: made.sha256 };
  });
}

/** Issues the policy of a paid application (idempotent). Null when the application is not PAID and has none. */
export async function issuePolicy(ctx: BusinessContext, applicationId: number): Promise<IssueResult | null> {
  try {
    return await issueOnce(ctx, applicationId);
  } catch (err) {
    // Another instance issued it between our check and insert (cannot happen under the lock, but be sure).
    if (isUniqueViolation(err)) {
      const [p] = await ctx.db
        .select({ id: policies.id, number: policies.number })
        .from(policies)
        .where(eq(policies.applicationId, applicationId));
      if (p) return { policyId: p.id, number: p.number, created: false };
    }
    throw err;
  }
}

async function issueOnce(ctx: BusinessContext, applicationId: number): Promise<IssueResult | null> {
  return ctx.db.transaction(async (tx) => {
    const [a] = await tx.select().from(applications).where(eq(applications.id, applicationId)).for('update');
    if (!a) return null;
    const [existing] = await tx
      .select({ id: policies.id, number: policies.number })
      .from(policies)
      .where(eq(policies.applicationId, applicationId));
    if (existing) return { policyId: existing.id, number: existing.number, created: false };
    if (a.status !== 'PAID') return null;

    const [product] = await tx.select().from(products).where(eq(products.id, a.productId));
    const [holder] = await tx.select().from(customers).where(eq(customers.id, a.customerId));
    const [payment] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.applicationId, a.id))
      .orderBy(desc(payments.id))
      .limit(1);
    if (!product || !holder || !a.startDate || !a.endDate)
      throw new Error(`application ${a.id} is incomplete`);
    const quote = a.quote as QuoteResult | null;
    const covers: PolicyCoverage[] = quote
      ? policyCoversOf((await getProduct(tx, product.id)).coverages, quote)
      : [];
    const issuer = await insurerName(tx);
    // The issuing insurer's row (ISSUER_CODE) keeps the organisation's name as at issue.
    const coinsurers: PolicyCoinsurer[] = await applicationCoinsurersOf(tx, a.id, issuer);

    const number = await nextPolicyNumber(tx, product.code);
    const premiumFen = a.premiumFen ?? 0;
    const preventionFeeFen = a.preventionFeeFen ?? 0;
    const row = {
      number,
      applicationId: a.id,
      productId: product.id,
      customerId: holder.id,
      paymentId: payment?.id ?? null,
      holderName: holder.name,
      holderUscc: holder.uscc,
      insuredName: a.insuredName ?? holder.name,
      insuredUscc: a.insuredUscc,
      insuredAddress: a.insuredAddress,
      startDate: a.startDate,
      endDate: a.endDate,
      premiumFen,
      preventionRatio: a.preventionRatio,
      preventionFeeFen,
      coverages: covers,
      headcount: a.headcount,
      projectName: a.projectName,
      specialTerms: a.specialTerms,
      verificationCode: newVerificationCode(),
      issuedAt: new Date(),
    };
    const data = pdfData(ctx, row, {
      insurerName: issuer,
      applicationNumber: a.number,
      productName: product.name,
      clauseVersion: product.clauseVersion,
      coinsurers,
      insuredPersons: (
        await tx
          .select()
          .from(applicationInsuredPersons)
          .where(eq(applicationInsuredPersons.applicationId, a.id))
          .orderBy(asc(applicationInsuredPersons.sort))
      ).map(maskedPerson),
    });
    // The row first (the issued file names its policy), its document's hash once signed.
    const [policy] = await tx
      .insert(policies)
      .values({ ...row, pdfSha256: '', pdfSize: 0 })
      .returning({ id: policies.id });
    const policyId = policy!.id;
    await copyInsuredListToPolicy(tx, a.id, policyId);
    const doc = await issueSignedDocument(tx, ctx, policyDocument(policyId, data));
    const sha256 = doc.sha256;
    await tx.update(policies).set({ pdfSha256: sha256, pdfSize: doc.size }).where(eq(policies.id, policyId));
    if (coinsurers.length)
      await tx.insert(policyCoinsurers).values(
        coinsurers.map((c, i) => ({
          policyId,
          insurerCode: c.insurerCode,
          insurerName: c.insurerName,
          lead: c.lead,
          share: c.share,
          premiumFen: c.premiumFen,
          preventionFeeFen: c.preventionFeeFen,
          sort: i,
        })),
      );
    await tx.insert(policyDocuments).values({ policyId, content: doc.content, sha256 });
    await tx
      .update(applications)
      .set({ status: 'ISSUED', version: sql`${applications.version} + 1`, updatedAt: sql`now()` })
      .where(eq(applications.id, a.id));
    await tx.insert(applicationEvents).values({
      applicationId: a.id,
      action: 'issue',
      fromStatus: 'PAID',
      toStatus: 'ISSUED',
      actorId: null,
      actorName: SYSTEM_ACTOR,
      opinion: `保单号 ${number}`,
    });
    await writeAudit(tx, {
      actorName: SYSTEM_ACTOR,
      action: 'issue',
      entity: 'policy',
      entityId: policyId,
      detail: {
        number,
        applicationId: a.id,
        premiumFen,
        preventionFeeFen,
        period: [a.startDate, a.endDate],
        coinsurers: coinsurers.length,
        pdfSha256: sha256,
      },
    });
    await notifyPolicyIssued(tx, {
      policyId,
      number,
      applicationId: a.id,
      applicationNumber: a.number,
      holderName: holder.name,
    });
    if (issuanceFaults.remaining > 0) {
      issuanceFaults.remaining--;
      throw new Error('simulated issuance failure (test hook)');
    }
    return { policyId, number, created: true };
  });
}

/**
 * Right after a payment: issues at once; on failure hands the application to the retrying job (when the queue
 * runs) and otherwise leaves it to the sweep. Never throws (the payment stands either way).
 */
export async function issueAfterPayment(ctx: BusinessContext, applicationId: number): Promise<void> {
  try {
    const issued = await issuePolicy(ctx, applicationId);
    if (issued?.created) ctx.log.info({ applicationId, policy: issued.number }, 'policy issued');
  } catch (err) {
    ctx.log.error({ err, applicationId }, 'policy issuance failed; queued for retry');
    try {
      await ctx.queue?.sendIssue(applicationId);
    } catch (queueErr) {
      ctx.log.error({ err: queueErr, applicationId }, 'could not queue issuance; the sweep will retry');
    }
  }
}

/** The sweep: every paid application without a policy, oldest first. Answers what it did. */
export async function issuePendingPolicies(
  ctx: BusinessContext,
): Promise<{ issued: number; failed: number }> {
  const paid = await ctx.db
    .select({ id: applications.id })
    .from(applications)
    .leftJoin(policies, eq(policies.applicationId, applications.id))
    .where(and(eq(applications.status, 'PAID'), isNull(policies.id)))
    .orderBy(asc(applications.updatedAt))
    .limit(500);
  let issued = 0;
  let failed = 0;
  for (const { id } of paid) {
    try {
      if ((await issuePolicy(ctx, id))?.created) issued++;
    } catch (err) {
      failed++;
      ctx.log.error({ err, applicationId: id }, 'policy issuance failed; retried on the next sweep');
    }
  }
  return { issued, failed };
}

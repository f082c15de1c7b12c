// Endorsements (批单): an approved change (kind-2 secondary order) issued against its project's policy.
//
// issueEndorsement() runs after the approval is committed (the task service's afterApproval, as a project's
// policy is issued) and again from the issuance sweep for any approved change without one: one transaction that
// locks the change, answers the endorsement already there (the unique index on endorsement.secondary_order_id
// backs this), else numbers it ('E' + product prefix + year + serial), lists the changed fields before → after
// from the change's snapshot of the project, renders its PDF in the e-policy's frame, sealed and signed by the
// insurer (issueSignedDocument, which records the file in issued_document), and stores it with its SHA-256. The policy row and its e-policy stay as issued; the endorsement amends them.
import { addDays, shanghaiToday } from '@piibs/shared/application-status';
import { formatTime } from '@piibs/shared/constants';
import { verifyPath } from '@piibs/shared/policy';
import {
  changesBetween,
  type EndorsementChange,
  type EndorsementRow,
  type ProjectValues,
} from '@piibs/shared/project-order';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { BusinessContext } from '../../app-types.ts';
import type { Db, Tx } from '../../db/client.ts';
import { endorsementDocuments, endorsements, policies, products, secondaryOrders } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { notFound } from '../../lib/errors.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { recordEndorsement } from '../documents/endorsement.ts';
import { insurerName } from '../init/service.ts';
import { policiesVisibleTo, policyCovers } from '../policies/service.ts';
import { renderEndorsementPdf } from './endorsement-pdf.ts';

export const ENDORSEMENT_NOT_FOUND = '批单不存在';

export interface EndorsementIssued {
  id: number;
  number: string;
  /** False when it was already there. */
  created: boolean;
}

/** Issues the endorsement of an approved change (idempotent); null when the change is not an approved one. */
export async function issueEndorsement(
  ctx: BusinessContext,
  changeId: number,
): Promise<EndorsementIssued | null> {
  try {
    return await issueOnce(ctx, changeId);
  } catch (err) {
    if (isUniqueViolation(err)) {
      const [e] = await ctx.db
        .select({ id: endorsements.id, number: endorsements.number })
        .from(endorsements)
        .where(eq(endorsements.secondaryOrderId, changeId));
      if (e) return { ...e, created: false };
    }
    throw err;
  }
}

/** The project's values as a change leaves them. */
const valuesOf = (c: typeof secondaryOrders.$inferSelect): ProjectValues => ({
  projectAddress: c.projectAddress,
  projectCostFen: c.projectCostFen,
  startDate: c.startDate,
  endDate: c.endDate,
  highRisk: c.highRisk,
  headcount: c.headcount,
  premiumFen: c.premiumFen,
});

async function issueOnce(ctx: BusinessContext, changeId: number): Promise<EndorsementIssued | null> {
  return ctx.db.transaction(async (tx) => {
    const [c] = await tx.select().from(secondaryOrders).where(eq(secondaryOrders.id, changeId)).for('update');
    if (c?.kind !== 2 || !c.baseId) return null;
    const [existing] = await tx
      .select({ id: endorsements.id, number: endorsements.number })
      .from(endorsements)
      .where(eq(endorsements.secondaryOrderId, changeId));
    if (existing) return { ...existing, created: false };
    if (c.status !== 'APPROVED') return null;

    const [base] = await tx.select().from(secondaryOrders).where(eq(secondaryOrders.id, c.baseId));
    const [policy] = base?.applicationId
      ? await tx.select().from(policies).where(eq(policies.applicationId, base.applicationId))
      : [];
    if (!base || !policy) throw new Error(`change ${c.id}: the project's policy is missing`);
    const [product] = await tx.select().from(products).where(eq(products.id, policy.productId));
    const before = c.baseValues as ProjectValues;
    const after = valuesOf(c);
    const changes: EndorsementChange[] = changesBetween(before, after);
    // In force from the day after approval: a change never reaches back.
    const effectiveDate = addDays(shanghaiToday((c.decidedAt ?? new Date()).getTime()), 1);
    const issuedAt = new Date();
    const premiumDiffFen = after.premiumFen - before.premiumFen;
    const data = {
      insurerName: await insurerName(tx),
      policyNumber: policy.number,
      declarationNumber: c.number,
      productName: product!.name,
      holderName: policy.holderName,
      holderUscc: policy.holderUscc,
      projectName: c.projectName,
      effectiveDate,
      changes,
      premiumBeforeFen: before.premiumFen,
      premiumAfterFen: after.premiumFen,
      premiumDiffFen,
      coverages: await policyCovers(tx, policy),
      verifyUrl: `${ctx.config.business.publicUrl}${verifyPath(policy.verificationCode)}`,
      issuedAt,
      issuedAtText: formatTime(issuedAt),
    };
    const { id, number } = await recordEndorsement(tx, ctx, {
      kind: 'ENDORSEMENT',
      policyId: policy.id,
      productCode: product!.code,
      values: {
        secondaryOrderId: c.id,
        changes,
        premiumBeforeFen: before.premiumFen,
        premiumAfterFen: after.premiumFen,
        premiumDiffFen,
        effectiveDate,
        issuedAt,
      },
      auditDetail: { secondaryOrderId: c.id },
      render: (number, seal) => renderEndorsementPdf({ ...data, number }, seal),
    });
    return { id, number, created: true };
  });
}

/** The sweep: approved changes without an endorsement (their policy issued), oldest first. */
export async function issuePendingEndorsements(
  ctx: BusinessContext,
): Promise<{ issued: number; failed: number }> {
  const pending = await ctx.db
    .select({ id: secondaryOrders.id })
    .from(secondaryOrders)
    .leftJoin(endorsements, eq(endorsements.secondaryOrderId, secondaryOrders.id))
    .where(and(eq(secondaryOrders.kind, 2), eq(secondaryOrders.status, 'APPROVED'), isNull(endorsements.id)))
    .orderBy(asc(secondaryOrders.decidedAt))
    .limit(500);
  let issued = 0;
  let failed = 0;
  for (const { id } of pending) {
    try {
      if ((await issueEndorsement(ctx, id))?.created) issued++;
    } catch (err) {
      failed++;
      ctx.log.error({ err, secondaryOrderId: id }, 'endorsement issuance failed; retried on the next sweep');
    }
  }
  return { issued, failed };
}

// ---- reading ----

const change = alias(secondaryOrders, 'endorsed_change');

const endorsementColumns = {
  id: endorsements.id,
  number: endorsements.number,
  policyId: endorsements.policyId,
  policyNumber: policies.number,
  declarationId: change.id,
  declarationNumber: change.number,
  changes: endorsements.changes,
  premiumBeforeFen: endorsements.premiumBeforeFen,
  premiumAfterFen: endorsements.premiumAfterFen,
  premiumDiffFen: endorsements.premiumDiffFen,
  effectiveDate: endorsements.effectiveDate,
  issuedAt: endorsements.issuedAt,
  pdfSha256: endorsements.pdfSha256,
  pdfSize: endorsements.pdfSize,
};

const selectEndorsements = (db: Db | Tx) =>
  db
    .select(endorsementColumns)
    .from(endorsements)
    .innerJoin(policies, eq(policies.id, endorsements.policyId))
    .innerJoin(change, eq(change.id, endorsements.secondaryOrderId));
type RawEndorsement = Awaited<ReturnType<typeof selectEndorsements>>[number];

const toEndorsementRow = (r: RawEndorsement): EndorsementRow => ({
  ...r,
  changes: r.changes as EndorsementChange[],
  issuedAt: r.issuedAt.toISOString(),
});

/** The endorsement of one change, or null (the caller has checked it may see the change). */
export async function endorsementOfChange(db: Db | Tx, changeId: number): Promise<EndorsementRow | null> {
  const [row] = await selectEndorsements(db).where(eq(endorsements.secondaryOrderId, changeId));
  return row ? toEndorsementRow(row) : null;
}

/** The endorsements of a project's changes, oldest first (the caller has checked it may see the project). */
export async function endorsementsOfProject(db: Db | Tx, projectId: number): Promise<EndorsementRow[]> {
  return (
    await selectEndorsements(db)
      .where(eq(change.baseId, projectId))
      .orderBy(asc(endorsements.issuedAt), asc(endorsements.id))
  ).map(toEndorsementRow);
}

/** GET /api/policies/:id/endorsements: the endorsements of a policy the viewer may see (404 otherwise). */
export async function policyEndorsements(
  db: Db,
  viewer: CustomerViewer,
  policyId: number,
): Promise<EndorsementRow[]> {
  const [seen] = await db
    .select({ id: policies.id })
    .from(policies)
    .where(and(eq(policies.id, policyId), policiesVisibleTo(db, viewer)));
  if (!seen) throw notFound('保单不存在');
  return (
    await selectEndorsements(db)
      .where(eq(endorsements.policyId, policyId))
      .orderBy(asc(endorsements.issuedAt), asc(endorsements.id))
  ).map(toEndorsementRow);
}

/** GET /api/endorsements/:id/pdf: the PDF of an endorsement whose policy the viewer may see (404 otherwise). */
export async function endorsementPdf(
  db: Db,
  viewer: CustomerViewer,
  id: number,
): Promise<{ number: string; content: Buffer; sha256: string }> {
  const [row] = await db
    .select({
      number: endorsements.number,
      content: endorsementDocuments.content,
      sha256: endorsementDocuments.sha256,
    })
    .from(endorsements)
    .innerJoin(policies, eq(policies.id, endorsements.policyId))
    .innerJoin(endorsementDocuments, eq(endorsementDocuments.endorsementId, endorsements.id))
    .where(and(eq(endorsements.id, id), policiesVisibleTo(db, viewer)));
  if (!row) throw notFound(ENDORSEMENT_NOT_FOUND);
  return row;
}

// Renewals (续保): from a policy within 90 days of its end (Asia/Shanghai, through the end day itself; a lapsed
// policy is insured anew), its policyholder — the application's owner or agent, the enterprise whose code the
// applicant carries, or the agent who owns that client — makes a new DRAFT application in one action: same
// product, applicant, insured, contacts, rating inputs and co-insurers (while still valid), the period from the
// day after the old end for a year less a day, priced on the product's CURRENT active rate table, linked to the
// old policy (application.renewal_of_policy_id). One live renewal per policy (a partial unique index backs the
// check): a second one answers 409 naming the existing draft. The draft then goes through the ordinary wizard and
// submit.
import type { Channel } from '@piibs/shared/application-status';
import { shanghaiToday } from '@piibs/shared/application-status';
import { coinsuranceProblem, splitAmount } from '@piibs/shared/coinsurance';
import { POLICY_NOT_FOUND } from '@piibs/shared/policy';
import { problemText } from '@piibs/shared/problem';
import {
  RENEWAL_WINDOW_MESSAGE,
  type RenewalInfo,
  type RenewalResult,
  renewalPeriod,
  renewalState,
  renewalWindow,
} from '@piibs/shared/sales';
import { and, asc, desc, eq, notInArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import {
  applicationCoinsurers,
  applicationEvents,
  applications,
  customers,
  policies,
} from '../../db/schema.ts';
import { type Actor, auditAction } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { isApplicationOwner } from '../applications/access.ts';
import { type Application, nextApplicationNumber } from '../applications/changes.ts';
import { coinsurerCodes } from '../applications/drafts.ts';
import { coveredPersons, insertApplicationList } from '../applications/insured-persons.ts';
import { priceNewDraft } from '../applications/pricing.ts';
import type { CustomerViewer } from '../customers/access.ts';
import { policiesVisibleTo } from '../policies/service.ts';
import { getProduct } from '../products/service.ts';

export interface RenewalActor extends Actor {
  viewer: CustomerViewer;
}

export const NOT_POLICYHOLDER = '只有保单的投保人（或其代理人）可以续保';
/** Renewals that no longer count: a second renewal is possible after these. */
const DEAD_STATUSES = ['CANCELLED', 'DECLINED'];

const alreadyRenewed = (r: { id: number; number: string }) =>
  `该保单已有续保投保单 ${r.number}（ID：${r.id}），请勿重复续保`;

/** A policy the viewer may see (404 otherwise), with what the renewal needs of its application. */
async function visiblePolicy(db: Db | Tx, viewer: CustomerViewer, id: number, lock: boolean) {
  const q = db
    .select({ policy: policies, application: applications, customer: customers })
    .from(policies)
    .innerJoin(applications, eq(applications.id, policies.applicationId))
    .innerJoin(customers, eq(customers.id, applications.customerId))
    .where(and(eq(policies.id, id), policiesVisibleTo(db as Db, viewer)));
  const [row] = lock ? await q.for('update', { of: policies }) : await q;
  if (!row) throw notFound(POLICY_NOT_FOUND);
  return row;
}

/** The policyholder's side: the application's owner or agent, the enterprise itself, or the client's agent. */
function mayRenew(
  viewer: CustomerViewer,
  a: Application,
  customer: { uscc: string; ownerId: number | null },
): boolean {
  if (isApplicationOwner(a, viewer.user.id)) return true;
  if (viewer.isEnterprise && viewer.uscc !== null && viewer.uscc === customer.uscc) return true;
  return viewer.isAgent && customer.ownerId === viewer.user.id;
}

async function liveRenewal(db: Db | Tx, policyId: number) {
  const [row] = await db
    .select({
      id: applications.id,
      number: applications.number,
      status: applications.status,
      policyholderType: applications.policyholderType,
      channel: applications.channel,
    })
    .from(applications)
    .where(and(eq(applications.renewalOfPolicyId, policyId), notInArray(applications.status, DEAD_STATUSES)))
    .orderBy(desc(applications.id))
    .limit(1);
  return row ?? null;
}

/** GET /api/policies/:id/renewal: the window, whether the caller may renew now, and the live renewal. */
export async function renewalInfoOf(db: Db, viewer: CustomerViewer, policyId: number): Promise<RenewalInfo> {
  const { policy, application, customer } = await visiblePolicy(db, viewer, policyId, false);
  const renewal = await liveRenewal(db, policyId);
  const state = renewalState(policy.endDate, shanghaiToday());
  return {
    policyId,
    endDate: policy.endDate,
    ...renewalWindow(policy.endDate),
    state,
    canRenew: state === 'open' && renewal === null && mayRenew(viewer, application, customer),
    renewal: renewal && { ...renewal, applicationId: renewal.id },
  };
}

/** The channel of the renewal: the caller's side of the business (an agent's, or the enterprise's own). */
function renewalChannel(old: Channel, roles: readonly string[]): Channel {
  if (old === 'project' || old === 'zhenjiang') return old;
  return roles.includes('agent') && !roles.includes('17') ? 'agent' : 'enterprise';
}

const clamp = (v: number | null, min: number, max: number) =>
  v === null ? null : Math.min(max, Math.max(min, v));

/**
 * POST /api/policies/:id/renew. 404 unless the caller may see the policy; 403 unless they are its policyholder's
 * side; 409 when a live renewal exists (naming it), outside the window, or when the product or applicant no
 * longer allows a new application. A rating problem (e.g. no active rate table) leaves the draft unpriced and
 * is answered in `quoteProblem`, as a new draft's is.
 */
export async function renewPolicy(db: Db, actor: RenewalActor, policyId: number): Promise<RenewalResult> {
  const viewer = actor.viewer;
  let created: { id: number; quoteProblem: string | null };
  try {
    created = await db.transaction(async (tx) => {
      const { policy, application: old, customer } = await visiblePolicy(tx, viewer, policyId, true);
      if (!mayRenew(viewer, old, customer)) throw forbidden(NOT_POLICYHOLDER);
      const existing = await liveRenewal(tx, policyId);
      if (existing) throw conflict(alreadyRenewed(existing));
      const state = renewalState(policy.endDate, shanghaiToday());
      if (state === 'early') throw conflict(RENEWAL_WINDOW_MESSAGE);
      if (state === 'lapsed')
        throw conflict(`${RENEWAL_WINDOW_MESSAGE}：该保单已于 ${policy.endDate} 到期，请重新投保`);
      if (customer.reviewStatus !== 'approved') throw conflict('投保人尚未审核通过，不能续保');
      const product = await getProduct(tx, policy.productId);
      const period = renewalPeriod(policy.endDate);
      if (!product.enabled) throw conflict('该险种已停用，不能续保');
      if (period.startDate < product.validFrom || period.startDate > product.validTo)
        throw conflict('续保起期不在该险种的有效期内，不能续保');

      const channel = renewalChannel(old.channel as Channel, viewer.user.roles);
      // The renewal starts from the policy as its endorsements left it (headcount, contact, address, named list).
      const named = product.namedInsuredRequired ? await coveredPersons(tx, policy.id) : [];
      const namedCount = named.length || null;
      const [row] = await tx
        .insert(applications)
        .values({
          number: await nextApplicationNumber(tx, product.code),
          productId: product.id,
          channel,
          policyholderType: old.policyholderType,
          customerId: old.customerId,
          insuredName: old.insuredName,
          insuredUscc: old.insuredUscc,
          insuredAddress: policy.insuredAddress ?? old.insuredAddress,
          contactName: policy.contactName ?? old.contactName,
          contactPhone: policy.contactPhone ?? old.contactPhone,
          contactEmail: old.contactEmail,
          specialTerms: old.specialTerms,
          startDate: period.startDate,
          endDate: period.endDate,
          industrySection: old.industrySection,
          industryDivision: old.industryDivision,
          headcount: namedCount ?? policy.headcount ?? old.headcount,
          payrollFen: old.payrollFen,
          perPersonLimitFen: old.perPersonLimitFen,
          coverages: old.coverages,
          factors: old.factors,
          guaranteeAmountFen: old.guaranteeAmountFen,
          projectName: old.projectName,
          projectAddress: old.projectAddress,
          projectCostFen: old.projectCostFen,
          contractor: old.contractor,
          highRisk: old.highRisk,
          // The product's ranges may have moved since: keep the old choice within them.
          preventionRatio: clamp(old.preventionRatio, product.preventionRatioMin, product.preventionRatioMax),
          commissionRate: clamp(old.commissionRate, 0, product.commissionCap),
          agentId: viewer.user.roles.includes('agent') ? viewer.user.id : old.agentId,
          ownerId: viewer.user.id,
          renewalOfPolicyId: policy.id,
        })
        .returning();
      const a = row!;

      await insertApplicationList(tx, a.id, named);
      const { quote, problem: quoteProblem } = await priceNewDraft(tx, viewer, a);

      const oldShares = product.allowsCoinsurance
        ? await tx
            .select()
            .from(applicationCoinsurers)
            .where(eq(applicationCoinsurers.applicationId, old.id))
            .orderBy(asc(applicationCoinsurers.sort), asc(applicationCoinsurers.id))
        : [];
      // Copied only while valid under today's rules (the issuer a party, the lead the product wants, insurers
      // still in the dictionary); otherwise the draft starts without co-insurance and the wizard asks again.
      const coinsuranceDropped = coinsuranceProblem(oldShares, {
        issuerLeads: product.issuerLeads,
        knownInsurers: await coinsurerCodes(tx),
      });
      const shares = coinsuranceDropped ? [] : oldShares;
      if (shares.length) {
        const premium = splitAmount(quote?.premiumFen ?? 0, shares);
        const prevention = splitAmount(quote?.preventionFeeFen ?? 0, shares);
        await tx.insert(applicationCoinsurers).values(
          shares.map((s, i) => ({
            applicationId: a.id,
            insurerCode: s.insurerCode,
            lead: s.lead,
            share: s.share,
            premiumFen: premium[i]!,
            preventionFeeFen: prevention[i]!,
            sort: i,
          })),
        );
      }

      await tx.insert(applicationEvents).values({
        applicationId: a.id,
        action: 'create',
        fromStatus: null,
        toStatus: 'DRAFT',
        actorId: actor.user.id,
        actorName: actor.user.username,
        opinion: `续保：原保单 ${policy.number}`,
      });
      await auditAction(tx, actor, {
        action: 'renew',
        entity: 'application',
        entityId: a.id,
        detail: {
          number: a.number,
          renewalOfPolicyId: policy.id,
          policyNumber: policy.number,
          fromApplicationId: old.id,
          startDate: period.startDate,
          endDate: period.endDate,
          before: { premiumFen: policy.premiumFen, rateTableId: old.rateTableId },
          after: {
            premiumFen: quote?.premiumFen ?? null,
            rateTableId: quote?.rateTableId ?? null,
            rateTableVersion: quote?.rateTableVersion ?? null,
          },
          coinsurers: shares.length,
          ...(coinsuranceDropped ? { coinsuranceDropped: problemText(coinsuranceDropped) } : {}),
          quoteProblem,
        },
      });
      return { id: a.id, quoteProblem };
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      const existing = await liveRenewal(db, policyId);
      if (existing) throw conflict(alreadyRenewed(existing));
    }
    throw err;
  }
  const [a] = await db.select().from(applications).where(eq(applications.id, created.id));
  return {
    applicationId: a!.id,
    number: a!.number,
    status: a!.status,
    channel: a!.channel,
    policyholderType: a!.policyholderType,
    productId: a!.productId,
    startDate: a!.startDate!,
    endDate: a!.endDate!,
    premiumFen: a!.premiumFen,
    rateTableId: a!.rateTableId,
    renewalOfPolicyId: a!.renewalOfPolicyId!,
    quoteProblem: created.quoteProblem,
    version: a!.version,
  };
}

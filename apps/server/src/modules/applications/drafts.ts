// Drafts of applications (投保单): a new draft for a product and an approved applicant, wizard steps saved one
// at a time (re-quoted when a rating input changes), and the co-insurance table. Money is integer fen.

import type {
  ApplicationDetail,
  applicationCreateForm,
  applicationDraftForm,
  coinsurersForm,
} from '@piibs/shared/application';
import { isIdCardNumber } from '@piibs/shared/application';
import {
  type ApplicationStatus,
  type Channel,
  defaultEnd,
  EDITABLE_STATUSES,
  earliestStart,
  periodProblem,
} from '@piibs/shared/application-status';
import { maskPhone } from '@piibs/shared/auth';
import { coinsuranceProblem, splitAmount } from '@piibs/shared/coinsurance';
import { percentTextToMicro } from '@piibs/shared/money';
import type { QuoteResult } from '@piibs/shared/product';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { applicationCoinsurers, applications, customers, dictDetails, dicts } from '../../db/schema.ts';
import { diff } from '../../lib/audit.ts';
import { badRequest, fieldError, problemError } from '../../lib/errors.ts';
import { getCustomer } from '../customers/service.ts';
import { getProduct } from '../products/service.ts';
import {
  type Application,
  type ApplicationActor,
  addEvent,
  audit,
  CUSTOMER_NOT_APPROVED,
  checkChange,
  lockApplication,
  nextApplicationNumber,
} from './changes.ts';
import { checkRatios, priceNewDraft, quoteColumns, RATING_FIELDS, resplit, tryRate } from './pricing.ts';
import { getApplication } from './queries.ts';

type CreateInput = z.infer<typeof applicationCreateForm>;

/** A new draft for a product and an approved applicant the caller may see. */
export async function createApplication(
  db: Db,
  actor: ApplicationActor,
  form: CreateInput,
): Promise<ApplicationDetail & { quoteProblem: string | null }> {
  const customer = await getCustomer(db, actor.viewer, form.customerId);
  if (customer.reviewStatus !== 'approved') throw badRequest(CUSTOMER_NOT_APPROVED);
  const product = await getProduct(db, form.productId);
  if (!product.enabled) throw fieldError('productId', '险种已停用', '险种');
  const start = earliestStart();
  if (start < product.validFrom || start > product.validTo)
    throw fieldError('productId', '险种不在有效期内', '险种');
  const roles = actor.viewer.user.roles;
  const channel: Channel =
    form.channel ??
    (product.productClass === 'construction' || roles.includes('contractor')
      ? 'project'
      : roles.includes('agent') && !roles.includes('17')
        ? 'agent'
        : 'enterprise');
  const death = product.coverages.find((c) => c.type === 'EMPLOYEE_DEATH_DISABILITY');
  // An individual's code is an identity card: the applicant's credit code is not one (unless it reads as one).
  const person = form.policyholderType === 2;
  const insuredCode = !person || isIdCardNumber(customer.uscc) ? customer.uscc : null;
  const result = await db.transaction(async (tx) => {
    const [raw] = await tx
      .select({ phone: customers.phone })
      .from(customers)
      .where(eq(customers.id, customer.id));
    const [row] = await tx
      .insert(applications)
      .values({
        number: await nextApplicationNumber(tx, product.code),
        productId: product.id,
        channel,
        policyholderType: form.policyholderType,
        customerId: customer.id,
        insuredName: customer.name,
        insuredUscc: insuredCode,
        insuredAddress: customer.address,
        contactName: customer.contactName,
        contactPhone: raw?.phone ?? null,
        startDate: start,
        endDate: defaultEnd(start),
        industrySection: customer.industrySection,
        industryDivision: customer.industryDivision,
        headcount:
          product.productClass === 'work_safety' && customer.headcount > 0 ? customer.headcount : null,
        perPersonLimitFen: product.productClass === 'work_safety' ? (death?.perPersonLimitFen ?? null) : null,
        contractor: product.productClass === 'construction' ? customer.name : null,
        preventionRatio: product.preventionRatioMin,
        agentId: roles.includes('agent') ? actor.user.id : null,
        ownerId: actor.user.id,
      })
      .returning();
    const a = row!;
    const { problem: quoteProblem } = await priceNewDraft(tx, actor.viewer, a);
    await addEvent(tx, actor, { applicationId: a.id, action: 'create', from: null, to: 'DRAFT' });
    await audit(tx, actor, 'create', a.id, {
      number: a.number,
      productId: a.productId,
      customerId: a.customerId,
      channel,
      policyholderType: a.policyholderType,
    });
    return { id: a.id, quoteProblem };
  });
  return { ...(await getApplication(db, actor.viewer, result.id)), quoteProblem: result.quoteProblem };
}

type DraftInput = z.infer<typeof applicationDraftForm>;

/**
 * What the audit trail records of a draft's `keys`, safe and readable: the contact phone and an individual's
 * identity card masked, the floating factors by their names and chosen options as quoted.
 */
function draftSnapshot(a: Application, keys: readonly string[]): Record<string, unknown> {
  const row = a as unknown as Record<string, unknown>;
  const quoted = (a.quote as QuoteResult | null)?.factors;
  const value = (key: string): unknown => {
    if (key === 'contactPhone') return maskPhone(a.contactPhone);
    if (key === 'insuredUscc' && a.policyholderType === 2) return maskPhone(a.insuredUscc);
    if (key === 'factors' && quoted)
      return Object.fromEntries(quoted.map((f) => [f.label, f.optionLabel ?? '（默认）']));
    return row[key] ?? null;
  };
  return Object.fromEntries(keys.map((k) => [k, value(k)]));
}

/**
 * The insured's code of a draft: insured_uscc holds a credit code for an enterprise policyholder (type 1) and
 * an identity card number for an individual (type 2). The other type's field may be sent empty (a wizard step
 * sends what it shows), not filled (400 naming it). A change of type drops the code of the old type.
 */
function insuredCodePatch(
  a: Application,
  patch: Partial<typeof applications.$inferInsert>,
  idNumber: string | null | undefined,
): void {
  const type = patch.policyholderType ?? a.policyholderType;
  if (type === 2) {
    if (patch.insuredUscc)
      throw fieldError('insuredUscc', '个人投保人不填写统一社会信用代码', '被保险人统一社会信用代码');
    delete patch.insuredUscc;
    if (idNumber !== undefined) patch.insuredUscc = idNumber;
  } else if (idNumber) {
    throw fieldError('insuredIdNumber', '企业投保人请填写统一社会信用代码', '被保险人身份证号');
  }
  if (type !== a.policyholderType && patch.insuredUscc === undefined) patch.insuredUscc = null;
}

/**
 * Saves a wizard step: the fields sent (null clears), in DRAFT or RETURNED, by the owner, on the current
 * version. The period is checked (no back-dating; the end defaults to a year less a day); a change of a rating
 * input re-quotes on the active rate table (an incomplete input leaves the quote empty and says why).
 */
export async function saveDraft(
  db: Db,
  actor: ApplicationActor,
  id: number,
  form: DraftInput,
): Promise<ApplicationDetail & { quoteProblem: string | null }> {
  const quoteProblem = await db.transaction(async (tx) => {
    const a = await lockApplication(tx, actor.viewer, id);
    checkChange(a, actor, EDITABLE_STATUSES.includes(a.status as ApplicationStatus), form.version);
    const { version: _v, insuredIdNumber, ...fields } = form;
    const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<
      typeof applications.$inferInsert
    >;
    insuredCodePatch(a, patch, insuredIdNumber);
    if (patch.startDate && patch.endDate === undefined && patch.startDate !== a.startDate)
      patch.endDate = defaultEnd(patch.startDate);
    const merged = { ...a, ...patch } as Application;
    if (merged.startDate && merged.endDate) {
      const problem = periodProblem(merged.startDate, merged.endDate);
      if (problem) throw problemError(problem);
    } else if (merged.startDate && merged.startDate < earliestStart()) {
      throw fieldError('startDate', `不能早于 ${earliestStart()}（不得倒签）`, '保险起期');
    }
    const product = await getProduct(tx, a.productId);
    checkRatios(product, merged);
    let problem: string | null = null;
    if (RATING_FIELDS.some((k) => k in patch) || a.quote == null) {
      const priced = await tryRate(tx, actor.viewer, merged);
      Object.assign(patch, quoteColumns(priced.quote));
      problem = priced.problem;
    }
    await tx
      .update(applications)
      .set({ ...patch, version: sql`${applications.version} + 1`, updatedAt: sql`now()` })
      .where(eq(applications.id, id));
    if ('premiumFen' in patch)
      await resplit(tx, id, patch.premiumFen ?? null, patch.preventionFeeFen ?? null);
    const sent = Object.keys(form).filter(
      (k) => k !== 'version' && (form as Record<string, unknown>)[k] !== undefined,
    );
    const keys = [...sent.map((k) => (k === 'insuredIdNumber' ? 'insuredUscc' : k)), 'premiumFen'];
    await audit(
      tx,
      actor,
      'update',
      id,
      diff(draftSnapshot(a, keys), draftSnapshot({ ...merged, ...patch } as Application, keys)),
    );
    return problem;
  });
  return { ...(await getApplication(db, actor.viewer, id)), quoteProblem };
}

/** Reads the codes of the `coinsurer` dictionary. */
export async function coinsurerCodes(tx: Tx): Promise<string[]> {
  const rows = await tx
    .select({ value: dictDetails.value })
    .from(dictDetails)
    .innerJoin(dicts, eq(dicts.id, dictDetails.dictId))
    .where(eq(dicts.name, 'coinsurer'));
  return rows.map((r) => r.value);
}

/** Replaces the co-insurance table (only for a product that allows co-insurance); an empty list clears it. */
export async function replaceCoinsurers(
  db: Db,
  actor: ApplicationActor,
  id: number,
  form: z.infer<typeof coinsurersForm>,
): Promise<ApplicationDetail> {
  await db.transaction(async (tx) => {
    const a = await lockApplication(tx, actor.viewer, id);
    checkChange(a, actor, EDITABLE_STATUSES.includes(a.status as ApplicationStatus), form.version);
    const product = await getProduct(tx, a.productId);
    if (!product.allowsCoinsurance && form.shares.length)
      throw fieldError('shares', '该险种不支持共保/联保', '共保信息');
    const shares = form.shares.map((s) => ({
      insurerCode: s.insurerCode,
      lead: s.lead,
      share: percentTextToMicro(s.share) ?? 0,
    }));
    const problem = coinsuranceProblem(shares, {
      issuerLeads: product.issuerLeads,
      knownInsurers: await coinsurerCodes(tx),
    });
    if (problem) throw problemError(problem);
    await tx.delete(applicationCoinsurers).where(eq(applicationCoinsurers.applicationId, id));
    if (shares.length) {
      const premium = splitAmount(a.premiumFen ?? 0, shares);
      const prevention = splitAmount(a.preventionFeeFen ?? 0, shares);
      await tx.insert(applicationCoinsurers).values(
        shares.map((s, i) => ({
          applicationId: id,
          ...s,
          premiumFen: premium[i]!,
          preventionFeeFen: prevention[i]!,
          sort: i,
        })),
      );
    }
    await tx
      .update(applications)
      .set({ version: sql`${applications.version} + 1`, updatedAt: sql`now()` })
      .where(eq(applications.id, id));
    await audit(tx, actor, 'coinsurers', id, {
      shares: shares.map((s) => ({ insurerCode: s.insurerCode, lead: s.lead, share: s.share })),
    });
  });
  return getApplication(db, actor.viewer, id);
}

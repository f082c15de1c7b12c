// The wizard's form values and their mapping to and from the server's draft fields. Money is typed in yuan
// (strings, exact) and sent in fen; ratios typed in percent and sent in micro-percent; shares typed as the
// percentage text the server parses ('33.333333').
import type { ApplicationDetail, ApplicationFields } from '@piibs/shared/application';
import type { PolicyholderType } from '@piibs/shared/application-status';
import { ISSUER_CODE } from '@piibs/shared/coinsurance';
import { fenToYuanText, microPercentText, percentTextToMicro, yuanTextToFen } from '@piibs/shared/money';
import type { CoverageType } from '@piibs/shared/rating';
import type { StepKind } from './flows.ts';

export interface ShareValue {
  insurerCode?: string;
  lead?: boolean;
  share?: string;
}

export interface WizardValues {
  productId?: number;
  customerId?: number;
  startDate?: string;
  endDate?: string;
  headcount?: number | null;
  perPersonLimitFen?: number | null;
  coverages?: CoverageType[];
  factors?: Record<string, string>;
  /** Percent, e.g. '15'. */
  preventionRatio?: string | null;
  guaranteeAmountYuan?: string | null;
  projectName?: string | null;
  projectAddress?: string | null;
  projectCostYuan?: string | null;
  contractor?: string | null;
  highRisk?: boolean;
  insuredName?: string | null;
  /** An enterprise policyholder's (type 1). */
  insuredUscc?: string | null;
  /** An individual policyholder's (type 2) identity card number. */
  insuredIdNumber?: string | null;
  insuredAddress?: string | null;
  contactName?: string | null;
  contactPhone?: string | null;
  contactEmail?: string | null;
  specialTerms?: string | null;
  /** Co-insured at all (the table is kept empty otherwise). */
  coinsured?: boolean;
  shares?: ShareValue[];
}

/**
 * The co-insurance rows with the issuing insurer's row in them (a table without it, saved before the issuer had
 * to be a party or new, gets it first with its share to type) and the issuer as the lead where the product wants
 * it or no other row leads (its lead box is then fixed, so the wizard sets it).
 */
export function withIssuer(rows: ShareValue[], issuerLeads: boolean): ShareValue[] {
  const all = rows.some((r) => r.insurerCode === ISSUER_CODE)
    ? rows
    : [{ insurerCode: ISSUER_CODE, lead: false, share: '' }, ...rows];
  if (!issuerLeads && all.some((r) => r.lead)) return all;
  return all.map((r) => ({ ...r, lead: r.insurerCode === ISSUER_CODE }));
}

const yuanText = (fen: number | null): string | null => (fen === null ? null : fenToYuanText(fen));

/** The form's values for an application as the server holds it. */
export function valuesOf(app: ApplicationDetail): WizardValues {
  return {
    productId: app.productId,
    customerId: app.customerId,
    startDate: app.startDate ?? undefined,
    endDate: app.endDate ?? undefined,
    headcount: app.headcount,
    perPersonLimitFen: app.perPersonLimitFen,
    coverages: app.coverages as CoverageType[],
    factors: app.factors,
    preventionRatio: app.preventionRatio === null ? null : microPercentText(app.preventionRatio),
    guaranteeAmountYuan: yuanText(app.guaranteeAmountFen),
    projectName: app.projectName,
    projectAddress: app.projectAddress,
    projectCostYuan: yuanText(app.projectCostFen),
    contractor: app.contractor,
    highRisk: app.highRisk,
    insuredName: app.insuredName,
    insuredUscc: app.insuredUscc,
    insuredIdNumber: app.insuredIdNumber,
    insuredAddress: app.insuredAddress,
    contactName: app.contactName,
    contactPhone: app.contactPhone,
    contactEmail: app.contactEmail,
    specialTerms: app.specialTerms,
    coinsured: app.coinsurers.length > 0,
    shares: app.coinsurers.length
      ? withIssuer(
          app.coinsurers.map((c) => ({ insurerCode: c.insurerCode, lead: c.lead, share: c.shareText })),
          app.issuerLeads,
        )
      : [],
  };
}

const fenOf = (text: string | null | undefined): number | null =>
  text === null || text === undefined || text === '' ? null : yuanTextToFen(String(text));
const microOf = (text: string | null | undefined): number | null =>
  text === null || text === undefined || text === '' ? null : percentTextToMicro(String(text));
const textOf = (v: string | null | undefined): string | null => (v?.trim() ? v.trim() : null);

/**
 * The draft fields a step's sections save (a step sends its own fields only). The insured's code is the credit
 * code of an enterprise policyholder (type 1) or the identity card number of an individual (type 2).
 */
export function draftFieldsOf(
  values: WizardValues,
  kinds: readonly StepKind[],
  policyholderType: PolicyholderType = 1,
): ApplicationFields {
  const out: ApplicationFields = {};
  if (kinds.includes('insurance')) {
    Object.assign(out, {
      headcount: values.headcount ?? null,
      perPersonLimitFen: values.perPersonLimitFen ?? null,
      coverages: values.coverages ?? [],
      factors: values.factors ?? {},
      preventionRatio: microOf(values.preventionRatio),
      guaranteeAmountFen: fenOf(values.guaranteeAmountYuan),
    });
    if (values.startDate !== undefined) out.startDate = values.startDate || null;
    if (values.endDate !== undefined) out.endDate = values.endDate || null;
  }
  if (kinds.includes('project')) {
    Object.assign(out, {
      projectName: textOf(values.projectName),
      projectAddress: textOf(values.projectAddress),
      projectCostFen: fenOf(values.projectCostYuan),
      contractor: textOf(values.contractor),
      highRisk: values.highRisk ?? false,
      startDate: values.startDate || null,
      endDate: values.endDate || null,
    });
  }
  if (kinds.includes('policy')) {
    Object.assign(out, {
      insuredName: textOf(values.insuredName),
      ...(policyholderType === 2
        ? { insuredIdNumber: textOf(values.insuredIdNumber) }
        : { insuredUscc: textOf(values.insuredUscc) }),
      insuredAddress: textOf(values.insuredAddress),
      contactName: textOf(values.contactName),
      contactPhone: textOf(values.contactPhone),
      contactEmail: textOf(values.contactEmail),
      specialTerms: textOf(values.specialTerms),
    });
  }
  return out;
}

/** The co-insurance table to send: empty unless co-insured. */
export function sharesOf(values: WizardValues): { insurerCode: string; lead: boolean; share: string }[] {
  if (!values.coinsured) return [];
  return (values.shares ?? []).map((s) => ({
    insurerCode: s.insurerCode ?? '',
    lead: Boolean(s.lead),
    share: (s.share ?? '').trim(),
  }));
}

/** The request fields the wizard keeps under other names (amounts are typed in yuan), for a refusal's `errors`. */
export const REQUEST_FIELD_NAMES = Object.freeze({
  guaranteeAmountFen: 'guaranteeAmountYuan',
  projectCostFen: 'projectCostYuan',
});

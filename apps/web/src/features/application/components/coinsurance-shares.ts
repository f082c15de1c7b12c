import {
  type CoinsurerShare,
  coinsuranceProblem,
  parseShare,
  SHARE_MESSAGE,
} from '@piibs/shared/coinsurance';
import { microPercentText } from '@piibs/shared/money';
import { problemText } from '@piibs/shared/problem';
import { sharesOf, type WizardValues } from '../values.ts';

// The coinsurance step's checks without its form (CoinsuranceSection.tsx): the wizard checks the shares before
// it saves, and the form comes only with the step that shows it.

/** The table as typed, parsed; null while a row is incomplete or a share is not a valid percentage. */
export function typedShares(values: WizardValues | undefined): CoinsurerShare[] | null {
  if (!values?.coinsured) return [];
  const out: CoinsurerShare[] = [];
  for (const s of sharesOf(values)) {
    const share = parseShare(s.share);
    if (!s.insurerCode || share === null) return null;
    out.push({ insurerCode: s.insurerCode, lead: s.lead, share });
  }
  return out;
}

/**
 * The problem the table has now (Chinese), or null: the issuer a party (the lead when the product says so), at
 * least two insurers, every share 1–100 with ≤ 6 decimals, one lead, total exactly 100% ("共保份额合计须为100%，
 * 当前合计为 99.5%"). The server checks the same on save and at submit.
 */
export function sharesProblem(values: WizardValues | undefined, issuerLeads: boolean): string | null {
  if (!values?.coinsured) return null;
  const rows = values.shares ?? [];
  const shares = typedShares(values);
  if (!shares) {
    const typed = rows.map((r) => parseShare(r.share ?? '') ?? 0);
    return `共保信息：${SHARE_MESSAGE}；当前合计为 ${microPercentText(typed.reduce((a, b) => a + b, 0))}%`;
  }
  const problem = coinsuranceProblem(shares, { issuerLeads });
  return problem && problemText(problem);
}

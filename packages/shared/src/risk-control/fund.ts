// Working days (complaint replies), the fund's arithmetic (all integers, fen) and the record and order numbers.

import { formatFen } from '../money.ts';

// ---- working days (complaint replies) ----

/** Complaints are answered within 10 working days. */
export const COMPLAINT_REPLY_WORKING_DAYS = 10;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date 'yyyy-mm-dd'. */
export function isDateText(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** 0 Sunday … 6 Saturday of a 'yyyy-mm-dd' date. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/**
 * The date `n` working days after `date` (Saturdays and Sundays skipped; public holidays are not modelled).
 * The starting day itself never counts: a complaint made on Friday 2026-05-08 is due Friday 2026-05-22.
 */
export function addWorkingDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y, m - 1, d));
  let left = n;
  while (left > 0) {
    at.setUTCDate(at.getUTCDate() + 1);
    const wd = at.getUTCDay();
    if (wd !== 0 && wd !== 6) left--;
  }
  return at.toISOString().slice(0, 10);
}

/** The reply deadline of a complaint made on `date`. */
export const complaintDeadline = (date: string): string => addWorkingDays(date, COMPLAINT_REPLY_WORKING_DAYS);

// ---- the fund and its arithmetic (all integers, fen) ----

export interface FundAmounts {
  totalFen: number;
  plannedFen: number;
  spentFen: number;
}

/** What is neither reserved nor spent. */
export const fundLeft = (f: FundAmounts): number => f.totalFen - f.plannedFen - f.spentFen;

/** The part of an item's reservation not yet spent. */
export const itemOutstanding = (reservedFen: number, spentFen: number): number =>
  Math.max(0, reservedFen - spentFen);

/** '事故预防费用余额不足：剩余 ¥1,200.00，本次需要 ¥3,000.00'. */
export const insufficientFundMessage = (leftFen: number, needFen: number): string =>
  `事故预防费用余额不足：剩余 ${formatFen(Math.max(0, leftFen))}，本次需要 ${formatFen(needFen)}`;

export type FundChange =
  | { ok: true; plannedDeltaFen: number; spentDeltaFen: number }
  | { ok: false; message: string; availableFen: number; needFen: number };

/**
 * Changing an item's reservation from `fromFen` to `toFen` (the item has spent `itemSpentFen`): the planned
 * amount moves by the change of the item's outstanding part, which must fit in what is left.
 */
export function reserveChange(
  fund: FundAmounts,
  item: { reservedFen: number; spentFen: number },
  toFen: number,
): FundChange {
  const delta = itemOutstanding(toFen, item.spentFen) - itemOutstanding(item.reservedFen, item.spentFen);
  const left = fundLeft(fund);
  if (delta > left)
    return { ok: false, message: insufficientFundMessage(left, delta), availableFen: left, needFen: delta };
  return { ok: true, plannedDeltaFen: delta, spentDeltaFen: 0 };
}

/**
 * Spending `costFen` on an item (a confirmed order): the item's outstanding reservation pays first, what is
 * left of the fund pays the rest. Refused when the two together do not cover the cost.
 */
export function spendChange(
  fund: FundAmounts,
  item: { reservedFen: number; spentFen: number },
  costFen: number,
): FundChange {
  const outstanding = itemOutstanding(item.reservedFen, item.spentFen);
  const available = fundLeft(fund) + outstanding;
  if (costFen > available)
    return {
      ok: false,
      message: insufficientFundMessage(available, costFen),
      availableFen: available,
      needFen: costFen,
    };
  return { ok: true, plannedDeltaFen: -Math.min(costFen, outstanding), spentDeltaFen: costFen };
}

/** The prevention record number of a policy: 'YF' + the policy number (route param :seqNo). */
export const preventionSeqNo = (policyNumber: string): string => `YF${policyNumber}`;
/** The policy number inside a prevention record number, or null. */
export const policyNumberOfSeqNo = (seqNo: string): string | null =>
  /^YF[A-Z0-9]{4,40}$/.test(seqNo) ? seqNo.slice(2) : null;
/** Service order numbers: the record number and a serial, e.g. YFPAZX202600000001-003. */
export const serviceOrderNumber = (seqNo: string, serial: number): string =>
  `${seqNo}-${String(serial).padStart(3, '0')}`;
export const SERVICE_ORDER_NUMBER = /^YF[A-Z0-9]{4,40}-\d{3,}$/;

// Mid-term changes of an issued policy: endorsements (批改) and cancellations (退保). The request a policyholder
// (or its agent) makes, its states through the underwriter's queue, the reasons a product accepts for a
// cancellation, and the premium ledger that ties payments and refunds to the earned premium.
// Import it as `@piibs/shared/policy-change`.
//
// Money is integer fen throughout; the one rounding is short-period.ts's scaleFen (half up, BigInt).
import { z } from 'zod';
import { NAMED_INSURED_MAX } from './named-insured.ts';
import { SAFETY_LIABILITY_CLASSES } from './rating.ts';
import { type CancellationParty, cancellationQuote, endorsementDeltaFen, scaleFen } from './short-period.ts';

export const POLICY_CHANGE_KINDS = ['ENDORSEMENT', 'CANCELLATION'] as const;
export type PolicyChangeKind = (typeof POLICY_CHANGE_KINDS)[number];
export const POLICY_CHANGE_KIND_LABELS: Readonly<Record<PolicyChangeKind, string>> = Object.freeze({
  ENDORSEMENT: '批改',
  CANCELLATION: '退保',
});

/**
 * PENDING_REVIEW → (approve) PENDING_PAYMENT (additional premium) | REFUNDING (return of premium) | DONE;
 * PENDING_REVIEW → (return) RETURNED → (resubmit) PENDING_REVIEW; PENDING_REVIEW → (decline) DECLINED;
 * PENDING_PAYMENT → (paid) DONE | (not paid by its deadline) LAPSED. At most one open (PENDING_REVIEW,
 * RETURNED, PENDING_PAYMENT, REFUNDING) per policy.
 */
export const POLICY_CHANGE_STATUSES = [
  'PENDING_REVIEW',
  'RETURNED',
  'DECLINED',
  'PENDING_PAYMENT',
  'REFUNDING',
  'DONE',
  'LAPSED',
] as const;
export type PolicyChangeStatus = (typeof POLICY_CHANGE_STATUSES)[number];
export const POLICY_CHANGE_STATUS_LABELS: Readonly<Record<PolicyChangeStatus, string>> = Object.freeze({
  PENDING_REVIEW: '待核保',
  RETURNED: '已退回',
  DECLINED: '已拒绝',
  PENDING_PAYMENT: '待补缴保费',
  REFUNDING: '退费中',
  DONE: '已生效',
  LAPSED: '已失效',
});

/** The underwriter's queue of policy changes (批改审核) and the page deciding one. */
export const POLICY_CHANGE_REVIEWS_PATH = '/piibs/task/policyChanges';
export const policyChangeAuditPath = (id: number) => `/piibs/task/policyChange/${id}`;
export const OPEN_POLICY_CHANGE_STATUSES: readonly PolicyChangeStatus[] = Object.freeze([
  'PENDING_REVIEW',
  'RETURNED',
  'PENDING_PAYMENT',
  'REFUNDING',
]);

/** Why a policy is cancelled. */
export const CANCELLATION_REASONS = [
  'CLOSED',
  'BANKRUPT',
  'DEREGISTERED',
  'STOPPED',
  'HOLDER_WISH',
  'INSURER',
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];
export const CANCELLATION_REASON_LABELS: Readonly<Record<CancellationReason, string>> = Object.freeze({
  CLOSED: '企业关闭',
  BANKRUPT: '企业破产',
  DEREGISTERED: '企业注销',
  STOPPED: '企业停止生产经营',
  HOLDER_WISH: '投保人申请退保',
  INSURER: '保险人解除合同',
});
/** The reasons that end the enterprise: they need a proving document (关闭/破产/注销/停业证明). */
export const PROOF_REASONS: readonly CancellationReason[] = Object.freeze([
  'CLOSED',
  'BANKRUPT',
  'DEREGISTERED',
  'STOPPED',
]);

/**
 * The reasons a product accepts. Work-safety liability (安责险, and the construction work-safety class): only
 * the enterprise's closure, bankruptcy, deregistration or stopping operating — the 2025 national rules forbid
 * other surrenders — and the insurer's own rescission. Other products also accept the policyholder's wish.
 */
export function cancellationReasonsFor(productClass: string): readonly CancellationReason[] {
  return (SAFETY_LIABILITY_CLASSES as readonly string[]).includes(productClass)
    ? [...PROOF_REASONS, 'INSURER']
    : CANCELLATION_REASONS;
}

/** Who asks: the insurer's rescission is pro rata by day, everything else the policyholder's short-rate. */
export const partyOfReason = (reason: CancellationReason): CancellationParty =>
  reason === 'INSURER' ? 'INSURER' : 'HOLDER';

/** The problem with a cancellation's reason for a product (in words, naming the field), or null. */
export function cancellationReasonProblem(
  productClass: string,
  reason: CancellationReason,
  hasProof: boolean,
): string | null {
  if (!cancellationReasonsFor(productClass).includes(reason))
    return '退保原因：安全生产责任保险仅在企业关闭、破产、注销或停止生产经营时可以退保（按 2025 年国家规定，不接受其他原因的退保）';
  if (PROOF_REASONS.includes(reason) && !hasProof)
    return `证明材料：${CANCELLATION_REASON_LABELS[reason]}须上传证明文件（如注销通知书、破产裁定、停业证明）`;
  return null;
}

const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '请填写日期（yyyy-mm-dd）');

/** An endorsement request: the new values (only those that change). */
export const endorsementRequest = z
  .object({
    effectiveDate: dateText.meta({ title: '批改生效日期' }),
    headcount: z
      .number()
      .int()
      .min(1, '参保人数：至少 1 人')
      .max(1_000_000)
      .optional()
      .meta({ title: '参保人数' }),
    contactName: z.string().trim().min(1).max(50).optional().meta({ title: '联系人' }),
    contactPhone: z
      .string()
      .trim()
      .regex(/^[0-9+\- ]{5,20}$/, '联系电话：请填写正确的电话号码')
      .optional()
      .meta({ title: '联系电话' }),
    insuredAddress: z.string().trim().min(2).max(200).optional().meta({ title: '地址' }),
    /**
     * A policy with a named insured list (从业人员名单) changes its people, not a bare headcount: the persons
     * added (name and identity card number, checked as the wizard's list) and the 序号 of those removed; the
     * headcount becomes the list's length.
     */
    addPersons: z
      .array(
        z.object({
          name: z.string().max(100).meta({ title: '姓名' }),
          idNumber: z.string().max(30).meta({ title: '身份证号码' }),
        }),
      )
      .max(NAMED_INSURED_MAX)
      .optional()
      .meta({ title: '增加人员' }),
    removePersons: z
      .array(z.number().int().positive())
      .max(NAMED_INSURED_MAX)
      .optional()
      .meta({ title: '减少人员' }),
    reason: z.string().trim().max(500).optional().meta({ title: '批改原因' }),
    idempotencyKey: z.string().min(8).max(64).meta({ title: '幂等键' }),
  })
  .refine(
    (v) =>
      v.headcount !== undefined ||
      v.contactName !== undefined ||
      v.contactPhone !== undefined ||
      v.insuredAddress !== undefined ||
      Boolean(v.addPersons?.length) ||
      Boolean(v.removePersons?.length),
    { message: '批改内容：请至少修改一项', path: ['headcount'] },
  );
export type EndorsementRequest = z.infer<typeof endorsementRequest>;

export const cancellationRequest = z.object({
  effectiveDate: dateText.meta({ title: '退保生效日期' }),
  reason: z.enum(CANCELLATION_REASONS).meta({ title: '退保原因' }),
  /** The proving document: a material uploaded for the policy. */
  proofMaterialId: z.number().int().positive().optional().meta({ title: '证明材料' }),
  note: z.string().trim().max(500).optional().meta({ title: '说明' }),
  idempotencyKey: z.string().min(8).max(64).meta({ title: '幂等键' }),
});
export type CancellationRequest = z.infer<typeof cancellationRequest>;

/** One field changed by an endorsement, in words. */
export interface FieldChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

// ---- the premium ledger ----

/** A movement of money on a policy: a payment (positive) or a refund (negative), in fen. */
export interface LedgerStep {
  kind: 'PREMIUM' | 'ENDORSEMENT' | 'CANCELLATION';
  /** What the holder paid (> 0) or was refunded (< 0). */
  fen: number;
  /** The annual premium of the risk after this step. */
  annualFen: number;
}

export interface LedgerInput {
  policy: { startDate: string; endDate: string };
  /** The premium paid at issue (for a short period, already the period's premium). */
  premiumFen: number;
  annualFen: number;
  endorsements: readonly { effective: string; newAnnualFen: number }[];
  cancellation?: {
    effective: string;
    party: CancellationParty;
    preventionSpentFen: number;
    table?: readonly number[];
  };
}

export interface Ledger {
  steps: LedgerStep[];
  paidFen: number;
  refundedFen: number;
  /** paid − refunded: the premium the insurer keeps (the earned premium once cancelled). */
  netFen: number;
  /** At cancellation: the earned premium as reckoned by cancellationQuote. */
  earnedFen: number | null;
}

/**
 * The money of a policy's life: the premium, each endorsement's delta (a return of premium never more than the
 * premium then held), and the cancellation's refund. The services record the same steps as rows; this is the
 * arithmetic they follow. Invariant: paid − refunded = net, and at cancellation net = earned.
 */
export function premiumLedger(input: LedgerInput): Ledger {
  let annual = input.annualFen;
  let net = input.premiumFen;
  let paid = input.premiumFen;
  let refunded = 0;
  const steps: LedgerStep[] = [{ kind: 'PREMIUM', fen: input.premiumFen, annualFen: annual }];
  for (const e of input.endorsements) {
    let delta = endorsementDeltaFen(input.policy, annual, e.newAnnualFen, e.effective);
    if (delta < -net) delta = -net;
    annual = e.newAnnualFen;
    net += delta;
    if (delta > 0) paid += delta;
    else refunded -= delta;
    steps.push({ kind: 'ENDORSEMENT', fen: delta, annualFen: annual });
  }
  let earnedFen: number | null = null;
  if (input.cancellation) {
    const q = cancellationQuote({
      policy: input.policy,
      paidFen: net,
      annualFen: annual,
      effective: input.cancellation.effective,
      party: input.cancellation.party,
      preventionSpentFen: input.cancellation.preventionSpentFen,
      ...(input.cancellation.table ? { table: input.cancellation.table } : {}),
    });
    net -= q.refundFen;
    refunded += q.refundFen;
    earnedFen = q.earnedFen;
    steps.push({ kind: 'CANCELLATION', fen: -q.refundFen, annualFen: annual });
  }
  return { steps, paidFen: paid, refundedFen: refunded, netFen: net, earnedFen };
}

/** The annual premium of the new headcount, pro rata to the heads from the current annual premium (half up). */
export const annualForHeadcount = (annualFen: number, oldHeadcount: number, newHeadcount: number): number =>
  oldHeadcount <= 0 ? annualFen : scaleFen(annualFen, newHeadcount, oldHeadcount);

/** A request as the pages show it (GET /api/policies/:id/changes, the review queue). */
export const policyChangeView = z.object({
  id: z.number(),
  number: z.string(),
  policyId: z.number(),
  policyNumber: z.string(),
  holderName: z.string(),
  productName: z.string(),
  kind: z.enum(POLICY_CHANGE_KINDS),
  kindLabel: z.string(),
  status: z.enum(POLICY_CHANGE_STATUSES),
  statusLabel: z.string(),
  effectiveDate: z.string(),
  changes: z.array(z.object({ field: z.string(), label: z.string(), before: z.string(), after: z.string() })),
  premiumBeforeFen: z.number(),
  premiumDeltaFen: z.number(),
  premiumDeltaText: z.string(),
  reasonLabel: z.string().nullable(),
  /** A named-list endorsement: the people added and removed, numbers masked (null for other requests). */
  persons: z
    .object({
      added: z.array(z.object({ name: z.string(), idNumberMasked: z.string() })),
      removed: z.array(z.object({ name: z.string(), idNumberMasked: z.string() })),
    })
    .nullable(),
  earnedFen: z.number().nullable(),
  basis: z.string().nullable(),
  reviewOpinion: z.string().nullable(),
  endorsementNumber: z.string().nullable(),
  endorsementId: z.number().nullable(),
  refundedFen: z.number(),
  paid: z.boolean(),
  /** An approved additional premium: when its payment closes (then the request lapses, 已失效). */
  payExpiresAt: z.string().nullable(),
  version: z.number(),
  createdAt: z.string(),
});

export const policyChangeDecision = z.object({
  decision: z.enum(['approve', 'return', 'reject']).meta({ title: '审核结论' }),
  opinion: z.string().trim().max(500).optional().meta({ title: '审核意见' }),
  version: z.number().int().min(0).meta({ title: '版本' }),
});
export type PolicyChangeView = z.infer<typeof policyChangeView>;

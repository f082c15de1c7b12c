// The answers of /api/project-orders and /api/project-declarations: rows, details, events and sort fields.

import { z } from 'zod';
import { quoteResult } from '../product.ts';
import { endorsementChange, projectValues } from './changes.ts';
import { ANNUAL_ORDER_STATES, DECLARATION_STATUSES } from './states.ts';

// ---- answers ----

const annualOrderBase = z.object({
  id: z.number(),
  number: z.string(),
  customerId: z.number(),
  customerName: z.string(),
  customerUscc: z.string(),
  productId: z.number(),
  productCode: z.string(),
  productName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  state: z.enum(ANNUAL_ORDER_STATES),
  stateLabel: z.string(),
  /** The premium the framework allows in all (fen). */
  quotaFen: z.number(),
  /** Premium reserved by declarations under review, returned or approved (fen). */
  consumedFen: z.number(),
  remainingFen: z.number(),
  /** Declarations other than drafts and cancelled ones. */
  declaredCount: z.number(),
  approvedCount: z.number(),
  /** Total project cost of the approved projects (fen). */
  approvedCostFen: z.number(),
  note: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  /** The epinsure application it was made from (生成年度订单), if any. */
  applicationId: z.number().nullable(),
  applicationNumber: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  version: z.number(),
});
export const annualOrderRow = annualOrderBase;
export type AnnualOrderRow = z.infer<typeof annualOrderRow>;

/** A policy issued under an annual order (one per approved project). */
export const projectPolicyRow = z.object({
  policyId: z.number(),
  number: z.string(),
  declarationId: z.number(),
  projectName: z.string(),
  premiumFen: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  issuedAt: z.string(),
});
export type ProjectPolicyRow = z.infer<typeof projectPolicyRow>;

/** GET /api/project-orders/:id: the order, what the caller may do, and its policies. */
export const annualOrderDetail = annualOrderBase.extend({
  /** The caller may declare projects against it (project_order:apply, the contractor's side, active). */
  canDeclare: z.boolean(),
  /** The policy of the application it was made from, once issued. */
  sourcePolicyId: z.number().nullable(),
  sourcePolicyNumber: z.string().nullable(),
  /** Declarations still open (draft, under review, returned): the order cannot be closed while any are. */
  openCount: z.number(),
  policies: z.array(projectPolicyRow),
});
export type AnnualOrderDetail = z.infer<typeof annualOrderDetail>;

/** 'change': start a change (批改) of this approved project. */
export const DECLARATION_ROW_ACTIONS = ['edit', 'submit', 'cancel', 'change'] as const;
export type DeclarationRowAction = (typeof DECLARATION_ROW_ACTIONS)[number];

export const declarationRow = z.object({
  id: z.number(),
  number: z.string(),
  annualOrderId: z.number(),
  annualOrderNumber: z.string(),
  customerName: z.string(),
  kind: z.number(),
  /** A change's project (the kind-1 declaration it changes). */
  baseId: z.number().nullable(),
  baseNumber: z.string().nullable(),
  /** A change's premium difference (fen; negative: a refund); null for a new project. */
  premiumDiffFen: z.number().nullable(),
  projectName: z.string(),
  projectAddress: z.string(),
  projectCostFen: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  highRisk: z.boolean(),
  headcount: z.number().nullable(),
  /** The premium as last priced (fen). */
  premiumFen: z.number(),
  /** What the declaration holds of the quota now (fen). */
  reservedFen: z.number(),
  status: z.enum(DECLARATION_STATUSES),
  statusLabel: z.string(),
  reviewOpinion: z.string().nullable(),
  ownerName: z.string().nullable(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
  version: z.number(),
  /** The project's policy once issued. */
  policyId: z.number().nullable(),
  policyNumber: z.string().nullable(),
  openTaskId: z.number().nullable(),
  /** What the caller may do now. */
  actions: z.array(z.enum(DECLARATION_ROW_ACTIONS)),
});
export type DeclarationRow = z.infer<typeof declarationRow>;

export const declarationEvent = z.object({
  at: z.string(),
  actor: z.string().nullable(),
  action: z.string(),
  /** 提交 / 审核通过 … */
  actionLabel: z.string(),
  opinion: z.string().nullable(),
  premiumFen: z.number().nullable(),
});
export type DeclarationEvent = z.infer<typeof declarationEvent>;

/** An endorsement (批单) issued against a project's policy for an approved change. */
export const endorsementRow = z.object({
  id: z.number(),
  number: z.string(),
  policyId: z.number(),
  policyNumber: z.string(),
  /** The change (kind-2 declaration). */
  declarationId: z.number(),
  declarationNumber: z.string(),
  changes: z.array(endorsementChange),
  premiumBeforeFen: z.number(),
  premiumAfterFen: z.number(),
  /** Negative: a refund. */
  premiumDiffFen: z.number(),
  effectiveDate: z.string(),
  issuedAt: z.string(),
  pdfSha256: z.string(),
  pdfSize: z.number(),
});
export type EndorsementRow = z.infer<typeof endorsementRow>;

/** GET /api/project-declarations/:id: the declaration, its quote, its annual order and its history. */
export const declarationDetail = declarationRow.extend({
  quote: quoteResult.nullable(),
  order: annualOrderRow,
  events: z.array(declarationEvent),
  /** A change: the project as it stood when the change was made (shown beside the new values). */
  base: projectValues.nullable(),
  /** A change: its endorsement once issued. */
  endorsement: endorsementRow.nullable(),
  /** A project: its changes' endorsements, oldest first. */
  endorsements: z.array(endorsementRow),
  /** A project: its open change (draft, under review or returned), if any. */
  openChangeId: z.number().nullable(),
});
export type DeclarationDetail = z.infer<typeof declarationDetail>;

export const DECLARATION_EVENT_LABELS: Readonly<Record<string, string>> = Object.freeze({
  create: '创建申报',
  update: '修改申报',
  submit: '提交审核',
  cancel: '撤销申报',
  review_approve: '审核通过',
  review_return: '审核退回',
  review_reject: '审核拒绝',
  issue: '出具保单',
  endorse: '批改生效',
  endorsement: '出具批单',
});

export const ANNUAL_ORDER_SORT_FIELDS = ['id', 'number', 'startDate', 'createdAt', 'quotaFen'] as const;
export const DECLARATION_SORT_FIELDS = ['id', 'number', 'createdAt', 'submittedAt', 'premiumFen'] as const;

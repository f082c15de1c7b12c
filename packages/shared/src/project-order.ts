// Project insurance (工程项目): annual orders (年度订单) and the secondary orders (二次下单) declared against
// them, shared by the projectManage pages, the tender review page and /api/project-orders. Import it as
// `@piibs/shared/project-order`.
//
// An annual order is a contractor's framework for a period: one approved customer, one construction product,
// and a quota in PREMIUM (保费额度, fen). Each project is declared against it as a secondary order, priced by
// the product's active rate table at the time of declaration (cost × ‰ by cost band, high-risk loaded). The
// premium of a declaration is reserved against the quota when it is submitted (under a row lock on the annual
// order), kept while it is reviewed, returned or approved, and released when it is rejected or cancelled.
// The approved project's policy is issued at once; its premium is settled against the annual order (no payment
// per project), so `consumedFen` is what the contractor owes under the framework.
//
// An annual order is opened by staff directly, or made from an issued epinsure application of a construction
// product (生成年度订单: one order per application). Staff may edit its quota (never below what is consumed) and
// contact, and close it (no declarations after that; open ones must be finished first).
//
// A change (批改, kind 2) of an approved project whose policy is issued copies the project; the contractor may
// change its address, cost, end date, high-risk flag and headcount (not its name, start or order). It is priced
// on the active rate table and its premium DIFFERENCE against the project's current premium is what it moves:
// a positive difference is reserved at submit like a new declaration's premium (409 when it does not fit); a
// negative one (a refund) is released only on approval, so a rejected or cancelled change never has to take
// back quota that others may have used meanwhile. On approval the project takes the new values and premium, and
// an endorsement (批单) is issued against its policy. One open change per project at a time.
//
// Secondary-order states:
//   — → DRAFT                               the contractor (or their agent) declares; priced, nothing reserved
//   DRAFT | RETURNED → PENDING_REVIEW       submit: re-priced on the active table, the premium reserved
//                                           (409 「年度订单剩余额度不足…」 when it does not fit)
//   PENDING_REVIEW → APPROVED               underwriter (task kind 'tender'); the policy is issued
//   PENDING_REVIEW → RETURNED (opinion)     underwriter; the reservation is kept while the contractor edits
//   PENDING_REVIEW → REJECTED (opinion)     underwriter; final, the reservation released
//   DRAFT | RETURNED → CANCELLED            the contractor; final, any reservation released

export * from './project-order/changes.ts';
export * from './project-order/forms.ts';
export * from './project-order/paths.ts';
export * from './project-order/rows.ts';
export * from './project-order/states.ts';

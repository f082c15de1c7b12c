// Risk control: accident-prevention services (事故预防服务, AQ 9010-2019). Service organisations and their
// persons, the prevention fund of a policy with its ledger, the service plan, service orders with their on-site
// record, hazards, confirmation, rectification, satisfaction and complaints. Shared by the riskControl pages and
// the server's /api/service-orgs, /api/service-persons and /api/prevention routes. Import it as
// `@piibs/shared/risk-control`. Money is integer fen; dates are 'yyyy-mm-dd' (Asia/Shanghai).
//
// The fund of a policy (its prevention fee) is split three ways, always adding up to the total:
//   planned  reserved by plan items and not yet spent: Σ max(0, reserved_i − spent_i)
//   spent    confirmed services: Σ spent_i
//   left     total − planned − spent (never negative: the server refuses, and the database checks it)
// A plan item reserves unitCost × times. Confirming an order spends its cost: first from its item's outstanding
// reservation, the rest from `left`; when that is not enough the confirmation is refused.
//
// Service orders:
//   DISPATCHED ─accept→ ACCEPTED ─start→ IN_SERVICE ─submit→ SUBMITTED ─confirm→ CONFIRMED ─(all hazards
//   rectified)→ CLOSED; DISPATCHED ─reject (reason)→ REJECTED; SUBMITTED ─return (opinion)→ IN_SERVICE;
//   DISPATCHED | ACCEPTED ─cancel→ CANCELLED. accept/reject/start/submit: the organisation; confirm/return: the
//   enterprise; cancel: the insurer. Confirming an order with no open hazard closes it at once.

export * from './risk-control/fund.ts';
export * from './risk-control/orders.ts';
export * from './risk-control/orgs.ts';
export * from './risk-control/plans.ts';
export * from './risk-control/states.ts';

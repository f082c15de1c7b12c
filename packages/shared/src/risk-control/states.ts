// The vocabularies of accident prevention and the state machine of service orders (see ../risk-control.ts).

// ---- vocabularies ----

export const SERVICE_ITEM_TYPES = [
  'HAZARD_INSPECTION',
  'SAFETY_TRAINING',
  'EMERGENCY_DRILL',
  'EXPERT_CONSULTATION',
  'SAFETY_ASSESSMENT',
  'STANDARDIZATION',
  'OTHER',
] as const;
export type ServiceItemType = (typeof SERVICE_ITEM_TYPES)[number];
export const SERVICE_ITEM_LABELS: Readonly<Record<ServiceItemType, string>> = Object.freeze({
  HAZARD_INSPECTION: '隐患排查',
  SAFETY_TRAINING: '安全培训',
  EMERGENCY_DRILL: '应急演练',
  EXPERT_CONSULTATION: '专家咨询',
  SAFETY_ASSESSMENT: '安全评估',
  STANDARDIZATION: '安全生产标准化辅导',
  OTHER: '其他',
});

export const SERVICE_FREQUENCIES = ['ONCE', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] as const;
export type ServiceFrequency = (typeof SERVICE_FREQUENCIES)[number];
export const SERVICE_FREQUENCY_LABELS: Readonly<Record<ServiceFrequency, string>> = Object.freeze({
  ONCE: '一次',
  MONTHLY: '每月一次',
  QUARTERLY: '每季度一次',
  SEMIANNUAL: '每半年一次',
  ANNUAL: '每年一次',
});
/** The number of times a frequency means over a one-year policy period (the plan may set another). */
export const FREQUENCY_TIMES: Readonly<Record<ServiceFrequency, number>> = Object.freeze({
  ONCE: 1,
  MONTHLY: 12,
  QUARTERLY: 4,
  SEMIANNUAL: 2,
  ANNUAL: 1,
});

export const HAZARD_LEVELS = ['GENERAL', 'SERIOUS', 'MAJOR'] as const;
export type HazardLevel = (typeof HAZARD_LEVELS)[number];
export const HAZARD_LEVEL_LABELS: Readonly<Record<HazardLevel, string>> = Object.freeze({
  GENERAL: '一般',
  SERIOUS: '较大',
  MAJOR: '重大',
});

export const HAZARD_STATUSES = ['OPEN', 'RECTIFIED'] as const;
export type HazardStatus = (typeof HAZARD_STATUSES)[number];
export const HAZARD_STATUS_LABELS: Readonly<Record<HazardStatus, string>> = Object.freeze({
  OPEN: '待整改',
  RECTIFIED: '已整改',
});

export const PARTICIPANT_SIDES = ['ORG', 'ENTERPRISE'] as const;
export type ParticipantSide = (typeof PARTICIPANT_SIDES)[number];
export const PARTICIPANT_SIDE_LABELS: Readonly<Record<ParticipantSide, string>> = Object.freeze({
  ORG: '服务机构',
  ENTERPRISE: '企业',
});

// ---- service orders: states and transitions ----

export const SERVICE_ORDER_STATUSES = [
  'DISPATCHED',
  'ACCEPTED',
  'REJECTED',
  'IN_SERVICE',
  'SUBMITTED',
  'CONFIRMED',
  'CLOSED',
  'CANCELLED',
] as const;
export type ServiceOrderStatus = (typeof SERVICE_ORDER_STATUSES)[number];
export const SERVICE_ORDER_STATUS_LABELS: Readonly<Record<ServiceOrderStatus, string>> = Object.freeze({
  DISPATCHED: '已派单',
  ACCEPTED: '已接单',
  REJECTED: '已拒单',
  IN_SERVICE: '服务中',
  SUBMITTED: '待企业确认',
  CONFIRMED: '整改跟踪中',
  CLOSED: '已完成',
  CANCELLED: '已取消',
});

/** The parties of a service: the insurer's staff, the service organisation, the insured enterprise. */
export const PARTIES = ['insurer', 'org', 'enterprise'] as const;
export type Party = (typeof PARTIES)[number];

export const SERVICE_ORDER_ACTIONS = [
  'accept',
  'reject',
  'start',
  'submit',
  'return',
  'confirm',
  'cancel',
] as const;
export type ServiceOrderAction = (typeof SERVICE_ORDER_ACTIONS)[number];
export const SERVICE_ORDER_ACTION_LABELS: Readonly<Record<ServiceOrderAction, string>> = Object.freeze({
  accept: '接单',
  reject: '拒单',
  start: '开始服务',
  submit: '提交服务记录',
  return: '退回服务记录',
  confirm: '确认服务',
  cancel: '取消服务单',
});

interface Transition {
  from: readonly ServiceOrderStatus[];
  to: ServiceOrderStatus;
  by: Party;
}
/** Every allowed transition: the states it leaves, the state it reaches, and who performs it. */
export const SERVICE_ORDER_TRANSITIONS: Readonly<Record<ServiceOrderAction, Transition>> = Object.freeze({
  accept: { from: ['DISPATCHED'], to: 'ACCEPTED', by: 'org' },
  reject: { from: ['DISPATCHED'], to: 'REJECTED', by: 'org' },
  start: { from: ['ACCEPTED'], to: 'IN_SERVICE', by: 'org' },
  submit: { from: ['IN_SERVICE'], to: 'SUBMITTED', by: 'org' },
  return: { from: ['SUBMITTED'], to: 'IN_SERVICE', by: 'enterprise' },
  confirm: { from: ['SUBMITTED'], to: 'CONFIRMED', by: 'enterprise' },
  cancel: { from: ['DISPATCHED', 'ACCEPTED'], to: 'CANCELLED', by: 'insurer' },
});

/** The state an action leads to from a state, or null when the action is not allowed there. */
export function serviceOrderNext(
  from: ServiceOrderStatus,
  action: ServiceOrderAction,
): ServiceOrderStatus | null {
  const t = SERVICE_ORDER_TRANSITIONS[action];
  return t.from.includes(from) ? t.to : null;
}

/** Orders that still count against their plan item's times (everything but rejected and cancelled). */
export const LIVE_ORDER_STATUSES: readonly ServiceOrderStatus[] = Object.freeze(
  SERVICE_ORDER_STATUSES.filter((s) => s !== 'REJECTED' && s !== 'CANCELLED'),
);
/** The on-site record can be saved while the service is under way. */
export const RECORD_EDITABLE: readonly ServiceOrderStatus[] = Object.freeze(['IN_SERVICE']);
/** Hazards are followed up (rectified) after the enterprise confirmed. */
export const RECTIFIABLE: readonly ServiceOrderStatus[] = Object.freeze(['CONFIRMED']);
/** The enterprise rates a confirmed service. */
export const RATEABLE: readonly ServiceOrderStatus[] = Object.freeze(['CONFIRMED', 'CLOSED']);
/** A complaint can be made once the organisation has taken the order. */
export const COMPLAINABLE: readonly ServiceOrderStatus[] = Object.freeze([
  'ACCEPTED',
  'REJECTED',
  'IN_SERVICE',
  'SUBMITTED',
  'CONFIRMED',
  'CLOSED',
]);

/** What a party may do with an order in a state (the buttons of the order pages). */
export function serviceOrderActionsFor(status: ServiceOrderStatus, party: Party): ServiceOrderAction[] {
  return SERVICE_ORDER_ACTIONS.filter(
    (a) => SERVICE_ORDER_TRANSITIONS[a].by === party && SERVICE_ORDER_TRANSITIONS[a].from.includes(status),
  );
}

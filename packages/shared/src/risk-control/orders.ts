// Service orders (服务单): dispatch, the on-site record, confirmation, rectification, rating and complaints: forms
// and rows.

import { z } from 'zod';
import { dateField, fen, id, optionalText, text, version } from './fields.ts';
import { fundSummary } from './plans.ts';
import {
  HAZARD_LEVELS,
  HAZARD_STATUSES,
  PARTICIPANT_SIDES,
  PARTIES,
  SERVICE_ITEM_TYPES,
  SERVICE_ORDER_ACTIONS,
  SERVICE_ORDER_STATUSES,
} from './states.ts';

// ---- service orders ----

export const SERVICE_ORDER_SORT_FIELDS = ['id', 'number', 'scheduledDate', 'status', 'createdAt'] as const;

/** POST /api/prevention/plans/:seqNo/orders (insurer staff): one occurrence of a plan item. */
export const dispatchForm = z.object({
  planItemId: id('服务项目'),
  scheduledDate: dateField('计划服务日期'),
  /** Defaults to the plan item's persons. */
  personIds: z.array(z.number().int().positive()).max(20).optional().meta({ title: '服务人员' }),
  /** Defaults to the plan item's unit cost. */
  costFen: fen('服务费用').optional(),
  note: optionalText('派单说明', 500),
});
export type DispatchForm = z.input<typeof dispatchForm>;

export const reasonForm = (title: string) => z.object({ version, reason: text(title, 500) });
/** reject (拒单原因) / cancel (取消原因). */
export const rejectForm = reasonForm('拒单原因');
export const cancelForm = reasonForm('取消原因');
/** The enterprise sends a submitted record back with an opinion. */
export const returnForm = z.object({ version, opinion: text('退回意见', 500) });

export const hazardForm = z.object({
  description: text('隐患描述', 500),
  location: optionalText('隐患部位', 100),
  level: z.enum(HAZARD_LEVELS, { error: '请选择隐患等级' }).meta({ title: '隐患等级' }),
  measure: optionalText('整改建议', 500),
  deadline: dateField('整改期限'),
});
export const participantForm = z.object({
  name: text('参与人员', 30),
  side: z.enum(PARTICIPANT_SIDES, { error: '请选择所属方' }).meta({ title: '所属方' }),
  position: optionalText('职务', 30),
});

/** POST /api/prevention/orders/:ref/record (the organisation, IN_SERVICE): replaces the on-site record. */
export const serviceRecordForm = z
  .object({
    version,
    serviceDate: dateField('服务日期'),
    address: optionalText('服务地点', 200),
    findings: text('服务情况', 5000),
    hazards: z.array(hazardForm).max(200, { error: '最多 200 项' }).default([]).meta({ title: '隐患' }),
    participants: z
      .array(participantForm)
      .min(1, { error: '请至少填写一位参与人员' })
      .max(50, { error: '最多 50 人' })
      .meta({ title: '参与人员' }),
  })
  .superRefine((r, ctx) => {
    r.hazards.forEach((h, i) => {
      if (h.deadline < r.serviceDate)
        ctx.addIssue({ code: 'custom', path: ['hazards', i, 'deadline'], message: '不能早于服务日期' });
    });
  });
export type ServiceRecordForm = z.input<typeof serviceRecordForm>;

const satisfaction = z
  .number({ error: '请选择满意度' })
  .int()
  .min(1, { error: '1–5 分' })
  .max(5, { error: '1–5 分' })
  .meta({ title: '满意度' });
/** POST /api/prevention/orders/:ref/confirm (the enterprise): spends the cost and rates the service (确认服务并评价). */
export const confirmForm = z.object({ version, satisfaction, comment: optionalText('评价', 500) });
/** POST /api/prevention/orders/:ref/rate (the enterprise, once; orders confirmed before a rating was required). */
export const rateForm = z.object({ version, satisfaction, comment: optionalText('评价', 500) });
/** POST /api/prevention/orders/:ref/hazards/:hazardId/rectify (the organisation, CONFIRMED). */
export const rectifyForm = z.object({
  version,
  rectifiedDate: dateField('整改完成日期'),
  note: optionalText('整改情况', 500),
});
/** POST /api/prevention/orders/:ref/complaints (the enterprise). */
export const complaintForm = z.object({ content: text('投诉内容', 1000) });
/** POST /api/prevention/orders/:ref/complaints/:complaintId/reply (the organisation or the insurer). */
export const complaintReplyForm = z.object({ reply: text('答复内容', 1000) });

export const hazardRow = z.object({
  id: z.number(),
  seq: z.number(),
  description: z.string(),
  location: z.string().nullable(),
  level: z.enum(HAZARD_LEVELS),
  levelLabel: z.string(),
  measure: z.string().nullable(),
  deadline: z.string(),
  status: z.enum(HAZARD_STATUSES),
  statusLabel: z.string(),
  rectifiedDate: z.string().nullable(),
  rectifyNote: z.string().nullable(),
  /** Past its deadline and still open. */
  overdue: z.boolean(),
});
export type HazardRow = z.infer<typeof hazardRow>;

export const participantRow = z.object({
  name: z.string(),
  side: z.enum(PARTICIPANT_SIDES),
  position: z.string().nullable(),
});

export const complaintRow = z.object({
  id: z.number(),
  content: z.string(),
  complainedOn: z.string(),
  /** 10 working days after the complaint. */
  deadline: z.string(),
  status: z.enum(['OPEN', 'REPLIED']),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  repliedBy: z.string().nullable(),
  /** Still open after its deadline. */
  overdue: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type ComplaintRow = z.infer<typeof complaintRow>;

export const orderEventRow = z.object({
  id: z.number(),
  action: z.string(),
  fromStatus: z.enum(SERVICE_ORDER_STATUSES).nullable(),
  toStatus: z.enum(SERVICE_ORDER_STATUSES),
  actor: z.string().nullable(),
  opinion: z.string().nullable(),
  at: z.string(),
});
export type OrderEventRow = z.infer<typeof orderEventRow>;

export const serviceOrderRow = z.object({
  id: z.number(),
  number: z.string(),
  seqNo: z.string(),
  policyId: z.number(),
  policyNumber: z.string(),
  /** The policy's period: services are dispatched, recorded and paid only within it. */
  policyStartDate: z.string(),
  policyEndDate: z.string(),
  holderName: z.string(),
  holderUscc: z.string(),
  planItemId: z.number(),
  itemType: z.enum(SERVICE_ITEM_TYPES),
  itemLabel: z.string(),
  orgId: z.number(),
  orgName: z.string(),
  persons: z.array(z.object({ id: z.number(), name: z.string() })),
  scheduledDate: z.string(),
  serviceDate: z.string().nullable(),
  costFen: z.number(),
  status: z.enum(SERVICE_ORDER_STATUSES),
  statusLabel: z.string(),
  hazardCount: z.number(),
  openHazardCount: z.number(),
  satisfaction: z.number().nullable(),
  openComplaint: z.boolean(),
  /** What the caller may do now (state machine × party). */
  actions: z.array(z.enum(SERVICE_ORDER_ACTIONS)),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ServiceOrderRow = z.infer<typeof serviceOrderRow>;

/** GET /api/prevention/orders/:ref. */
export const serviceOrderDetail = serviceOrderRow.extend({
  note: z.string().nullable(),
  address: z.string().nullable(),
  findings: z.string().nullable(),
  participants: z.array(participantRow),
  hazards: z.array(hazardRow),
  rejectReason: z.string().nullable(),
  cancelReason: z.string().nullable(),
  /** The enterprise's last send-back opinion. */
  returnOpinion: z.string().nullable(),
  satisfactionComment: z.string().nullable(),
  ratedAt: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  party: z.enum(PARTIES),
  /** The organisation may save the on-site record / rectify hazards now. */
  canRecord: z.boolean(),
  canRectify: z.boolean(),
  canRate: z.boolean(),
  canComplain: z.boolean(),
  complaints: z.array(complaintRow),
  events: z.array(orderEventRow),
  fund: fundSummary,
});
export type ServiceOrderDetail = z.infer<typeof serviceOrderDetail>;

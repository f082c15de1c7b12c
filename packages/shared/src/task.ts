// Review tasks (审核任务): queries, the decision body and answers shared by the web's task pages and the
// server's routes. Import it as `@piibs/shared/task`; the state machine is in `@piibs/shared/review`.
import { z } from 'zod';
import { applicationDetail, applicationEventRow } from './application.ts';
import { customerRow } from './customer.ts';
import {
  OPINION_REQUIRED,
  REVIEW_DECISIONS,
  TASK_KINDS,
  TASK_STATUSES,
  type TaskAssigneeFilter,
} from './review.ts';

export const TASK_SORT_FIELDS = ['id', 'createdAt', 'decidedAt'] as const;

const opinion = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.trim() || null : v),
    z.string().max(500, { error: '不能超过 500 个字符' }).nullish(),
  )
  .meta({ title: '审核意见' });

/** Document types (the `document_type` dictionary) the underwriter asks the applicant for. */
const docTypes = z
  .array(z.string().trim().min(1, { error: '请选择资料类型' }).max(64, { error: '不能超过 64 个字符' }), {
    error: '请选择要求补充的资料',
  })
  .max(12, { error: '最多 12 项' })
  .refine((v) => new Set(v).size === v.length, { error: '资料类型重复' })
  .meta({ title: '要求补充的资料', description: 'document_type 字典的代码' });

/**
 * POST /api/tasks/:id/decide. `version` is the task's, as loaded (409 when stale or already decided). An
 * application task's 退回 may ask for documents (`docTypes`), which the applicant must add before resubmitting.
 */
export const decideForm = z
  .object({
    decision: z.enum(REVIEW_DECISIONS, { error: '请选择通过、退回或拒绝' }).meta({ title: '审核结论' }),
    opinion,
    docTypes: docTypes.optional(),
    version: z.number().int().min(0).meta({ title: '版本号' }),
  })
  .superRefine((d, ctx) => {
    if (OPINION_REQUIRED.includes(d.decision) && !d.opinion)
      ctx.addIssue({ code: 'custom', path: ['opinion'], message: '退回或拒绝时必须填写审核意见' });
    if (d.docTypes?.length && d.decision !== 'return')
      ctx.addIssue({ code: 'custom', path: ['docTypes'], message: '仅退回时可要求补充资料' });
  });
export type DecideForm = z.input<typeof decideForm>;

const taskVersion = z.number().int().min(0).meta({ title: '版本号' });

/**
 * POST /api/tasks/:id/request-materials (application tasks): asks the applicant for documents while the
 * application stays 待审核; they may upload those types meanwhile, and it cannot be approved without them.
 */
export const requestMaterialsForm = z.object({
  docTypes: docTypes.min(1, { error: '请选择要求补充的资料' }),
  opinion,
  version: taskVersion,
});
export type RequestMaterialsForm = z.input<typeof requestMaterialsForm>;

/** POST /api/tasks/:id/claim and /release: the task's version as loaded (409 when stale). */
export const taskVersionForm = z.object({ version: taskVersion });
export type TaskVersionForm = z.input<typeof taskVersionForm>;

/** POST /api/tasks/:id/assign: hands the open task to a reviewer who may decide it (task:assign). */
export const assignForm = z.object({
  assigneeId: z
    .number({ error: '请选择处理人' })
    .int({ error: '请选择处理人' })
    .positive({ error: '请选择处理人' })
    .meta({ title: '处理人' }),
  version: taskVersion,
});
export type AssignForm = z.input<typeof assignForm>;

/** GET /api/tasks?assignee=: `me` (held by the caller), `none` (unassigned) or a user's id. */
export const taskAssigneeParam = z
  .string()
  .trim()
  .regex(/^(?:me|none|[1-9]\d{0,14})$/, { error: '请选择 me、none 或处理人ID' })
  .transform((v): TaskAssigneeFilter => (v === 'me' || v === 'none' ? v : Number(v)))
  .meta({ title: '处理人', description: 'me：我的；none：未分配；或处理人的用户ID' });

const userRef = z.object({ id: z.number(), name: z.string() }).nullable();

/** GET /api/tasks/:id/assignees: the reviewers the task can be assigned to. */
export const assigneeOption = z.object({ id: z.number(), name: z.string() });
export type AssigneeOption = z.infer<typeof assigneeOption>;

export const taskRow = z.object({
  id: z.number(),
  kind: z.enum(TASK_KINDS),
  subjectId: z.number(),
  /** What is reviewed, e.g. the customer's name and code. */
  title: z.string(),
  status: z.enum(TASK_STATUSES),
  submittedBy: userRef,
  assignee: userRef,
  decision: z.enum(REVIEW_DECISIONS).nullable(),
  opinion: z.string().nullable(),
  decidedBy: userRef,
  decidedAt: z.string().nullable(),
  version: z.number(),
  createdAt: z.string(),
  /** Seconds since the task was opened (until decided, for done tasks). */
  ageSeconds: z.number(),
});
export type TaskRow = z.infer<typeof taskRow>;

export const auditEntry = z.object({
  at: z.string(),
  /** Who, in words (姓名, 系统自动 or the payment provider's name). */
  actor: z.string().nullable(),
  action: z.string(),
  detail: z.unknown(),
  /** The detail in words, a line a field (字段：旧值 → 新值; records and codes named). */
  lines: z.array(z.string()),
});

/** GET /api/tasks/:id: the task, what it reviews, earlier decisions on it and its change history. */
export const taskDetail = taskRow.extend({
  /** kind 'customer': the customer as it is now (phone masked). */
  customer: customerRow.nullable(),
  /** kind 'application': the application with its quote breakdown, co-insurers and its applicant (customer). */
  application: applicationDetail.nullable().optional(),
  /** kind 'application': its history timeline, oldest first. */
  events: z.array(applicationEventRow).optional(),
  /**
   * kind 'application', a resubmission: what the applicant changed after the last return, field by field (the
   * value at the return → the value submitted), as the audit trail records it; null for a first submission.
   */
  resubmitted: z
    .object({ before: z.record(z.string(), z.unknown()), after: z.record(z.string(), z.unknown()) })
    .nullable()
    .optional(),
  /** Earlier tasks of the same record, newest first. */
  history: z.array(taskRow),
  /** The record's audit trail, newest first (at most 50). */
  changes: z.array(auditEntry),
});
export type TaskDetail = z.infer<typeof taskDetail>;

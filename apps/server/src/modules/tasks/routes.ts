import { blurryParam, pageOf } from '@piibs/shared/admin';
import {
  REVIEW_DECISIONS,
  TASK_ASSIGN_PERMISSION,
  TASK_KIND_PERMISSIONS,
  TASK_KINDS,
  TASK_STATUSES,
} from '@piibs/shared/review';
import {
  assigneeOption,
  assignForm,
  decideForm,
  requestMaterialsForm,
  TASK_SORT_FIELDS,
  taskAssigneeParam,
  taskDetail,
  taskRow,
  taskVersionForm,
} from '@piibs/shared/task';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../lib/errors.ts';
import { IDEMPOTENT_NOTE, idempotent, idempotentErrors } from '../../lib/idempotency.ts';
import { pageQuery, paginate } from '../../lib/paging.ts';
import { requireAnyPermission } from '../../lib/permissions.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { hasPermission, requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { businessContext } from '../payments/context.ts';
import {
  afterDecision,
  assigneeOptions,
  assignTask,
  claimTask,
  decideTask,
  getTask,
  type Reviewer,
  releaseTask,
  requestTaskMaterials,
  reviewKinds,
  taskListSpec,
} from './service.ts';

const taskQuery = pageQuery(TASK_SORT_FIELDS).extend({
  kind: z.enum(TASK_KINDS, { error: '请选择正确的任务类型' }).optional().meta({ title: '任务类型' }),
  /** Default: open (the waiting queue); with a keyword, every state (a decided application is found by its number). */
  status: z.enum(TASK_STATUSES, { error: '请选择正确的任务状态' }).optional().meta({ title: '任务状态' }),
  decision: z
    .enum(REVIEW_DECISIONS, { error: '请选择正确的审核结论' })
    .optional()
    .meta({ title: '审核结论' }),
  blurry: blurryParam.meta({ title: '关键词', description: '任务标题包含' }),
  assignee: taskAssigneeParam.optional(),
});

const idParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '任务ID' }) });

async function reviewerOf(app: FastifyInstance, req: FastifyRequest): Promise<Reviewer> {
  const db = app.deps.database.db;
  const [viewer, kinds] = await Promise.all([
    customerViewerOf(db, req.user),
    reviewKinds((code) => hasPermission(app, req.user, code)),
  ]);
  if (kinds.length === 0) throw forbidden();
  return { user: req.user, ip: req.ip, viewer, kinds };
}

/**
 * Review tasks (审核任务). Each kind needs its reviewer permission (customer → customer:review); the list shows
 * only the kinds the caller reviews, on records they may see.
 */
export const taskRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const anyReviewer = requireAnyPermission(app, ...Object.values(TASK_KIND_PERMISSIONS));

  app.get(
    '/tasks',
    {
      preHandler: anyReviewer,
      schema: {
        tags: ['tasks'],
        summary: '审核任务队列（默认待处理；按关键词搜索时含已处理；最早提交的在前，含等待时长 ageSeconds）',
        querystring: taskQuery,
        response: { 200: pageOf(taskRow), ...adminErrors },
      },
    },
    async (req) => {
      const status = req.query.status ?? (req.query.blurry ? undefined : 'open');
      return paginate(req.query, taskListSpec(db(), await reviewerOf(app, req), { ...req.query, status }));
    },
  );

  app.get(
    '/tasks/:id',
    {
      preHandler: anyReviewer,
      schema: {
        tags: ['tasks'],
        summary: '审核任务详情：审核对象、历次审核结论与变更记录',
        params: idParams,
        response: { 200: taskDetail, ...adminErrors },
      },
    },
    async (req) => getTask(db(), await reviewerOf(app, req), req.params.id),
  );

  app.post(
    '/tasks/:id/decide',
    {
      preHandler: anyReviewer,
      schema: {
        tags: ['tasks'],
        summary: `审核：通过 / 退回 / 拒绝（退回、拒绝须填写意见；投保单退回时可要求补充资料 docTypes；投保单缺少核保通过前必备的影像资料时不能通过；已处理或 version 过期答 409）${IDEMPOTENT_NOTE}`,
        params: idParams,
        body: decideForm,
        response: { 200: taskRow, ...idempotentErrors },
      },
    },
    async (req, reply) => {
      const reviewer = await reviewerOf(app, req);
      const task = await idempotent(app, req, reply, (db) =>
        decideTask(db, reviewer, req.params.id, req.body),
      );
      await afterDecision(businessContext(app), task, req.body.decision);
      return task;
    },
  );

  app.post(
    '/tasks/:id/request-materials',
    {
      preHandler: requirePermission(app, TASK_KIND_PERMISSIONS.application),
      schema: {
        tags: ['tasks'],
        summary:
          '要求补充资料（投保单审核）：投保单保持待审核，投保人可上传所要求类型的影像资料，补齐前不能通过；' +
          '通知投保人一方（已处理、被他人领取或 version 过期答 409）',
        params: idParams,
        body: requestMaterialsForm,
        response: { 200: taskRow, ...adminErrors },
      },
    },
    async (req) => requestTaskMaterials(db(), await reviewerOf(app, req), req.params.id, req.body),
  );

  app.post(
    '/tasks/:id/claim',
    {
      preHandler: anyReviewer,
      schema: {
        tags: ['tasks'],
        summary: '领取：由自己处理该待处理任务（已被他人领取、已处理或 version 过期答 409）',
        params: idParams,
        body: taskVersionForm,
        response: { 200: taskRow, ...adminErrors },
      },
    },
    async (req) => claimTask(db(), await reviewerOf(app, req), req.params.id, req.body.version),
  );

  app.post(
    '/tasks/:id/release',
    {
      preHandler: anyReviewer,
      schema: {
        tags: ['tasks'],
        summary: '释放：处理人（或有指派权限的用户）将任务放回待领取队列',
        params: idParams,
        body: taskVersionForm,
        response: { 200: taskRow, ...adminErrors },
      },
    },
    async (req) =>
      releaseTask(
        db(),
        await reviewerOf(app, req),
        req.params.id,
        req.body.version,
        await hasPermission(app, req.user, TASK_ASSIGN_PERMISSION),
      ),
  );

  app.post(
    '/tasks/:id/assign',
    {
      preHandler: requirePermission(app, TASK_ASSIGN_PERMISSION),
      schema: {
        tags: ['tasks'],
        summary: '指派：将待处理任务交给可审核它的审核人员（需指派权限；被指派人收到通知）',
        params: idParams,
        body: assignForm,
        response: { 200: taskRow, ...adminErrors },
      },
    },
    async (req) => assignTask(db(), await reviewerOf(app, req), req.params.id, req.body),
  );

  app.get(
    '/tasks/:id/assignees',
    {
      preHandler: requirePermission(app, TASK_ASSIGN_PERMISSION),
      schema: {
        tags: ['tasks'],
        summary: '可指派的审核人员（有该类任务审核权限、可见该记录、非提交人）',
        params: idParams,
        response: { 200: z.array(assigneeOption), ...adminErrors },
      },
    },
    async (req) => assigneeOptions(db(), await reviewerOf(app, req), req.params.id),
  );
};

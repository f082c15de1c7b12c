import { blurryParam, dateTimeParam, pageOf } from '@piibs/shared/admin';
import {
  ANNUAL_ORDER_SORT_FIELDS,
  annualOrderCreateForm,
  annualOrderDetail,
  annualOrderFromApplicationForm,
  annualOrderRow,
  annualOrderUpdateForm,
  DECLARATION_SORT_FIELDS,
  DECLARATION_STATUSES,
  declarationChangeForm,
  declarationCreateForm,
  declarationDetail,
  declarationRow,
  declarationSaveForm,
  declarationVersionForm,
  endorsementRow,
} from '@piibs/shared/project-order';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { hasPermission, requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { pdfResponse, sendPdf } from '../policies/routes.ts';
import { projectViewerOf } from './access.ts';
import { annualOrderListSpec, getAnnualOrder, ORDER_EXPORT_COLUMNS } from './annual-order-queries.ts';
import {
  annualOrderFromApplication,
  closeAnnualOrder,
  createAnnualOrder,
  updateAnnualOrder,
} from './annual-orders.ts';
import { createChange } from './changes.ts';
import type { ProjectActor } from './common.ts';
import { DECLARATION_EXPORT_COLUMNS, declarationListSpec, getDeclaration } from './declaration-queries.ts';
import { cancelDeclaration, createDeclaration, saveDeclaration, submitDeclaration } from './declarations.ts';
import { endorsementPdf, policyEndorsements } from './endorsements.ts';

const orderQuery = pageQuery(ANNUAL_ORDER_SORT_FIELDS).extend({
  customerId: z.coerce.number().int().positive().optional().meta({ title: '施工企业' }),
  applicationId: z.coerce
    .number()
    .int()
    .positive()
    .optional()
    .meta({ title: '投保单', description: '由该投保单生成的年度订单' }),
  blurry: blurryParam.meta({
    title: '关键词',
    description: '年度订单号、施工企业名称或统一社会信用代码包含',
  }),
});
const declarationQuery = pageQuery(DECLARATION_SORT_FIELDS).extend({
  orderId: z.coerce.number().int().positive().optional().meta({ title: '年度订单' }),
  status: z.enum(DECLARATION_STATUSES, { error: '请选择正确的申报状态' }).optional().meta({ title: '状态' }),
  blurry: blurryParam.meta({ title: '关键词', description: '申报单号、工程名称或施工企业名称包含' }),
  startTime: dateTimeParam('开始时间').optional(),
  endTime: dateTimeParam('结束时间').optional(),
});
const orderParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '年度订单ID' }) });
const declarationParams = z.object({
  id: z.coerce.number().int().positive().meta({ title: '二次下单ID' }),
});
const applicationParams = z.object({
  applicationId: z.coerce.number().int().positive().meta({ title: '投保单ID' }),
});
const policyParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '保单ID' }) });
const endorsementParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '批单ID' }) });

const PROJECT_ORDER_PERMISSIONS = {
  list: 'project_order:list',
  add: 'project_order:add',
  edit: 'project_order:edit',
  apply: 'project_order:apply',
} as const;

async function actorOf(app: FastifyInstance, req: FastifyRequest): Promise<ProjectActor> {
  return { user: req.user, ip: req.ip, project: await projectViewerOf(app.deps.database.db, req.user) };
}

/**
 * Project insurance (工程项目): annual orders (年度订单) and secondary orders (二次下单). project_order:list reads
 * (contractors their own company's, agents their clients', staff by data scope; anything else 404),
 * project_order:add opens an annual order (staff; by hand or from an issued epinsure application),
 * project_order:edit changes its quota and contact or closes it, project_order:apply declares projects and
 * changes (批改) of approved ones (the contractor's side; changes by the declarer only, 403 otherwise; 409 in a
 * state that does not allow them, on a stale version, or when the quota does not hold the premium). The
 * underwriter decides through /api/tasks (kind 'tender'). Endorsements (批单) are read with their policy
 * (application:list).
 */
export const projectOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const canList = requirePermission(app, PROJECT_ORDER_PERMISSIONS.list);
  const canAdd = requirePermission(app, PROJECT_ORDER_PERMISSIONS.add);
  const canApply = requirePermission(app, PROJECT_ORDER_PERMISSIONS.apply);
  const canEdit = requirePermission(app, PROJECT_ORDER_PERMISSIONS.edit);
  const canReadPolicies = requirePermission(app, 'application:list');
  const mayApply = (req: FastifyRequest) => hasPermission(app, req.user, PROJECT_ORDER_PERMISSIONS.apply);

  app.get(
    '/project-orders',
    {
      preHandler: canList,
      schema: {
        tags: ['project-orders'],
        summary: '年度订单列表（分页；含保费额度、已占用与剩余额度）',
        querystring: orderQuery,
        response: { 200: pageOf(annualOrderRow), ...adminErrors },
      },
    },
    async (req) =>
      paginate(req.query, annualOrderListSpec(db(), await projectViewerOf(db(), req.user), req.query)),
  );

  app.get(
    '/project-orders/download',
    {
      preHandler: canList,
      schema: {
        tags: ['project-orders'],
        summary: '导出年度订单（xlsx，筛选条件同列表）',
        querystring: orderQuery.omit({ page: true, size: true }),
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      const spec = annualOrderListSpec(db(), await projectViewerOf(db(), req.user), req.query);
      return sendXlsx(reply, {
        name: '年度订单',
        columns: ORDER_EXPORT_COLUMNS,
        rows: allRows(req.query, spec),
      });
    },
  );

  app.post(
    '/project-orders',
    {
      preHandler: canAdd,
      schema: {
        tags: ['project-orders'],
        summary: '新建年度订单（已审核通过的施工企业 + 建筑工程类险种；保费额度，单位分）',
        body: annualOrderCreateForm,
        response: { 200: annualOrderDetail, ...adminErrors },
      },
    },
    async (req) => createAnnualOrder(db(), await actorOf(app, req), req.body),
  );

  app.get(
    '/project-orders/:id',
    {
      preHandler: canList,
      schema: {
        tags: ['project-orders'],
        summary: '年度订单详情（额度占用、可否申报 canDeclare、项下保单）',
        params: orderParams,
        response: { 200: annualOrderDetail, ...adminErrors },
      },
    },
    async (req) =>
      getAnnualOrder(db(), await projectViewerOf(db(), req.user), req.params.id, await mayApply(req)),
  );

  app.post(
    '/project-orders/from-application/:applicationId',
    {
      preHandler: canAdd,
      schema: {
        tags: ['project-orders'],
        summary:
          '生成年度订单：已缴费或已出单的工程险（epinsure）投保单成为施工企业的年度订单（每张投保单一份；重复调用答同一订单）',
        params: applicationParams,
        body: annualOrderFromApplicationForm,
        response: { 200: annualOrderDetail, ...adminErrors },
      },
    },
    async (req) =>
      annualOrderFromApplication(db(), await actorOf(app, req), req.params.applicationId, req.body),
  );

  app.post(
    '/project-orders/:id/update',
    {
      preHandler: canEdit,
      schema: {
        tags: ['project-orders'],
        summary: '修改年度订单（保费额度不低于已占用，联系人、备注；version 过期答 409）',
        params: orderParams,
        body: annualOrderUpdateForm,
        response: { 200: annualOrderDetail, ...adminErrors },
      },
    },
    async (req) =>
      updateAnnualOrder(db(), await actorOf(app, req), req.params.id, req.body, await mayApply(req)),
  );

  app.post(
    '/project-orders/:id/close',
    {
      preHandler: canEdit,
      schema: {
        tags: ['project-orders'],
        summary: '关闭年度订单（之后不能再申报或批改；有未完成的申报时答 409）',
        params: orderParams,
        body: declarationVersionForm,
        response: { 200: annualOrderDetail, ...adminErrors },
      },
    },
    async (req) =>
      closeAnnualOrder(db(), await actorOf(app, req), req.params.id, req.body.version, await mayApply(req)),
  );

  app.post(
    '/project-orders/:id/declarations',
    {
      preHandler: canApply,
      schema: {
        tags: ['project-orders'],
        summary: '二次下单：在年度订单下申报新项目（草稿，按生效费率表计费；批改从项目发起）',
        params: orderParams,
        body: declarationCreateForm,
        response: { 200: declarationDetail, ...adminErrors },
      },
    },
    async (req) => createDeclaration(db(), await actorOf(app, req), req.params.id, req.body),
  );

  app.get(
    '/project-declarations',
    {
      preHandler: canList,
      schema: {
        tags: ['project-orders'],
        summary: '二次下单列表（分页；orderId 限定年度订单；每行含可执行的操作 actions）',
        querystring: declarationQuery,
        response: { 200: pageOf(declarationRow), ...adminErrors },
      },
    },
    async (req) =>
      paginate(req.query, declarationListSpec(db(), await projectViewerOf(db(), req.user), req.query)),
  );

  app.get(
    '/project-declarations/download',
    {
      preHandler: canList,
      schema: {
        tags: ['project-orders'],
        summary: '导出二次下单（xlsx，筛选条件同列表）',
        querystring: declarationQuery.omit({ page: true, size: true }),
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      const spec = declarationListSpec(db(), await projectViewerOf(db(), req.user), req.query);
      return sendXlsx(reply, {
        name: '二次下单',
        columns: DECLARATION_EXPORT_COLUMNS,
        rows: allRows(req.query, spec),
      });
    },
  );

  app.get(
    '/project-declarations/:id',
    {
      preHandler: canList,
      schema: {
        tags: ['project-orders'],
        summary: '二次下单详情（报价快照、年度订单、历史、保单）',
        params: declarationParams,
        response: { 200: declarationDetail, ...adminErrors },
      },
    },
    async (req) => getDeclaration(db(), await projectViewerOf(db(), req.user), req.params.id),
  );

  app.post(
    '/project-declarations/:id/draft',
    {
      preHandler: canApply,
      schema: {
        tags: ['project-orders'],
        summary: '保存二次下单（草稿或已退回；仅申报人；version 过期答 409；重新计费）',
        params: declarationParams,
        body: declarationSaveForm,
        response: { 200: declarationDetail, ...adminErrors },
      },
    },
    async (req) => saveDeclaration(db(), await actorOf(app, req), req.params.id, req.body),
  );

  app.post(
    '/project-declarations/:id/submit',
    {
      preHandler: canApply,
      schema: {
        tags: ['project-orders'],
        summary: '提交审核（按生效费率表重新计费，占用年度订单额度；额度不足答 409；生成审核任务）',
        params: declarationParams,
        body: declarationVersionForm,
        response: { 200: declarationDetail, ...adminErrors },
      },
    },
    async (req) => submitDeclaration(db(), await actorOf(app, req), req.params.id, req.body.version),
  );

  app.post(
    '/project-declarations/:id/cancel',
    {
      preHandler: canApply,
      schema: {
        tags: ['project-orders'],
        summary: '撤销二次下单（草稿或已退回；释放已占用的额度）',
        params: declarationParams,
        body: declarationVersionForm,
        response: { 200: declarationDetail, ...adminErrors },
      },
    },
    async (req) => cancelDeclaration(db(), await actorOf(app, req), req.params.id, req.body.version),
  );

  app.post(
    '/project-declarations/:id/changes',
    {
      preHandler: canApply,
      schema: {
        tags: ['project-orders'],
        summary:
          '项目批改申报（type 2）：对已出单的项目发起批改（草稿；可改工程地址、造价、竣工日期、危大工程、施工人数；按生效费率表计算保费差额）',
        params: declarationParams,
        body: declarationChangeForm,
        response: { 200: declarationDetail, ...adminErrors },
      },
    },
    async (req) => createChange(db(), await actorOf(app, req), req.params.id, req.body),
  );

  app.get(
    '/policies/:id/endorsements',
    {
      preHandler: canReadPolicies,
      schema: {
        tags: ['policies'],
        summary: '保单的批单（项目批改审核通过后出具；范围同保单）',
        params: policyParams,
        response: { 200: z.array(endorsementRow), ...adminErrors },
      },
    },
    async (req) => policyEndorsements(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.get(
    '/endorsements/:id/pdf',
    {
      preHandler: canReadPolicies,
      schema: {
        tags: ['policies'],
        summary: '下载批单（PDF；文件名 时间戳-批单-批单号.pdf；响应头 X-Content-SHA256）',
        params: endorsementParams,
        response: { 200: pdfResponse, ...adminErrors },
      },
    },
    async (req, reply) =>
      sendPdf(
        reply,
        await endorsementPdf(db(), await customerViewerOf(db(), req.user), req.params.id),
        '批单',
      ),
  );
};

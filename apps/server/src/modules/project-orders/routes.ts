import { blurryParam, dateTimeParam, pageOf } from '@piibs/shared/admin';
import {
  ANNUAL_ORDER_SORT_FIELDS,
  annualOrderCreateForm,
  annualOrderDetail,
  annualOrderRow,
  DECLARATION_SORT_FIELDS,
  DECLARATION_STATUSES,
  declarationCreateForm,
  declarationDetail,
  declarationRow,
  declarationSaveForm,
  declarationVersionForm,
} from '@piibs/shared/project-order';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { hasPermission, requirePermission } from '../../plugins/auth.ts';
import { projectViewerOf } from './access.ts';
import {
  annualOrderListSpec,
  cancelDeclaration,
  createAnnualOrder,
  createDeclaration,
  DECLARATION_EXPORT_COLUMNS,
  declarationListSpec,
  getAnnualOrder,
  getDeclaration,
  ORDER_EXPORT_COLUMNS,
  type ProjectActor,
  saveDeclaration,
  submitDeclaration,
} from './service.ts';

const orderQuery = pageQuery(ANNUAL_ORDER_SORT_FIELDS).extend({
  customerId: z.coerce.number().int().positive().optional().meta({ title: '施工企业' }),
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

const PROJECT_ORDER_PERMISSIONS = {
  list: 'project_order:list',
  add: 'project_order:add',
  apply: 'project_order:apply',
} as const;

async function actorOf(app: FastifyInstance, req: FastifyRequest): Promise<ProjectActor> {
  return { user: req.user, ip: req.ip, project: await projectViewerOf(app.deps.database.db, req.user) };
}

/**
 * Project insurance (工程项目): annual orders (年度订单) and secondary orders (二次下单). project_order:list reads
 * (contractors their own company's, agents their clients', staff by data scope; anything else 404),
 * project_order:add opens an annual order (staff), project_order:apply declares projects (the contractor's side;
 * changes by the declarer only, 403 otherwise; 409 in a state that does not allow them, on a stale version, or
 * when the quota does not hold the premium). The underwriter decides through /api/tasks (kind 'tender').
 */
export const projectOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const canList = requirePermission(app, PROJECT_ORDER_PERMISSIONS.list);
  const canAdd = requirePermission(app, PROJECT_ORDER_PERMISSIONS.add);
  const canApply = requirePermission(app, PROJECT_ORDER_PERMISSIONS.apply);

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
      getAnnualOrder(
        db(),
        await projectViewerOf(db(), req.user),
        req.params.id,
        await hasPermission(app, req.user, PROJECT_ORDER_PERMISSIONS.apply),
      ),
  );

  app.post(
    '/project-orders/:id/declarations',
    {
      preHandler: canApply,
      schema: {
        tags: ['project-orders'],
        summary: '二次下单：在年度订单下申报项目（草稿，按生效费率表计费；type 2 批改暂不支持）',
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
};

import { blurryParam, dateTimeParam, pageOf } from '@piibs/shared/admin';
import {
  CUSTOMER_SORT_FIELDS,
  customerCreateForm,
  customerResubmitForm,
  customerRow,
  customerUpdateForm,
  unmaskResult,
  usccField,
} from '@piibs/shared/customer';
import {
  CUSTOMER_HISTORY_LIMIT,
  customerHistoryQuery,
  customerHistory as customerHistorySchema,
} from '@piibs/shared/customer-history';
import {
  REVIEW_STATUS_LABELS,
  REVIEW_STATUSES,
  type ReviewStatus,
  TASK_KIND_PERMISSIONS,
} from '@piibs/shared/review';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CountCache } from '../../lib/keyset.ts';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { requireAnyPermission } from '../../lib/permissions.ts';
import { adminErrors, typedAnswer } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { hasPermission, requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from './access.ts';
import { customerHistory } from './history.ts';
import {
  type CustomerActor,
  createCustomer,
  customerListSpec,
  getCustomer,
  getOwnCustomer,
  resubmitCustomer,
  unmaskCustomer,
  updateCustomer,
} from './service.ts';

const customerQuery = pageQuery(CUSTOMER_SORT_FIELDS).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '名称、统一社会信用代码或联系人包含' }),
  uscc: usccField.optional(),
  reviewStatus: z
    .enum(REVIEW_STATUSES, { error: '请选择正确的审核状态' })
    .optional()
    .meta({ title: '审核状态' }),
  region: z.string().trim().max(12).optional().meta({ title: '所在地区' }),
  industrySection: z.string().trim().max(2).optional().meta({ title: '行业门类' }),
  ownerId: z.coerce.number().int().positive().optional().meta({ title: '归属代理人' }),
  startTime: dateTimeParam('开始时间').optional(),
  endTime: dateTimeParam('结束时间').optional(),
});

const idParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '投保人ID' }) });

/** The reviewer permission: a reviewer's creates are approved at once and their edits keep the status. */
export const CUSTOMER_REVIEW = 'customer:review';

export async function customerActorOf(app: FastifyInstance, req: FastifyRequest): Promise<CustomerActor> {
  const db = app.deps.database.db;
  const [viewer, isReviewer] = await Promise.all([
    customerViewerOf(db, req.user),
    hasPermission(app, req.user, CUSTOMER_REVIEW),
  ]);
  return { user: req.user, ip: req.ip, viewer, isReviewer };
}

/**
 * Customers (投保人): customer:list / customer:add / customer:edit / customer:unmask. Agents see only their own
 * clients, enterprise accounts only their own enterprise (GET /customers/mine finds it), staff by data scope;
 * anything else answers 404.
 */
export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const counts = new CountCache();

  app.get(
    '/customers',
    {
      preHandler: requirePermission(app, 'customer:list'),
      schema: {
        tags: ['customers'],
        summary: '投保人列表（分页；代理人只见本人客户，企业只见本企业，内部员工按数据权限；电话掩码）',
        querystring: customerQuery,
        response: { 200: pageOf(customerRow), ...adminErrors },
      },
      // The rows are typed CustomerRow (toRow).
      ...typedAnswer,
    },
    async (req) =>
      paginate(req.query, customerListSpec(db(), await customerViewerOf(db(), req.user), req.query, counts)),
  );

  app.get(
    '/customers/download',
    {
      preHandler: requirePermission(app, 'customer:list'),
      schema: {
        tags: ['customers'],
        summary: '导出投保人（与列表相同的筛选条件，xlsx；电话掩码）',
        querystring: customerQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      // The rows from the replica when it keeps up (an export tolerates seconds of staleness); who may see what
      // is decided on the primary.
      const spec = customerListSpec(app.reads.pick(), await customerViewerOf(db(), req.user), req.query);
      return sendXlsx(reply, {
        name: '投保人数据',
        columns: [
          { header: '统一社会信用代码', width: 22, value: (c) => c.uscc },
          { header: '投保人名称', width: 30, value: (c) => c.name },
          { header: '行业门类', width: 20, value: (c) => c.industrySectionName ?? c.industrySection },
          { header: '行业大类', width: 24, value: (c) => c.industryDivisionName ?? c.industryDivision },
          { header: '所在地区', value: (c) => c.regionName ?? c.region },
          { header: '详细地址', width: 36, value: (c) => c.address },
          { header: '法定代表人', width: 12, value: (c) => c.legalRepresentative },
          { header: '联系人', width: 12, value: (c) => c.contactName },
          { header: '联系电话', value: (c) => c.phone },
          { header: '单位总人数', width: 10, value: (c) => c.headcount },
          { header: '营业执照号', width: 22, value: (c) => c.licenceNo },
          { header: '归属代理人', width: 12, value: (c) => c.ownerName },
          {
            header: '审核状态',
            width: 10,
            value: (c) => REVIEW_STATUS_LABELS[c.reviewStatus as ReviewStatus],
          },
          { header: '审核意见', width: 30, value: (c) => c.reviewOpinion },
          { header: '创建时间', width: 20, value: (c) => new Date(c.createdAt) },
        ],
        rows: allRows(req.query, spec),
      });
    },
  );

  app.get(
    '/customers/mine',
    {
      preHandler: requirePermission(app, 'customer:list'),
      schema: {
        tags: ['customers'],
        summary: '本企业的投保人信息（企业账号按其统一社会信用代码；未登记或非企业账号答 404；电话掩码）',
        response: { 200: customerRow, ...adminErrors },
      },
    },
    async (req) => getOwnCustomer(db(), await customerViewerOf(db(), req.user)),
  );

  app.get(
    '/customers/:id',
    {
      preHandler: requirePermission(app, 'customer:list'),
      schema: {
        tags: ['customers'],
        summary: '投保人详情（调用者无权查看时答 404；电话掩码）',
        params: idParams,
        response: { 200: customerRow, ...adminErrors },
      },
    },
    async (req) => getCustomer(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.get(
    '/customers/:id/history',
    {
      // Reviewers read it beside what they review, whether or not they keep the customer list.
      preHandler: requireAnyPermission(app, 'customer:list', ...Object.values(TASK_KIND_PERMISSIONS)),
      schema: {
        tags: ['customers'],
        summary: `客户历史：该投保人的保单与已提交过的投保单（各最近 ${CUSTOMER_HISTORY_LIMIT} 条，新的在前，含总数；exclude 为正在审核的投保单；无权查看该投保人时答 404）`,
        params: idParams,
        querystring: customerHistoryQuery,
        response: { 200: customerHistorySchema, ...adminErrors },
      },
    },
    async (req) =>
      customerHistory(db(), await customerViewerOf(db(), req.user), req.params.id, req.query.exclude),
  );

  app.post(
    '/customers',
    {
      preHandler: requirePermission(app, 'customer:add'),
      schema: {
        tags: ['customers'],
        summary: '新增投保人（非审核人员新增的进入待审核并生成审核任务；统一社会信用代码重复答 409）',
        body: customerCreateForm,
        response: { 200: customerRow, ...adminErrors },
      },
    },
    async (req) => createCustomer(db(), await customerActorOf(app, req), req.body),
  );

  app.post(
    '/customers/update',
    {
      preHandler: requirePermission(app, 'customer:edit'),
      schema: {
        tags: ['customers'],
        summary: '修改投保人（version 过期答 409；非审核人员修改后回到待审核；回传掩码电话表示不变）',
        body: customerUpdateForm,
        response: { 200: customerRow, ...adminErrors },
      },
    },
    async (req) => updateCustomer(db(), await customerActorOf(app, req), req.body),
  );

  app.post(
    '/customers/:id/resubmit',
    {
      preHandler: requirePermission(app, 'customer:edit'),
      schema: {
        tags: ['customers'],
        summary: '已退回的投保人重新提交审核',
        params: idParams,
        body: customerResubmitForm,
        response: { 200: customerRow, ...adminErrors },
      },
    },
    async (req) => resubmitCustomer(db(), await customerActorOf(app, req), req.params.id, req.body),
  );

  app.post(
    '/customers/:id/unmask',
    {
      preHandler: requirePermission(app, 'customer:unmask'),
      schema: {
        tags: ['customers'],
        summary: '查看完整联系电话（写入操作日志）',
        params: idParams,
        response: { 200: unmaskResult, ...adminErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return unmaskCustomer(db(), await customerActorOf(app, req), req.params.id);
    },
  );
};

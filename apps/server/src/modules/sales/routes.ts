import { blurryParam, dateTimeParam, pageOf } from '@piibs/shared/admin';
import {
  policySales,
  renewalInfo,
  renewalResult,
  SALES_SORT_FIELDS,
  SUPPLEMENT_STATUSES,
  SUPPLEMENT_VARIANTS,
  salespersonChangeForm,
  salesRow,
  supplementForm,
} from '@piibs/shared/sales';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CountCache } from '../../lib/keyset.ts';
import { pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { renewalInfoOf, renewPolicy } from './renewal.ts';
import {
  changeSalesperson,
  getPolicySales,
  type SalesActor,
  salesListSpec,
  saveSupplement,
} from './service.ts';

const listQuery = pageQuery(SALES_SORT_FIELDS).extend({
  status: z
    .enum(SUPPLEMENT_STATUSES, { error: '请选择 NONE（未补录）或 DONE（已补录）' })
    .optional()
    .meta({ title: '补录状态' }),
  variant: z
    .enum(SUPPLEMENT_VARIANTS, { error: '请选择正确的补录类型' })
    .optional()
    .meta({ title: '补录类型' }),
  productId: z.coerce.number().int().positive().optional().meta({ title: '险种' }),
  businessSource: z.string().trim().max(32).optional().meta({ title: '业务来源' }),
  blurry: blurryParam.meta({
    title: '关键词',
    description: '保单号、投保人名称、统一社会信用代码、被保险人、销售人员姓名或工号包含',
  }),
  startTime: dateTimeParam('出单开始时间').optional(),
  endTime: dateTimeParam('出单结束时间').optional(),
});
const idParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '保单ID' }) });

async function actorOf(app: FastifyInstance, req: FastifyRequest): Promise<SalesActor> {
  return { user: req.user, ip: req.ip, viewer: await customerViewerOf(app.deps.database.db, req.user) };
}

/**
 * Sales supplements (补录, policy/marge*): sales:list to read, sales:edit to save and to change the salesperson.
 * Renewals (续保): application:add. Policies follow their application's visibility: anything else answers 404.
 */
export const salesRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const canList = requirePermission(app, 'sales:list');
  const canEdit = requirePermission(app, 'sales:edit');
  const canRenew = requirePermission(app, 'application:add');
  const canRead = requirePermission(app, 'application:list');
  /** The sales list's counts, per filter and data scope, until a policy or a supplement changes. */
  const counts = new CountCache();

  app.get(
    '/sales',
    {
      preHandler: canList,
      schema: {
        tags: ['sales'],
        summary: '补录列表：可见的保单及其补录状态（未补录/已补录；分页；工资专户账号脱敏）',
        querystring: listQuery,
        response: { 200: pageOf(salesRow), ...adminErrors },
      },
    },
    async (req) =>
      paginate(req.query, salesListSpec(db(), await customerViewerOf(db(), req.user), req.query, counts)),
  );

  app.get(
    '/policies/:id/sales',
    {
      preHandler: canList,
      schema: {
        tags: ['sales'],
        summary: '保单的补录信息：保单摘要、补录（未补录为 null）、默认值、销售人员变更历史',
        params: idParams,
        response: { 200: policySales, ...adminErrors },
      },
    },
    async (req) => getPolicySales(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.put(
    '/policies/:id/sales',
    {
      preHandler: canEdit,
      schema: {
        tags: ['sales'],
        summary: '保存补录（version 为 null 新建，否则为读取到的版本号；过期答 409；手续费不超过险种上限）',
        params: idParams,
        body: supplementForm,
        response: { 200: policySales, ...adminErrors },
      },
    },
    async (req) => saveSupplement(db(), await actorOf(app, req), req.params.id, req.body),
  );

  app.post(
    '/policies/:id/sales/salesperson',
    {
      preHandler: canEdit,
      schema: {
        tags: ['sales'],
        summary: '修改销售人员（updateSale）：须填原因，保留变更历史；未补录或版本过期答 409',
        params: idParams,
        body: salespersonChangeForm,
        response: { 200: policySales, ...adminErrors },
      },
    },
    async (req) => changeSalesperson(db(), await actorOf(app, req), req.params.id, req.body),
  );

  app.get(
    '/policies/:id/renewal',
    {
      preHandler: canRead,
      schema: {
        tags: ['renewals'],
        summary: '续保信息：续保窗口（到期前 90 天至到期日）、当前能否续保、已有的续保投保单',
        params: idParams,
        response: { 200: renewalInfo, ...adminErrors },
      },
    },
    async (req) => renewalInfoOf(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.post(
    '/policies/:id/renew',
    {
      preHandler: canRenew,
      schema: {
        tags: ['renewals'],
        summary:
          '续保：按原投保单生成新的草稿（次日起一年，按当前生效费率表重新报价）；已有续保答 409（含其 ID），窗口外答 409',
        params: idParams,
        response: { 200: renewalResult, ...adminErrors },
      },
    },
    async (req) => renewPolicy(db(), await actorOf(app, req), req.params.id),
  );
};

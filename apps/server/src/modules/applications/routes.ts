import { blurryParam, dateTimeParam, keysetPageOf } from '@piibs/shared/admin';
import {
  APPLICATION_SORT_FIELDS,
  applicationCreateForm,
  applicationDetail,
  applicationDraftForm,
  applicationEventRow,
  applicationRow,
  coinsurersForm,
  versionForm,
} from '@piibs/shared/application';
import { APPLICATION_STATUSES, CHANNELS } from '@piibs/shared/application-status';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IDEMPOTENT_NOTE, idempotent, idempotentErrors } from '../../lib/idempotency.ts';
import { CountCache, cursorParams } from '../../lib/keyset.ts';
import { AnchorCache } from '../../lib/page-anchors.ts';
import { allRows, pageQuery } from '../../lib/paging.ts';
import { adminErrors, typedAnswer } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { businessContext } from '../payments/context.ts';
import { closeCancelledCharges } from '../payments/service.ts';
import type { ApplicationActor } from './changes.ts';
import { createApplication, replaceCoinsurers, saveDraft } from './drafts.ts';
import {
  applicationEventsOf,
  applicationListSpec,
  EXPORT_COLUMNS,
  getApplication,
  listApplications,
} from './queries.ts';
import { cancelApplication, submitApplication } from './transitions.ts';

const listQuery = pageQuery(APPLICATION_SORT_FIELDS).extend({
  status: z
    .enum(APPLICATION_STATUSES, { error: '请选择正确的投保单状态' })
    .optional()
    .meta({ title: '状态' }),
  productId: z.coerce.number().int().positive().optional().meta({ title: '险种' }),
  customerId: z.coerce.number().int().positive().optional().meta({ title: '投保人' }),
  channel: z.enum(CHANNELS, { error: '请选择正确的渠道' }).optional().meta({ title: '渠道' }),
  blurry: blurryParam.meta({
    title: '关键词',
    description: '投保单号、投保人名称、统一社会信用代码或被保险人包含',
  }),
  startTime: dateTimeParam('开始时间').optional(),
  endTime: dateTimeParam('结束时间').optional(),
  ...cursorParams,
});

const idParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '投保单ID' }) });
const withProblem = applicationDetail.extend({
  /** Why the draft has no quote yet (an input missing or out of range), or null. */
  quoteProblem: z.string().nullable(),
});

async function actorOf(app: FastifyInstance, req: FastifyRequest): Promise<ApplicationActor> {
  return { user: req.user, ip: req.ip, viewer: await customerViewerOf(app.deps.database.db, req.user) };
}

/**
 * Applications (投保单): application:list / add / edit. Enterprises see their own enterprise's, agents their own
 * and their clients', contractors their own, staff by data scope; anything else answers 404. Changes are for
 * the owner (or its agent): 403 otherwise; 409 in a state that does not allow them or on a stale version.
 * The underwriter decides through /api/tasks (kind 'application').
 */
export const applicationRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const canList = requirePermission(app, 'application:list');
  const canAdd = requirePermission(app, 'application:add');
  const canEdit = requirePermission(app, 'application:edit');
  /** insureList's counts, per filter and data scope, until an application changes. */
  const counts = new CountCache();
  /** insureList's page anchors (a far page by number), per filter and data scope, at one data version. */
  const anchors = new AnchorCache();

  app.get(
    '/applications',
    {
      preHandler: canList,
      schema: {
        tags: ['applications'],
        summary: '投保单列表 insureList（分页；每行含按状态可执行的操作 actions：continue/view/cancel/pay）',
        description:
          '按 id、number、createdAt、updatedAt 排序（或不排序）时也可按游标翻页：after=上一页答复的 cursors.after 取下一页，' +
          'before=cursors.before 取上一页，page 仍为页码；深页不因页码变慢（按页码跳页从缓存的分页锚点起读，数据变化即重建）。总数按筛选条件缓存，投保单变化即失效。',
        querystring: listQuery,
        response: { 200: keysetPageOf(applicationRow), ...adminErrors },
      },
      // The rows are typed ApplicationRow (toRow).
      ...typedAnswer,
    },
    async (req) => listApplications(db(), await customerViewerOf(db(), req.user), req.query, counts, anchors),
  );

  app.get(
    '/applications/download',
    {
      preHandler: canList,
      schema: {
        tags: ['applications'],
        summary: '导出投保单（xlsx，筛选条件同列表）',
        querystring: listQuery.omit({ page: true, size: true, after: true, before: true }),
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      // The rows from the replica when it keeps up; who may see what is decided on the primary.
      const spec = applicationListSpec(app.reads.pick(), await customerViewerOf(db(), req.user), req.query);
      return sendXlsx(reply, { name: '投保单', columns: EXPORT_COLUMNS, rows: allRows(req.query, spec) });
    },
  );

  app.get(
    '/applications/:id',
    {
      preHandler: canList,
      schema: {
        tags: ['applications'],
        summary: '投保单详情（报价明细、共保信息、投保人、支付单）',
        params: idParams,
        response: { 200: applicationDetail, ...adminErrors },
      },
    },
    async (req) => getApplication(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.get(
    '/applications/:id/events',
    {
      preHandler: canList,
      schema: {
        tags: ['applications'],
        summary: '投保单历史（状态流转时间线：操作人、意见）',
        params: idParams,
        response: { 200: z.array(applicationEventRow), ...adminErrors },
      },
    },
    async (req) => applicationEventsOf(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.post(
    '/applications',
    {
      preHandler: canAdd,
      schema: {
        tags: ['applications'],
        summary: `新建投保单草稿（险种 + 已审核通过的投保人）${IDEMPOTENT_NOTE}`,
        body: applicationCreateForm,
        response: { 200: withProblem, ...idempotentErrors },
      },
    },
    async (req, reply) => {
      const actor = await actorOf(app, req);
      return idempotent(app, req, reply, (db) => createApplication(db, actor, req.body));
    },
  );

  app.post(
    '/applications/:id/draft',
    {
      preHandler: canEdit,
      schema: {
        tags: ['applications'],
        summary: '保存向导步骤（部分字段；草稿或已退回；version 过期答 409；评级要素变化时重新报价）',
        params: idParams,
        body: applicationDraftForm,
        response: { 200: withProblem, ...adminErrors },
      },
    },
    async (req) => saveDraft(db(), await actorOf(app, req), req.params.id, req.body),
  );

  app.post(
    '/applications/:id/coinsurers',
    {
      preHandler: canEdit,
      schema: {
        tags: ['applications'],
        summary: '替换共保/联保信息（一家主承保，份额合计 100%；保费与事故预防费按份额拆分到分）',
        params: idParams,
        body: coinsurersForm,
        response: { 200: applicationDetail, ...adminErrors },
      },
    },
    async (req) => replaceCoinsurers(db(), await actorOf(app, req), req.params.id, req.body),
  );

  app.post(
    '/applications/:id/submit',
    {
      preHandler: canEdit,
      schema: {
        tags: ['applications'],
        summary: `提交审核（按生效费率表重新计费并保存报价快照，生成审核任务）${IDEMPOTENT_NOTE}`,
        params: idParams,
        body: versionForm,
        response: { 200: applicationDetail, ...idempotentErrors },
      },
    },
    async (req, reply) => {
      const actor = await actorOf(app, req);
      return idempotent(app, req, reply, (db) =>
        submitApplication(db, actor, req.params.id, req.body.version),
      );
    },
  );

  app.post(
    '/applications/:id/cancel',
    {
      preHandler: canEdit,
      schema: {
        tags: ['applications'],
        summary: '撤销投保单（草稿、已退回、待支付；仅创建人）',
        params: idParams,
        body: versionForm,
        response: { 200: applicationDetail, ...adminErrors },
      },
    },
    async (req) => {
      const cancelled = await cancelApplication(
        db(),
        await actorOf(app, req),
        req.params.id,
        req.body.version,
      );
      await closeCancelledCharges(businessContext(app), cancelled.id);
      return cancelled;
    },
  );
};

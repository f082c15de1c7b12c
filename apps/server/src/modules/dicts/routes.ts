import {
  blurryParam,
  DICT_NAME,
  dictCreateForm,
  dictDetailCreateForm,
  dictDetailRow,
  dictDetailUpdateForm,
  dictOptions,
  dictRow,
  dictUpdateForm,
  idsBody,
  pageOf,
  SORT_FIELDS,
} from '@piibs/shared/admin';
import { DICT_PAGE_SIZE } from '@piibs/shared/constants';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit.ts';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { dictLabelsChanged } from './labels.ts';
import {
  createDetail,
  createDict,
  deleteDetail,
  deleteDicts,
  detailListSpec,
  dictExportSpec,
  dictListSpec,
  optionsByName,
  updateDetail,
  updateDict,
} from './service.ts';

const dictQuery = pageQuery(SORT_FIELDS.dicts).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '名称或描述包含' }),
});

const detailQuery = pageQuery(SORT_FIELDS.dictDetails, { maxSize: DICT_PAGE_SIZE }).extend({
  dictName: z.string().trim().max(64).optional().meta({ title: '字典名称' }),
  dictId: z.coerce.number().int().positive().optional().meta({ title: '字典ID' }),
  label: z.string().trim().max(100).optional().meta({ title: '字典标签' }),
});

/**
 * Dictionaries (system/Dicts). Reading entries (GET /api/dictDetail, GET /api/dict/all) is open to every
 * signed-in user — every page fills its selects from them; the administration needs dict:list / dict:add /
 * dict:edit / dict:del.
 */
export const dictRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  // After a write has answered (its transaction is over), list pages read the labels again (./labels.ts).
  app.addHook('onResponse', async (req) => {
    if (req.method !== 'GET') dictLabelsChanged(db());
  });

  // ---- entries (paths exact per spec §7) ----

  app.get(
    '/dictDetail',
    {
      schema: {
        tags: ['dicts'],
        summary: '字典详情（按字典名称，如 ?dictName=id_type&page=0&size=9999；任何已登录用户可读）',
        querystring: detailQuery,
        response: { 200: pageOf(dictDetailRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, detailListSpec(db(), req.query)),
  );

  app.post(
    '/dictDetail',
    {
      preHandler: requirePermission(app, 'dict:add'),
      schema: {
        tags: ['dicts'],
        summary: '新增字典详情',
        body: dictDetailCreateForm,
        response: { 200: dictDetailRow, ...adminErrors },
      },
    },
    async (req) => createDetail(db(), actorOf(req), req.body),
  );

  app.post(
    '/dictDetail/update',
    {
      preHandler: requirePermission(app, 'dict:edit'),
      schema: {
        tags: ['dicts'],
        summary: '修改字典详情',
        body: dictDetailUpdateForm,
        response: { 200: dictDetailRow, ...adminErrors },
      },
    },
    async (req) => updateDetail(db(), actorOf(req), req.body),
  );

  app.post(
    '/dictDetail/delete/:id',
    {
      preHandler: requirePermission(app, 'dict:del'),
      schema: {
        tags: ['dicts'],
        summary: '删除字典详情',
        params: z.object({ id: z.coerce.number().int().positive().meta({ title: '字典详情ID' }) }),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteDetail(db(), actorOf(req), req.params.id),
  );

  // ---- dictionaries ----

  app.get(
    '/dict/all',
    {
      schema: {
        tags: ['dicts'],
        summary: '按名称取多个字典：?names=id_type,coinsurer → { id_type: [{ label, value }], … }',
        querystring: z.object({
          names: z
            .string()
            .trim()
            .min(1, { error: '不能为空' })
            .max(2000)
            .transform((v) => [
              ...new Set(
                v
                  .split(',')
                  .map((n) => n.trim())
                  .filter(Boolean),
              ),
            ])
            .refine((list) => list.length <= 50, { error: '一次最多 50 个字典' })
            .refine((list) => list.every((n) => DICT_NAME.test(n)), { error: '字典名称不正确' })
            .meta({ title: '字典名称' }),
        }),
        response: { 200: dictOptions, ...adminErrors },
      },
    },
    async (req) => optionsByName(db(), req.query.names),
  );

  app.get(
    '/dict',
    {
      preHandler: requirePermission(app, 'dict:list'),
      schema: {
        tags: ['dicts'],
        summary: '字典列表（分页）',
        querystring: dictQuery,
        response: { 200: pageOf(dictRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, dictListSpec(db(), req.query)),
  );

  app.get(
    '/dict/download',
    {
      preHandler: requirePermission(app, 'dict:list'),
      schema: {
        tags: ['dicts'],
        summary: '导出字典及其详情（与列表相同的筛选条件，xlsx）',
        querystring: dictQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) =>
      sendXlsx(reply, {
        name: '字典数据',
        columns: [
          { header: '字典名称', width: 20, value: (d) => d.name },
          { header: '字典描述', width: 28, value: (d) => d.description },
          { header: '字典标签', width: 28, value: (d) => d.label },
          { header: '字典值', width: 20, value: (d) => d.value },
          { header: '排序', width: 8, value: (d) => d.sort },
          { header: '创建时间', width: 20, value: (d) => d.createdAt },
        ],
        rows: allRows(req.query, dictExportSpec(db(), req.query)),
      }),
  );

  app.post(
    '/dict',
    {
      preHandler: requirePermission(app, 'dict:add'),
      schema: {
        tags: ['dicts'],
        summary: '新增字典',
        body: dictCreateForm,
        response: { 200: dictRow, ...adminErrors },
      },
    },
    async (req) => createDict(db(), actorOf(req), req.body),
  );

  app.post(
    '/dict/update',
    {
      preHandler: requirePermission(app, 'dict:edit'),
      schema: {
        tags: ['dicts'],
        summary: '修改字典（带 version 时过期答 409）',
        body: dictUpdateForm,
        response: { 200: dictRow, ...adminErrors },
      },
    },
    async (req) => updateDict(db(), actorOf(req), req.body),
  );

  app.post(
    '/dict/delete',
    {
      preHandler: requirePermission(app, 'dict:del'),
      schema: {
        tags: ['dicts'],
        summary: '删除字典（连同其详情）',
        body: idsBody('字典ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteDicts(db(), actorOf(req), req.body),
  );
};

import { boolParam, deptCreateForm, deptNode, deptUpdateForm, idsBody, pageOf } from '@piibs/shared/admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit.ts';
import { dataScopeOf } from '../../lib/data-scope.ts';
import { requireAnyPermission } from '../../lib/permissions.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { buildTree, createDept, deleteDepts, deptRows, updateDept } from './service.ts';

const deptQuery = z.object({
  name: z.string().trim().max(50).optional().meta({ title: '部门名称' }),
  enabled: boolParam('状态').optional(),
});

const deptOut = z.object({
  id: z.number(),
  parentId: z.number().nullable(),
  name: z.string(),
  sort: z.number(),
  enabled: z.boolean(),
  version: z.number(),
  createdAt: z.string(),
  userCount: z.number(),
});

/** Department administration (system/Depts): permissions dept:list / dept:add / dept:edit / dept:del. */
export const deptRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/depts',
    {
      // The user and role pages need the tree too (department filter, custom data scope).
      preHandler: requireAnyPermission(app, 'dept:list', 'user:list', 'role:list'),
      schema: {
        tags: ['depts'],
        summary: '部门树（按数据权限；带筛选时匹配的部门按层级组成树，上级不匹配的成为根）',
        querystring: deptQuery,
        response: { 200: pageOf(deptNode), ...adminErrors },
      },
    },
    async (req) => {
      const rows = await deptRows(db(), await dataScopeOf(db(), req.user), req.query);
      return { content: buildTree(rows), totalElements: rows.length };
    },
  );

  app.get(
    '/depts/download',
    {
      preHandler: requirePermission(app, 'dept:list'),
      schema: {
        tags: ['depts'],
        summary: '导出部门（与列表相同的筛选条件，xlsx）',
        querystring: deptQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      const rows = await deptRows(db(), await dataScopeOf(db(), req.user), req.query);
      const names = new Map(rows.map((r) => [r.id, r.name]));
      return sendXlsx(reply, {
        name: '部门数据',
        columns: [
          { header: '部门名称', width: 24, value: (d) => d.name },
          {
            header: '上级部门',
            width: 24,
            value: (d) => (d.parentId == null ? null : names.get(d.parentId)),
          },
          { header: '排序', width: 8, value: (d) => d.sort },
          { header: '状态', width: 8, value: (d) => (d.enabled ? '启用' : '停用') },
          { header: '用户数', width: 8, value: (d) => d.userCount },
          { header: '创建时间', width: 20, value: (d) => new Date(d.createdAt) },
        ],
        rows: (async function* () {
          yield rows;
        })(),
      });
    },
  );

  app.post(
    '/depts',
    {
      preHandler: requirePermission(app, 'dept:add'),
      schema: {
        tags: ['depts'],
        summary: '新增部门',
        body: deptCreateForm,
        response: { 200: deptOut, ...adminErrors },
      },
    },
    async (req) => createDept(db(), actorOf(req), req.body),
  );

  app.post(
    '/depts/update',
    {
      preHandler: requirePermission(app, 'dept:edit'),
      schema: {
        tags: ['depts'],
        summary: '修改部门（带 version 时过期答 409）',
        body: deptUpdateForm,
        response: { 200: deptOut, ...adminErrors },
      },
    },
    async (req) => updateDept(db(), actorOf(req), req.body),
  );

  app.post(
    '/depts/delete',
    {
      preHandler: requirePermission(app, 'dept:del'),
      schema: {
        tags: ['depts'],
        summary: '删除部门（部门下还有用户或下级部门时拒绝）',
        body: idsBody('部门ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteDepts(db(), actorOf(req), req.body),
  );
};

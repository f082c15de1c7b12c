import {
  blurryParam,
  DATA_SCOPE_LABELS,
  type DataScopeName,
  dateTimeParam,
  idsBody,
  pageOf,
  roleBrief,
  roleCreateForm,
  roleDetail,
  roleMenuForm,
  roleRow,
  roleUpdateForm,
  SORT_FIELDS,
} from '@piibs/shared/admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../lib/caller.ts';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { callerLevel, requireAnyPermission } from '../../lib/permissions.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import {
  allRoles,
  createRole,
  deleteRoles,
  grantMenus,
  roleDetail as loadRoleDetail,
  roleListSpec,
  updateRole,
} from './service.ts';

const roleQuery = pageQuery(SORT_FIELDS.roles).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '名称、编码或描述包含' }),
  startTime: dateTimeParam('开始时间').optional(),
  endTime: dateTimeParam('结束时间').optional(),
});

/** Role administration (system/Roles): permissions role:list / role:add / role:edit / role:del. */
export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/roles',
    {
      preHandler: requirePermission(app, 'role:list'),
      schema: {
        tags: ['roles'],
        summary: '角色列表（分页）',
        querystring: roleQuery,
        response: { 200: pageOf(roleRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, roleListSpec(db(), req.query)),
  );

  app.get(
    '/roles/all',
    {
      preHandler: requireAnyPermission(app, 'role:list', 'user:list', 'user:add', 'user:edit'),
      schema: {
        tags: ['roles'],
        summary: '全部角色（下拉选择用）',
        response: { 200: z.array(roleBrief), ...adminErrors },
      },
    },
    async () => allRoles(db()),
  );

  app.get(
    '/roles/level',
    {
      schema: {
        tags: ['roles'],
        summary: '当前用户的角色级别（最小值；1 最高），只能授予/操作不高于此级别的角色',
        response: { 200: z.object({ level: z.number() }), ...adminErrors },
      },
    },
    async (req) => ({ level: await callerLevel(db(), req.user) }),
  );

  app.get(
    '/roles/download',
    {
      preHandler: requirePermission(app, 'role:list'),
      schema: {
        tags: ['roles'],
        summary: '导出角色（与列表相同的筛选条件，xlsx）',
        querystring: roleQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) =>
      sendXlsx(reply, {
        name: '角色数据',
        columns: [
          { header: '角色名称', value: (r) => r.name },
          { header: '角色编码', value: (r) => r.code },
          { header: '角色级别', width: 10, value: (r) => r.level },
          {
            header: '数据权限',
            value: (r) => DATA_SCOPE_LABELS[r.dataScope as DataScopeName] ?? r.dataScope,
          },
          { header: '描述', width: 30, value: (r) => r.description },
          { header: '创建时间', width: 20, value: (r) => new Date(r.createdAt) },
        ],
        rows: allRows(req.query, roleListSpec(db(), req.query)),
      }),
  );

  app.get(
    '/roles/:id',
    {
      preHandler: requirePermission(app, 'role:list'),
      schema: {
        tags: ['roles'],
        summary: '角色详情：含已授权的菜单/按钮（menuIds）与自定义数据权限部门（deptIds）',
        params: z.object({ id: z.coerce.number().int().positive().meta({ title: '角色ID' }) }),
        response: { 200: roleDetail, ...adminErrors },
      },
    },
    async (req) => loadRoleDetail(db(), req.params.id),
  );

  app.post(
    '/roles',
    {
      preHandler: requirePermission(app, 'role:add'),
      schema: {
        tags: ['roles'],
        summary: '新增角色（级别不能高于自己的角色级别）',
        body: roleCreateForm,
        response: { 200: roleRow, ...adminErrors },
      },
    },
    async (req) => createRole(db(), await callerOf(db(), req), req.body),
  );

  app.post(
    '/roles/update',
    {
      preHandler: requirePermission(app, 'role:edit'),
      schema: {
        tags: ['roles'],
        summary: '修改角色（version 过期时 409）',
        body: roleUpdateForm,
        response: { 200: roleRow, ...adminErrors },
      },
    },
    async (req) => updateRole(db(), await callerOf(db(), req), req.body),
  );

  app.post(
    '/roles/menu',
    {
      preHandler: requirePermission(app, 'role:edit'),
      schema: {
        tags: ['roles'],
        summary: '为角色授权菜单与按钮（整体替换；用户下次加载菜单即生效）',
        body: roleMenuForm,
        response: { 200: z.object({ id: z.number(), menuIds: z.array(z.number()) }), ...adminErrors },
      },
    },
    async (req) => grantMenus(db(), await callerOf(db(), req), req.body.id, req.body.menuIds),
  );

  app.post(
    '/roles/delete',
    {
      preHandler: requirePermission(app, 'role:del'),
      schema: {
        tags: ['roles'],
        summary: '删除角色（已分配给用户的角色与内置角色不能删除）',
        body: idsBody('角色ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteRoles(db(), await callerOf(db(), req), req.body),
  );
};

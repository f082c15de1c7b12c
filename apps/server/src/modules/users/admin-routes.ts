import { CHANNELS } from '@piibs/shared';
import {
  blurryParam,
  boolParam,
  dateTimeParam,
  idsBody,
  oneTimePasswordResult,
  pageOf,
  SORT_FIELDS,
  userCreateForm,
  userEnableForm,
  userRow,
  userUpdateForm,
} from '@piibs/shared/admin';
import { USER_CHANNEL_LABELS } from '@piibs/shared/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { callerOf } from '../../lib/caller.ts';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import {
  createUser,
  deleteUsers,
  enableUser,
  resetPassword,
  updateUser,
  userListSpec,
} from './admin-service.ts';

const userQuery = pageQuery(SORT_FIELDS.users).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '用户名、昵称、手机号或邮箱包含' }),
  deptId: z.coerce.number().int().positive().optional().meta({ title: '部门', description: '含下级部门' }),
  enabled: boolParam('状态').optional(),
  channel: z.enum(CHANNELS).optional().meta({ title: '渠道' }),
  startTime: dateTimeParam('开始时间').optional(),
  endTime: dateTimeParam('结束时间').optional(),
});

/** User administration (system/Users): permissions user:list / user:add / user:edit / user:del. */
export const userAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/users',
    {
      preHandler: requirePermission(app, 'user:list'),
      schema: {
        tags: ['users'],
        summary: '用户列表（分页；按数据权限过滤；手机号掩码）',
        querystring: userQuery,
        response: { 200: pageOf(userRow), ...adminErrors },
      },
    },
    async (req) => {
      const caller = await callerOf(db(), req);
      return paginate(req.query, await userListSpec(db(), caller.scope, req.query));
    },
  );

  app.get(
    '/users/download',
    {
      preHandler: requirePermission(app, 'user:list'),
      schema: {
        tags: ['users'],
        summary: '导出用户（与列表相同的筛选条件，xlsx）',
        querystring: userQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      const caller = await callerOf(db(), req);
      const spec = await userListSpec(db(), caller.scope, req.query);
      return sendXlsx(reply, {
        name: '用户数据',
        columns: [
          { header: '用户名', value: (u) => u.username },
          { header: '昵称', value: (u) => u.nickName },
          { header: '手机号', value: (u) => u.phone },
          { header: '邮箱', width: 24, value: (u) => u.email },
          { header: '性别', width: 8, value: (u) => u.gender },
          { header: '部门', width: 20, value: (u) => u.dept?.name },
          { header: '角色', width: 20, value: (u) => u.roles.map((r) => r.name).join('、') },
          { header: '岗位', width: 20, value: (u) => u.jobs.map((j) => j.name).join('、') },
          {
            header: '渠道',
            value: (u) => (USER_CHANNEL_LABELS as Record<string, string>)[u.channel] ?? u.channel,
          },
          { header: '状态', width: 8, value: (u) => (u.enabled ? '启用' : '停用') },
          { header: '创建时间', width: 20, value: (u) => new Date(u.createdAt) },
        ],
        rows: allRows(req.query, spec),
      });
    },
  );

  app.post(
    '/users',
    {
      preHandler: requirePermission(app, 'user:add'),
      schema: {
        tags: ['users'],
        summary: '新增用户：生成一次性初始密码，只在本次应答中返回；首次登录须修改密码',
        body: userCreateForm,
        response: { 200: oneTimePasswordResult, ...adminErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return createUser(db(), await callerOf(db(), req), req.body);
    },
  );

  app.post(
    '/users/update',
    {
      preHandler: requirePermission(app, 'user:edit'),
      schema: {
        tags: ['users'],
        summary: '修改用户（version 过期时 409；回传掩码手机号表示不变）',
        body: userUpdateForm,
        response: { 200: userRow, ...adminErrors },
      },
    },
    async (req) => updateUser(db(), await callerOf(db(), req), req.body),
  );

  app.post(
    '/users/enable',
    {
      preHandler: requirePermission(app, 'user:edit'),
      schema: {
        tags: ['users'],
        summary: '启用/停用用户（停用立即吊销其全部会话）',
        body: userEnableForm,
        response: { 200: userRow, ...adminErrors },
      },
    },
    async (req) => enableUser(db(), await callerOf(db(), req), req.body.id, req.body.enabled),
  );

  app.post(
    '/users/resetPass',
    {
      preHandler: requirePermission(app, 'user:edit'),
      schema: {
        tags: ['users'],
        summary: '重置密码：生成一次性密码（只返回一次），下次登录须修改，并吊销其全部会话',
        body: z.object({ id: z.number().int().positive().meta({ title: '用户ID' }) }),
        response: { 200: oneTimePasswordResult, ...adminErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return resetPassword(db(), await callerOf(db(), req), req.body.id);
    },
  );

  app.post(
    '/users/delete',
    {
      preHandler: requirePermission(app, 'user:del'),
      schema: {
        tags: ['users'],
        summary: '删除用户（不能删除自己或最后一个系统管理员）',
        body: idsBody('用户ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteUsers(db(), await callerOf(db(), req), req.body),
  );
};

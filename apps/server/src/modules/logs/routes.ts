import {
  auditLogRow,
  blurryParam,
  boolParam,
  dateTimeParam,
  loginLogRow,
  pageOf,
  SORT_FIELDS,
} from '@piibs/shared/admin';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ENTITY_LABELS,
  LOGIN_METHOD_LABELS,
  LOGIN_REASON_LABELS,
} from '@piibs/shared/audit-text';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { auditListSpec, loginListSpec } from './service.ts';

const logQuery = pageQuery(SORT_FIELDS.logs).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '操作人、操作、对象、对象ID或 IP 包含' }),
  actor: z.string().trim().max(64).optional().meta({ title: '操作人' }),
  action: z.string().trim().max(64).optional().meta({ title: '操作' }),
  entity: z.string().trim().max(64).optional().meta({ title: '操作对象' }),
  entityId: z.string().trim().max(64).optional().meta({ title: '对象ID' }),
  number: z.string().trim().max(100).optional().meta({
    title: '业务编号',
    description:
      '投保单号、保单号、支付单号、二次下单号、年度订单号、批单号、服务单号，或投保人名称、统一社会信用代码：该记录的操作日志（含其影像资料、审核任务及引用它的支付与出单）',
  }),
  startTime: dateTimeParam('开始时间').optional(),
  endTime: dateTimeParam('结束时间').optional(),
});

const loginQuery = pageQuery(SORT_FIELDS.loginLogs).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '用户名、IP 或浏览器包含' }),
  username: z.string().trim().max(64).optional().meta({ title: '用户名' }),
  success: boolParam('是否成功').optional(),
  method: z.enum(['password', 'ca', 'handoff']).optional().meta({ title: '登录方式' }),
  startTime: dateTimeParam('开始时间').optional(),
  endTime: dateTimeParam('结束时间').optional(),
});

/** Logs (system/Logs, system/LoginLogs): read-only, permission log:list. There is no update or delete. */
export const logRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const list = requirePermission(app, 'log:list');

  app.get(
    '/logs',
    {
      preHandler: list,
      schema: {
        tags: ['logs'],
        summary: '操作日志（审计记录，只能追加；含变更前后的值，手机号掩码，不含密码）',
        querystring: logQuery,
        response: { 200: pageOf(auditLogRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, auditListSpec(db(), req.query)),
  );

  app.get(
    '/logs/download',
    {
      preHandler: list,
      schema: {
        tags: ['logs'],
        summary: '导出操作日志（与列表相同的筛选条件，xlsx，至多 10 万行）',
        querystring: logQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) =>
      sendXlsx(reply, {
        name: '操作日志',
        columns: [
          { header: '时间', width: 20, value: (r) => new Date(r.createdAt) },
          { header: '操作人', value: (r) => r.actorName },
          { header: '操作', value: (r) => AUDIT_ACTION_LABELS[r.action] ?? r.action },
          { header: '操作对象', value: (r) => AUDIT_ENTITY_LABELS[r.entity] ?? r.entity },
          { header: '业务编号/名称', width: 24, value: (r) => r.record },
          { header: 'IP', value: (r) => r.ip },
          { header: '详情', width: 60, value: (r) => r.lines.join('\n') || null },
        ],
        rows: allRows(req.query, auditListSpec(app.reads.pick(), req.query)),
      }),
  );

  app.get(
    '/logs/login',
    {
      preHandler: list,
      schema: {
        tags: ['logs'],
        summary: '登录日志（成功与失败的登录尝试）',
        querystring: loginQuery,
        response: { 200: pageOf(loginLogRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, loginListSpec(db(), req.query)),
  );

  app.get(
    '/logs/login/download',
    {
      preHandler: list,
      schema: {
        tags: ['logs'],
        summary: '导出登录日志（与列表相同的筛选条件，xlsx，至多 10 万行）',
        querystring: loginQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) =>
      sendXlsx(reply, {
        name: '登录日志',
        columns: [
          { header: '时间', width: 20, value: (r) => new Date(r.createdAt) },
          { header: '用户名', value: (r) => r.username },
          { header: '登录方式', width: 10, value: (r) => LOGIN_METHOD_LABELS[r.method] ?? r.method },
          { header: '结果', width: 8, value: (r) => (r.success ? '成功' : '失败') },
          { header: '原因', value: (r) => (r.reason ? (LOGIN_REASON_LABELS[r.reason] ?? r.reason) : null) },
          { header: 'IP', value: (r) => r.ip },
          { header: '浏览器', width: 28, value: (r) => r.browser },
        ],
        rows: allRows(req.query, loginListSpec(app.reads.pick(), req.query)),
      }),
  );
};

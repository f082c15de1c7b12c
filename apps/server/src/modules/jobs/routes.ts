import {
  boolParam,
  dateTimeParam,
  idsBody,
  jobCreateForm,
  jobRow,
  jobUpdateForm,
  pageOf,
  SORT_FIELDS,
} from '@piibs/shared/admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit.ts';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { requireAnyPermission } from '../../lib/permissions.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { createJob, deleteJobs, jobListSpec, updateJob } from './service.ts';

const jobQuery = pageQuery(SORT_FIELDS.jobs).extend({
  name: z.string().trim().max(50).optional().meta({ title: '岗位名称' }),
  enabled: boolParam('状态').optional(),
  startTime: dateTimeParam('开始时间').optional(),
  endTime: dateTimeParam('结束时间').optional(),
});

/** Job administration (system/Jobs): permissions job:list / job:add / job:edit / job:del. */
export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/jobs',
    {
      // The user form picks jobs from this list too.
      preHandler: requireAnyPermission(app, 'job:list', 'user:add', 'user:edit'),
      schema: {
        tags: ['jobs'],
        summary: '岗位列表（分页）',
        querystring: jobQuery,
        response: { 200: pageOf(jobRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, jobListSpec(db(), req.query)),
  );

  app.get(
    '/jobs/download',
    {
      preHandler: requirePermission(app, 'job:list'),
      schema: {
        tags: ['jobs'],
        summary: '导出岗位（与列表相同的筛选条件，xlsx）',
        querystring: jobQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) =>
      sendXlsx(reply, {
        name: '岗位数据',
        columns: [
          { header: '岗位名称', width: 24, value: (j) => j.name },
          { header: '排序', width: 8, value: (j) => j.sort },
          { header: '状态', width: 8, value: (j) => (j.enabled ? '启用' : '停用') },
          { header: '创建时间', width: 20, value: (j) => new Date(j.createdAt) },
        ],
        rows: allRows(req.query, jobListSpec(db(), req.query)),
      }),
  );

  app.post(
    '/jobs',
    {
      preHandler: requirePermission(app, 'job:add'),
      schema: {
        tags: ['jobs'],
        summary: '新增岗位',
        body: jobCreateForm,
        response: { 200: jobRow, ...adminErrors },
      },
    },
    async (req) => createJob(db(), actorOf(req), req.body),
  );

  app.post(
    '/jobs/update',
    {
      preHandler: requirePermission(app, 'job:edit'),
      schema: {
        tags: ['jobs'],
        summary: '修改岗位（带 version 时过期答 409）',
        body: jobUpdateForm,
        response: { 200: jobRow, ...adminErrors },
      },
    },
    async (req) => updateJob(db(), actorOf(req), req.body),
  );

  app.post(
    '/jobs/delete',
    {
      preHandler: requirePermission(app, 'job:del'),
      schema: {
        tags: ['jobs'],
        summary: '删除岗位（已分配给用户时拒绝）',
        body: idsBody('岗位ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteJobs(db(), actorOf(req), req.body),
  );
};

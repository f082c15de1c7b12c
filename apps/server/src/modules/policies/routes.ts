import { blurryParam, dateTimeParam, pageOf } from '@piibs/shared/admin';
import { downloadFileName } from '@piibs/shared/constants';
import {
  POLICY_SORT_FIELDS,
  POLICY_STATUSES,
  policyDetail,
  policyRow,
  policyVerification,
} from '@piibs/shared/policy';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CountCache } from '../../lib/keyset.ts';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors, errorBody, typedAnswer } from '../../lib/schemas.ts';
import { attachmentHeader, sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { businessContext } from '../payments/context.ts';
import { policyChangeRoutes } from './change-routes.ts';
import { storedPolicyDocument } from './issue.ts';
import { getPolicy, POLICY_EXPORT_COLUMNS, policyListSpec, policyPdf, verifyPolicy } from './service.ts';

const listQuery = pageQuery(POLICY_SORT_FIELDS).extend({
  status: z.enum(POLICY_STATUSES, { error: '请选择正确的保单状态' }).optional().meta({ title: '状态' }),
  productId: z.coerce.number().int().positive().optional().meta({ title: '险种' }),
  customerId: z.coerce.number().int().positive().optional().meta({ title: '投保人' }),
  blurry: blurryParam.meta({
    title: '关键词',
    description: '保单号、投保人名称、统一社会信用代码或被保险人包含',
  }),
  startTime: dateTimeParam('出单开始时间').optional(),
  endTime: dateTimeParam('出单结束时间').optional(),
});
const idParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '保单ID' }) });
export const pdfResponse = z.string().meta({ format: 'binary', description: 'application/pdf' });

/** An e-document as a download named `timestamp-<label>-<number>.pdf` (电子保单, 批单 …), with its SHA-256. */
export function sendPdf(
  reply: FastifyReply,
  doc: { number: string; content: Buffer; sha256: string },
  label = '电子保单',
): FastifyReply {
  return reply
    .type('application/pdf')
    .header('content-disposition', attachmentHeader(downloadFileName(`${label}-${doc.number}`, 'pdf')))
    .header('x-content-sha256', doc.sha256)
    .header('cache-control', 'private, no-store')
    .send(doc.content);
}

/**
 * Policies (保单). Reading follows the application: a policy is visible exactly when its application is
 * (application:list; anything else answers 404). The verification answers anyone, masked.
 */
export const policyRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const canList = requirePermission(app, 'application:list');
  await app.register(policyChangeRoutes);
  /** The policy list's counts, per filter, data scope and day, until a policy changes. */
  const counts = new CountCache();

  app.get(
    '/policies',
    {
      preHandler: canList,
      schema: {
        tags: ['policies'],
        summary: '保单列表（分页；范围同投保单）',
        querystring: listQuery,
        response: { 200: pageOf(policyRow), ...adminErrors },
      },
      // The rows are typed PolicyRow (toRow).
      ...typedAnswer,
    },
    async (req) =>
      paginate(req.query, policyListSpec(db(), await customerViewerOf(db(), req.user), req.query, counts)),
  );

  app.get(
    '/policies/download',
    {
      preHandler: canList,
      schema: {
        tags: ['policies'],
        summary: '导出保单（xlsx，筛选条件同列表；范围同投保单）',
        querystring: listQuery.omit({ page: true, size: true }),
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      const spec = policyListSpec(db(), await customerViewerOf(db(), req.user), req.query);
      return sendXlsx(reply, {
        name: '保单',
        columns: POLICY_EXPORT_COLUMNS,
        rows: allRows(req.query, spec),
      });
    },
  );

  app.get(
    '/policies/verify/:code',
    {
      config: { auth: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['policies'],
        summary: '保单验真（公开；仅返回脱敏信息；验证码不存在答 404）',
        security: [],
        params: z.object({ code: z.string().max(64).meta({ title: '验证码' }) }),
        response: { 200: policyVerification, 404: errorBody, 429: errorBody },
      },
    },
    async (req) => verifyPolicy(db(), req.params.code),
  );

  app.get(
    '/policies/:id',
    {
      preHandler: canList,
      schema: {
        tags: ['policies'],
        summary: '保单详情（保单、责任、共保、支付记录、投保单摘要、历史）',
        params: idParams,
        response: { 200: policyDetail, ...adminErrors },
      },
    },
    async (req) => getPolicy(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.get(
    '/policies/:id/pdf',
    {
      preHandler: canList,
      schema: {
        tags: ['policies'],
        summary: '下载电子保单（PDF；文件名 时间戳-电子保单-保单号.pdf；响应头 X-Content-SHA256）',
        params: idParams,
        response: { 200: pdfResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      const viewer = await customerViewerOf(db(), req.user);
      const stored = (id: number) => storedPolicyDocument(businessContext(app), id);
      return sendPdf(reply, await policyPdf(db(), viewer, req.params.id, stored));
    },
  );
};

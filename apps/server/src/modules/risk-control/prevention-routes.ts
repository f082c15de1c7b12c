// Accident prevention (事故预防): prevention records (fund, plan, ledger), service orders and the service archive
// export (xlsx, and a PDF summary: archive-pdf.ts). Permission codes: prevention:list (read), prevention:plan
// (staff: plan, dispatch, cancel), prevention:serve (organisation: accept, reject, start, record, submit, rectify,
// reply), prevention:confirm (enterprise: confirm, return, rate, complain), prevention:export (the archive).

import { blurryParam, boolParam, pageOf } from '@piibs/shared/admin';
import { downloadFileName } from '@piibs/shared/constants';
import {
  cancelForm,
  complaintForm,
  complaintReplyForm,
  confirmForm,
  dispatchForm,
  ledgerResult,
  PLAN_SORT_FIELDS,
  planDetail,
  planItemCreateForm,
  planItemUpdateForm,
  planRow,
  rateForm,
  rectifyForm,
  rejectForm,
  returnForm,
  SERVICE_ITEM_TYPES,
  SERVICE_ORDER_SORT_FIELDS,
  SERVICE_ORDER_STATUSES,
  type ServiceOrderDetail,
  serviceOrderDetail,
  serviceOrderRow,
  serviceRecordForm,
  versionForm,
} from '@piibs/shared/risk-control';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fieldError } from '../../lib/errors.ts';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { requireAnyPermission } from '../../lib/permissions.ts';
import { adminErrors, typedAnswer } from '../../lib/schemas.ts';
import { attachmentHeader, sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { issueSignedDocument } from '../documents/issue.ts';
import { preventionViewerOf } from './access.ts';
import { archivePdfData, renderArchivePdf } from './archive-pdf.ts';
import { ARCHIVE_COLUMNS, archiveSpec, getOrder, orderListSpec } from './order-queries.ts';
import { complain, rateOrder, rectifyHazard, replyComplaint, saveRecord } from './order-records.ts';
import {
  acceptOrder,
  cancelOrder,
  confirmOrder,
  dispatchOrder,
  rejectOrder,
  returnOrder,
  startOrder,
  submitOrder,
} from './orders.ts';
import { addPlanItem, deletePlanItem, getLedger, getPlan, planListSpec, updatePlanItem } from './plans.ts';
import { positiveId, tags } from './route-params.ts';

const seqNoParams = z.object({ seqNo: z.string().trim().max(64).meta({ title: '事故预防编号' }) });
const itemParams = seqNoParams.extend({ itemId: positiveId('服务项目ID') });
const refParams = z.object({ ref: z.string().trim().max(64).meta({ title: '服务单号' }) });
const dayParam = (title: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: '请输入正确的日期（yyyy-mm-dd）' })
    .optional()
    .meta({ title });

const planListQuery = pageQuery(PLAN_SORT_FIELDS).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '保单号、投保人名称或统一社会信用代码包含' }),
  planned: boolParam('已制定计划').optional(),
});
const orderFilters = z.object({
  status: z.enum(SERVICE_ORDER_STATUSES, { error: '请选择正确的状态' }).optional().meta({ title: '状态' }),
  seqNo: z.string().trim().max(64).optional().meta({ title: '事故预防编号' }),
  orgId: positiveId('服务机构').optional(),
  itemType: z
    .enum(SERVICE_ITEM_TYPES, { error: '请选择正确的服务项目' })
    .optional()
    .meta({ title: '服务项目' }),
  uscc: z.string().trim().toUpperCase().max(18).optional().meta({ title: '统一社会信用代码' }),
  blurry: blurryParam.meta({ title: '关键词', description: '服务单号、保单号或投保人名称包含' }),
  startDate: dayParam('计划日期起'),
  endDate: dayParam('计划日期止'),
});
const orderListQuery = pageQuery(SERVICE_ORDER_SORT_FIELDS).extend(orderFilters.shape);
const archiveQuery = z.object({
  uscc: z
    .string()
    .trim()
    .toUpperCase()
    .max(18)
    .optional()
    .meta({ title: '统一社会信用代码', description: '投保企业；企业用户可省略（本企业）' }),
});
const pdfResponse = z.string().meta({ format: 'binary', description: 'application/pdf' });

/** A PDF download named `timestamp-<name>.pdf`. */
const sendPdf = (reply: FastifyReply, name: string, content: Buffer, sha256: string): FastifyReply =>
  reply
    .type('application/pdf')
    .header('content-disposition', attachmentHeader(downloadFileName(name, 'pdf')))
    .header('x-content-sha256', sha256)
    .header('cache-control', 'private, no-store')
    .send(content);

export const preventionRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const viewer = (req: FastifyRequest) => preventionViewerOf(db(), req);
  const can = (code: string) => requirePermission(app, code);

  // ---- prevention records: fund, plan, ledger ----

  app.get(
    '/prevention/plans',
    {
      preHandler: can('prevention:list'),
      schema: {
        tags: tags.prevention,
        summary: '事故预防记录列表（每张可见保单一条：计划、已用、剩余）',
        querystring: planListQuery,
        response: { 200: pageOf(planRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, planListSpec(db(), await viewer(req), req.query)),
  );

  app.get(
    '/prevention/plans/:seqNo',
    {
      preHandler: can('prevention:list'),
      schema: {
        tags: tags.prevention,
        summary: '事故预防（prevention/index/:seqNo）：预防费用与服务计划（服务机构只见本机构项目）',
        params: seqNoParams,
        response: { 200: planDetail, ...adminErrors },
      },
    },
    async (req) => getPlan(db(), await viewer(req), req.params.seqNo),
  );

  app.get(
    '/prevention/plans/:seqNo/ledger',
    {
      preHandler: can('prevention:list'),
      schema: {
        tags: tags.prevention,
        summary: '事故预防费用台账（预留、释放、支出；每笔之后的计划、已用、剩余）',
        params: seqNoParams,
        response: { 200: ledgerResult, ...adminErrors },
      },
    },
    async (req) => getLedger(db(), await viewer(req), req.params.seqNo),
  );

  app.post(
    '/prevention/plans/:seqNo/items',
    {
      preHandler: can('prevention:plan'),
      schema: {
        tags: tags.prevention,
        summary: '新增服务计划项目（保险公司人员；预留 单次费用×次数，超出剩余费用答 400）',
        params: seqNoParams,
        body: planItemCreateForm,
        response: { 200: planDetail, ...adminErrors },
      },
    },
    async (req) => addPlanItem(db(), await viewer(req), req.params.seqNo, req.body),
  );

  app.post(
    '/prevention/plans/:seqNo/items/:itemId/update',
    {
      preHandler: can('prevention:plan'),
      schema: {
        tags: tags.prevention,
        summary: '修改服务计划项目（调整预留；次数不少于已派单数；version 过期答 409）',
        params: itemParams,
        body: planItemUpdateForm,
        response: { 200: planDetail, ...adminErrors },
      },
    },
    async (req) => updatePlanItem(db(), await viewer(req), req.params.seqNo, req.params.itemId, req.body),
  );

  app.post(
    '/prevention/plans/:seqNo/items/:itemId/delete',
    {
      preHandler: can('prevention:plan'),
      schema: {
        tags: tags.prevention,
        summary: '删除服务计划项目（已有服务单答 409；释放预留）',
        params: itemParams,
        body: versionForm,
        response: { 200: planDetail, ...adminErrors },
      },
    },
    async (req) =>
      deletePlanItem(db(), await viewer(req), req.params.seqNo, req.params.itemId, req.body.version),
  );

  app.post(
    '/prevention/plans/:seqNo/orders',
    {
      preHandler: can('prevention:plan'),
      schema: {
        tags: tags.prevention,
        summary: '派发服务单（保险公司人员；按计划项目，机构资质与人员证书须在有效期内）',
        params: seqNoParams,
        body: dispatchForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => dispatchOrder(db(), await viewer(req), req.params.seqNo, req.body),
  );

  // ---- service orders ----

  app.get(
    '/prevention/orders',
    {
      preHandler: can('prevention:list'),
      schema: {
        tags: tags.prevention,
        summary:
          '我的服务单（prevention/serviceList；机构只见本机构，企业只见本企业保单的；actions 为可执行操作）',
        querystring: orderListQuery,
        response: { 200: pageOf(serviceOrderRow), ...adminErrors },
      },
      // The rows are typed ServiceOrderRow (toOrderRow).
      ...typedAnswer,
    },
    async (req) => paginate(req.query, orderListSpec(db(), await viewer(req), req.query)),
  );

  app.get(
    '/prevention/orders/:ref',
    {
      preHandler: can('prevention:list'),
      schema: {
        tags: tags.prevention,
        summary: '服务单详情（服务记录、隐患、参与人员、投诉、历史、预防费用）；:ref 为服务单号或 ID',
        params: refParams,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => getOrder(db(), await viewer(req), req.params.ref),
  );

  const simple = (
    path: string,
    code: string,
    summary: string,
    run: (v: Awaited<ReturnType<typeof viewer>>, ref: string, version: number) => Promise<ServiceOrderDetail>,
  ) =>
    app.post(
      `/prevention/orders/:ref/${path}`,
      {
        preHandler: can(code),
        schema: {
          tags: tags.prevention,
          summary,
          params: refParams,
          body: versionForm,
          response: { 200: serviceOrderDetail, ...adminErrors },
        },
      },
      async (req) => run(await viewer(req), req.params.ref, req.body.version),
    );

  simple('accept', 'prevention:serve', '接单（服务机构；已派单 → 已接单）', (v, ref, ver) =>
    acceptOrder(db(), v, ref, ver),
  );
  simple('start', 'prevention:serve', '开始现场服务（服务机构；已接单 → 服务中）', (v, ref, ver) =>
    startOrder(db(), v, ref, ver),
  );
  simple('submit', 'prevention:serve', '提交服务记录（服务机构；服务中 → 待企业确认）', (v, ref, ver) =>
    submitOrder(db(), v, ref, ver),
  );

  app.post(
    '/prevention/orders/:ref/reject',
    {
      preHandler: can('prevention:serve'),
      schema: {
        tags: tags.prevention,
        summary: '拒单（服务机构，须填原因；已派单 → 已拒单）',
        params: refParams,
        body: rejectForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => rejectOrder(db(), await viewer(req), req.params.ref, req.body.version, req.body.reason),
  );

  app.post(
    '/prevention/orders/:ref/record',
    {
      preHandler: can('prevention:serve'),
      schema: {
        tags: tags.prevention,
        summary: '保存现场服务记录（prevention/service/:seqNo；服务情况、隐患及整改期限、参与人员；服务中）',
        params: refParams,
        body: serviceRecordForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => saveRecord(db(), await viewer(req), req.params.ref, req.body),
  );

  app.post(
    '/prevention/orders/:ref/hazards/:hazardId/rectify',
    {
      preHandler: can('prevention:serve'),
      schema: {
        tags: tags.prevention,
        summary: '登记隐患整改（服务机构；企业确认后；全部整改后服务单关闭）',
        params: refParams.extend({ hazardId: positiveId('隐患ID') }),
        body: rectifyForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => rectifyHazard(db(), await viewer(req), req.params.ref, req.params.hazardId, req.body),
  );

  app.post(
    '/prevention/orders/:ref/return',
    {
      preHandler: can('prevention:confirm'),
      schema: {
        tags: tags.prevention,
        summary: '退回服务记录（投保企业，须填意见；待企业确认 → 服务中）',
        params: refParams,
        body: returnForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => returnOrder(db(), await viewer(req), req.params.ref, req.body.version, req.body.opinion),
  );

  app.post(
    '/prevention/orders/:ref/confirm',
    {
      preHandler: can('prevention:confirm'),
      schema: {
        tags: tags.prevention,
        summary:
          '确认服务（投保企业；从预防费用中支出服务费用，余额不足答 400；可同时评价；无未整改隐患即关闭）',
        params: refParams,
        body: confirmForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => confirmOrder(db(), await viewer(req), req.params.ref, req.body),
  );

  app.post(
    '/prevention/orders/:ref/rate',
    {
      preHandler: can('prevention:confirm'),
      schema: {
        tags: tags.prevention,
        summary: '满意度评价（投保企业，1–5 分，确认后一次）',
        params: refParams,
        body: rateForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => rateOrder(db(), await viewer(req), req.params.ref, req.body),
  );

  app.post(
    '/prevention/orders/:ref/complaints',
    {
      preHandler: can('prevention:confirm'),
      schema: {
        tags: tags.prevention,
        summary: '投诉（投保企业；答复期限为 10 个工作日，跳过周末；同一服务单同时只能有一条未答复投诉）',
        params: refParams,
        body: complaintForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => complain(db(), await viewer(req), req.params.ref, req.body),
  );

  app.post(
    '/prevention/orders/:ref/complaints/:complaintId/reply',
    {
      preHandler: requireAnyPermission(app, 'prevention:serve', 'prevention:plan'),
      schema: {
        tags: tags.prevention,
        summary: '答复投诉（该服务机构或保险公司人员）',
        params: refParams.extend({ complaintId: positiveId('投诉ID') }),
        body: complaintReplyForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) =>
      replyComplaint(db(), await viewer(req), req.params.ref, req.params.complaintId, req.body.reply),
  );

  app.post(
    '/prevention/orders/:ref/cancel',
    {
      preHandler: can('prevention:plan'),
      schema: {
        tags: tags.prevention,
        summary: '取消服务单（保险公司人员，须填原因；已派单/已接单 → 已取消）',
        params: refParams,
        body: cancelForm,
        response: { 200: serviceOrderDetail, ...adminErrors },
      },
    },
    async (req) => cancelOrder(db(), await viewer(req), req.params.ref, req.body.version, req.body.reason),
  );

  // ---- the archive ----

  app.get(
    '/prevention/archive/download',
    {
      preHandler: can('prevention:export'),
      schema: {
        tags: tags.prevention,
        summary: '导出企业事故预防服务档案（xlsx：服务单、服务记录、隐患与整改、评价、投诉；仅含可见服务单）',
        querystring: archiveQuery,
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      const v = await viewer(req);
      const uscc = req.query.uscc || v.enterprise?.uscc;
      if (!uscc) throw fieldError('uscc', '不能为空', '统一社会信用代码');
      return sendXlsx(reply, {
        name: `事故预防服务档案-${uscc}`,
        sheet: '服务档案',
        columns: ARCHIVE_COLUMNS,
        rows: allRows({}, archiveSpec(db(), v, uscc)),
      });
    },
  );

  app.get(
    '/prevention/archive/pdf',
    {
      preHandler: can('prevention:export'),
      schema: {
        tags: tags.prevention,
        summary:
          '导出企业事故预防服务档案摘要（PDF：各保单的事故预防费用、服务单、隐患与整改、投诉；仅含可见记录，无可见记录 404）',
        querystring: archiveQuery,
        response: { 200: pdfResponse, ...adminErrors },
      },
    },
    async (req, reply) => {
      const v = await viewer(req);
      const uscc = req.query.uscc || v.enterprise?.uscc;
      if (!uscc) throw fieldError('uscc', '不能为空', '统一社会信用代码');
      const data = await archivePdfData(db(), v, uscc);
      const doc = await issueSignedDocument(db(), app.deps, {
        kind: 'PREVENTION_ARCHIVE',
        policyId: null,
        number: data.uscc,
        sealLabel: '事故预防服务专用章',
        reason: `出具事故预防服务档案 ${data.uscc}`,
        render: (seal) => renderArchivePdf(data, seal),
        keepContent: false,
      });
      return sendPdf(reply, `事故预防服务档案-${data.enterpriseName}`, doc.content, doc.sha256);
    },
  );
};

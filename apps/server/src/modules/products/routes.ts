import { blurryParam, boolParam, idsBody, pageOf } from '@piibs/shared/admin';
import { fenToYuanText, microPercentText } from '@piibs/shared/money';
import {
  availableProduct,
  PRODUCT_SORT_FIELDS,
  productCreateForm,
  productRow,
  productUpdateForm,
  quoteForm,
  quoteResult,
  rateTableCreateForm,
  rateTableDetail,
  rateTableRow,
  rateTableUpdateForm,
} from '@piibs/shared/product';
import {
  type FactorDef,
  limitTiersOf,
  PRODUCT_CLASS_LABELS,
  PRODUCT_CLASSES,
  type RateRow,
} from '@piibs/shared/rating';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit.ts';
import { allRows, pageQuery, paginate } from '../../lib/paging.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { hasPermission, requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { quoteProduct } from './quote.ts';
import {
  activateRateTable,
  createRateTable,
  deleteRateTable,
  getRateTable,
  listRateTables,
  updateRateTable,
} from './rate-tables.ts';
import {
  availableProducts,
  createProduct,
  deleteProducts,
  getProduct,
  productListSpec,
  updateProduct,
} from './service.ts';

const productClass = z.enum(PRODUCT_CLASSES, { error: '请选择正确的险种类别' }).meta({ title: '险种类别' });
const region = z
  .string()
  .trim()
  .regex(/^\d{6}$/, { error: '请选择地区' })
  .meta({ title: '适用地区' });

const productQuery = pageQuery(PRODUCT_SORT_FIELDS).extend({
  blurry: blurryParam.meta({ title: '关键词', description: '险种代码或名称包含' }),
  productClass: productClass.optional(),
  region: region.optional(),
  enabled: boolParam('状态').optional(),
});

const idParams = (title: string) => z.object({ id: z.coerce.number().int().positive().meta({ title }) });

/**
 * Products (险种与责任, product/Risk) and their rate tables: product:list / product:add / product:edit /
 * product:del. Any signed-in user may list what is on sale (GET /products/available) and ask for a quote.
 */
export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;

  app.get(
    '/products',
    {
      preHandler: requirePermission(app, 'product:list'),
      schema: {
        tags: ['products'],
        summary: '险种列表（分页，含责任与生效费率表版本）',
        querystring: productQuery,
        response: { 200: pageOf(productRow), ...adminErrors },
      },
    },
    async (req) => paginate(req.query, productListSpec(db(), req.query)),
  );

  app.get(
    '/products/download',
    {
      preHandler: requirePermission(app, 'product:list'),
      schema: {
        tags: ['products'],
        summary: '导出险种（与列表相同的筛选条件，xlsx）',
        querystring: productQuery,
        produces: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (req, reply) =>
      sendXlsx(reply, {
        name: '险种数据',
        columns: [
          { header: '险种代码', width: 18, value: (p) => p.code },
          { header: '险种名称', width: 30, value: (p) => p.name },
          { header: '险种类别', width: 24, value: (p) => PRODUCT_CLASS_LABELS[p.productClass] },
          { header: '条款版本', width: 30, value: (p) => p.clauseVersion },
          { header: '适用地区', width: 10, value: (p) => p.regionName ?? p.region },
          { header: '生效日期', width: 12, value: (p) => p.validFrom },
          { header: '失效日期', width: 12, value: (p) => p.validTo },
          { header: '允许共保', width: 10, value: (p) => (p.allowsCoinsurance ? '是' : '否') },
          { header: '最低保费（元）', width: 14, value: (p) => fenToYuanText(p.minPremiumFen) },
          {
            header: '最低工程造价（元）',
            width: 18,
            value: (p) => (p.minProjectCostFen === null ? null : fenToYuanText(p.minProjectCostFen)),
          },
          {
            header: '事故预防费用比例',
            width: 18,
            value: (p) =>
              `${microPercentText(p.preventionRatioMin)}%–${microPercentText(p.preventionRatioMax)}%`,
          },
          { header: '手续费比例上限', width: 14, value: (p) => `${microPercentText(p.commissionCap)}%` },
          { header: '责任', width: 60, value: (p) => p.coverages.map((c) => c.name).join('、') },
          { header: '生效费率表版本', width: 14, value: (p) => p.activeRateTable?.versionNo ?? null },
          { header: '状态', width: 8, value: (p) => (p.enabled ? '启用' : '停用') },
          { header: '创建时间', width: 20, value: (p) => new Date(p.createdAt) },
        ],
        rows: allRows(req.query, productListSpec(db(), req.query)),
      }),
  );

  app.get(
    '/products/available',
    {
      schema: {
        tags: ['products'],
        summary: '可投保险种（启用且在有效期内；含生效费率表的费率明细、限额档次与浮动因子；任何已登录用户）',
        querystring: z.object({ productClass: productClass.optional(), region: region.optional() }),
        response: { 200: z.array(availableProduct), ...adminErrors },
      },
    },
    async (req) => {
      const list = await availableProducts(db(), req.query);
      return Promise.all(
        list.map(async (p) => {
          if (!p.activeRateTable) return { ...p, rating: null };
          const t = await getRateTable(db(), p.activeRateTable.id);
          const rows: RateRow[] = t.rows.map(({ id: _, ...r }) => r);
          return {
            ...p,
            rating: {
              rateTableId: t.id,
              versionNo: t.versionNo,
              effectiveDate: t.effectiveDate,
              limitTiersFen: limitTiersOf(rows),
              factors: t.factors as FactorDef[],
              highRiskLoading: t.highRiskLoading,
              shortPeriodRule: t.shortPeriodRule,
              shortRateTable: t.shortRateTable,
              rows,
            },
          };
        }),
      );
    },
  );

  app.get(
    '/products/:id',
    {
      preHandler: requirePermission(app, 'product:list'),
      schema: {
        tags: ['products'],
        summary: '险种详情',
        params: idParams('险种ID'),
        response: { 200: productRow, ...adminErrors },
      },
    },
    async (req) => getProduct(db(), req.params.id),
  );

  app.post(
    '/products',
    {
      preHandler: requirePermission(app, 'product:add'),
      schema: {
        tags: ['products'],
        summary: '新增险种及其责任（事故预防费用比例 ≤ 21%，手续费 ≤ 5%，安责险每人伤亡限额 ≥ 40万元）',
        body: productCreateForm,
        response: { 200: productRow, ...adminErrors },
      },
    },
    async (req) => createProduct(db(), actorOf(req), req.body),
  );

  app.post(
    '/products/update',
    {
      preHandler: requirePermission(app, 'product:edit'),
      schema: {
        tags: ['products'],
        summary: '修改险种（连同责任整体替换；version 过期答 409）',
        body: productUpdateForm,
        response: { 200: productRow, ...adminErrors },
      },
    },
    async (req) => updateProduct(db(), actorOf(req), req.body),
  );

  app.post(
    '/products/delete',
    {
      preHandler: requirePermission(app, 'product:del'),
      schema: {
        tags: ['products'],
        summary: '删除险种（已有生效或历史费率表的只能停用）',
        body: idsBody('险种ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteProducts(db(), actorOf(req), req.body),
  );

  app.post(
    '/products/:id/quote',
    {
      schema: {
        tags: ['products'],
        summary: '试算保费（按生效费率表；带 rateTableId 时按该版本复算；不保存；任何已登录用户）',
        params: idParams('险种ID'),
        body: quoteForm,
        response: { 200: quoteResult, ...adminErrors },
      },
    },
    async (req) => {
      const [viewer, canSeeDrafts] = await Promise.all([
        customerViewerOf(db(), req.user),
        hasPermission(app, req.user, 'product:edit'),
      ]);
      return quoteProduct(db(), { viewer, canSeeDrafts }, req.params.id, req.body);
    },
  );

  // ---- rate tables ----

  app.get(
    '/products/:id/rateTables',
    {
      preHandler: requirePermission(app, 'product:list'),
      schema: {
        tags: ['products'],
        summary: '险种的费率表版本（新版本在前）',
        params: idParams('险种ID'),
        response: { 200: z.array(rateTableRow), ...adminErrors },
      },
    },
    async (req) => listRateTables(db(), req.params.id),
  );

  app.post(
    '/products/:id/rateTables',
    {
      preHandler: requirePermission(app, 'product:edit'),
      schema: {
        tags: ['products'],
        summary: '新建费率表版本（草稿）',
        params: idParams('险种ID'),
        body: rateTableCreateForm,
        response: { 200: rateTableDetail, ...adminErrors },
      },
    },
    async (req) => createRateTable(db(), actorOf(req), req.params.id, req.body),
  );

  app.get(
    '/rateTables/:id',
    {
      preHandler: requirePermission(app, 'product:list'),
      schema: {
        tags: ['products'],
        summary: '费率表详情（含费率明细与浮动因子）',
        params: idParams('费率表ID'),
        response: { 200: rateTableDetail, ...adminErrors },
      },
    },
    async (req) => getRateTable(db(), req.params.id),
  );

  app.post(
    '/rateTables/:id/update',
    {
      preHandler: requirePermission(app, 'product:edit'),
      schema: {
        tags: ['products'],
        summary: '修改草稿费率表（已生效或已停用的版本不可修改，答 409）',
        params: idParams('费率表ID'),
        body: rateTableUpdateForm,
        response: { 200: rateTableDetail, ...adminErrors },
      },
    },
    async (req) => updateRateTable(db(), actorOf(req), req.params.id, req.body),
  );

  app.post(
    '/rateTables/:id/activate',
    {
      preHandler: requirePermission(app, 'product:edit'),
      schema: {
        tags: ['products'],
        summary: '生效费率表（原生效版本停用；已出的报价不受影响；生效日期未到答 400）',
        params: idParams('费率表ID'),
        body: z.object({ version: z.number().int().min(0).meta({ title: '版本号' }) }),
        response: { 200: rateTableDetail, ...adminErrors },
      },
    },
    async (req) => activateRateTable(db(), actorOf(req), req.params.id, req.body.version),
  );

  app.post(
    '/rateTables/:id/delete',
    {
      preHandler: requirePermission(app, 'product:del'),
      schema: {
        tags: ['products'],
        summary: '删除草稿费率表',
        params: idParams('费率表ID'),
        response: { 200: z.object({ deleted: z.number() }), ...adminErrors },
      },
    },
    async (req) => deleteRateTable(db(), actorOf(req), req.params.id),
  );
};

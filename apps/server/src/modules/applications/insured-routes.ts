import fastifyMultipart from '@fastify/multipart';
import {
  insuredList,
  insuredListForm,
  NAMED_INSURED_COLUMNS,
  policyInsuredList as policyInsuredListSchema,
} from '@piibs/shared/named-insured';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, fieldError, HttpError } from '../../lib/errors.ts';
import { adminErrors, errorBody } from '../../lib/schemas.ts';
import { sendXlsx, xlsxResponse } from '../../lib/xlsx.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import type { ApplicationActor } from './changes.ts';
import {
  applicationInsuredList,
  policyInsuredList,
  readInsuredSheet,
  replaceInsuredList,
} from './insured-persons.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '投保单ID' }) });
/** An import is a small sheet: 5,000 rows of two short columns fit well within 2 MB. */
const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

async function* templateRows(): AsyncIterable<{ name: string; idNumber: string }[]> {
  yield [];
}

/**
 * Named insured lists (从业人员名单) of applications: read with application:list (numbers masked; 404 unless the
 * application is the caller's to see), replaced or imported with application:edit by its owner while a draft.
 */
export const insuredPersonRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const canList = requirePermission(app, 'application:list');
  const canEdit = requirePermission(app, 'application:edit');
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 64 },
  });
  const actorOf = async (req: FastifyRequest): Promise<ApplicationActor> => ({
    user: req.user,
    ip: req.ip,
    viewer: await customerViewerOf(db(), req.user),
  });

  app.get(
    '/applications/insuredPersons/template',
    {
      preHandler: canList,
      schema: {
        tags: ['applications'],
        summary: '下载从业人员名单导入模板（xlsx：姓名、身份证号码）',
        response: { 200: xlsxResponse, ...adminErrors },
      },
    },
    async (_req, reply) =>
      sendXlsx(reply, {
        name: '从业人员名单模板',
        sheet: '从业人员名单',
        columns: [
          { header: NAMED_INSURED_COLUMNS[0], width: 16, value: (r) => r.name },
          { header: NAMED_INSURED_COLUMNS[1], width: 24, value: (r) => r.idNumber },
        ],
        rows: templateRows(),
      }),
  );

  app.get(
    '/applications/:id/insuredPersons',
    {
      preHandler: canList,
      schema: {
        tags: ['applications'],
        summary: '投保单的从业人员名单（身份证号码脱敏）',
        params: idParams,
        response: { 200: insuredList, ...adminErrors },
      },
    },
    async (req) => applicationInsuredList(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.get(
    '/policies/:id/insuredPersons',
    {
      preHandler: canList,
      schema: {
        tags: ['policies'],
        summary:
          '保单的从业人员名单（身份证号码脱敏；含批改增减人员及其生效日期，人数为现有人员；范围同投保单）',
        params: z.object({ id: z.coerce.number().int().positive().meta({ title: '保单ID' }) }),
        response: { 200: policyInsuredListSchema, ...adminErrors },
      },
    },
    async (req) => policyInsuredList(db(), await customerViewerOf(db(), req.user), req.params.id),
  );

  app.put(
    '/applications/:id/insuredPersons',
    {
      preHandler: canEdit,
      schema: {
        tags: ['applications'],
        summary:
          '保存从业人员名单（整表替换，已保存的人员可只给序号 sort 保留；草稿或退回修改时由创建人；任一行有误则整表不保存并逐行说明；参保人数随名单）',
        params: idParams,
        body: insuredListForm,
        response: { 200: insuredList, ...adminErrors },
      },
    },
    async (req) =>
      replaceInsuredList(db(), await actorOf(req), req.params.id, req.body.version, req.body.persons),
  );

  app.post(
    '/applications/:id/insuredPersons/import',
    {
      preHandler: canEdit,
      schema: {
        tags: ['applications'],
        summary:
          '导入从业人员名单（multipart/form-data：version 与 xlsx 文件 file，格式同模板；任一行有误则不导入并逐行说明）',
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 200: insuredList, 413: errorBody, ...adminErrors },
      },
    },
    async (req) => {
      // Someone else's application answers 404 before anything is read.
      await applicationInsuredList(db(), await customerViewerOf(db(), req.user), req.params.id);
      if (!req.isMultipart()) throw badRequest('请以 multipart/form-data 上传文件');
      let bytes: Buffer | null = null;
      let version: number | null = null;
      try {
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            const b = await part.toBuffer();
            if (part.fieldname === 'file' && !bytes) bytes = b;
          } else if (part.fieldname === 'version') version = Number(part.value);
        }
      } catch (err) {
        if (err instanceof HttpError) throw err;
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new HttpError(413, '文件：不能超过 2MB');
        throw badRequest('上传内容格式不正确');
      }
      if (!bytes) throw fieldError('file', '请选择要导入的 xlsx 文件', '文件');
      if (version === null || !Number.isInteger(version) || version < 0)
        throw fieldError('version', '缺少版本号', '版本号');
      // Row 1 is the header: the first person is on sheet row 2.
      return replaceInsuredList(
        db(),
        await actorOf(req),
        req.params.id,
        version,
        await readInsuredSheet(bytes),
        2,
      );
    },
  );
};

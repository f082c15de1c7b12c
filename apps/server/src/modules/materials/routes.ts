import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import fastifyMultipart from '@fastify/multipart';
import {
  cleanFileName,
  isImageMime,
  MATERIAL_EXTENSIONS,
  MATERIAL_MESSAGES,
  MAX_MATERIAL_BYTES,
  type MaterialMime,
  materialList,
  materialListQuery,
  materialRow,
  materialUploadFields,
} from '@piibs/shared/material';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, fieldError, HttpError, notFound } from '../../lib/errors.ts';
import { adminErrors, errorBody, okBody } from '../../lib/schemas.ts';
import { hasNul, RequestValidationError, validationFailure } from '../../lib/validation.ts';
import { hasPermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { checkPdf } from './pdf-check.ts';
import {
  deleteMaterial,
  listMaterials,
  type MaterialActor,
  openMaterial,
  type UploadedFile,
  uploadMaterial,
} from './service.ts';
import { materialStorageFor } from './storage.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().meta({ title: '影像资料ID' }) });
const binary = z.string().meta({ format: 'binary' });
const errors = { ...adminErrors, 413: errorBody };
/** The pictures a browser draws without running anything. */
const RASTER: readonly MaterialMime[] = ['image/jpeg', 'image/png', 'image/webp'];

async function actorOf(app: FastifyInstance, req: FastifyRequest): Promise<MaterialActor> {
  const viewer = await customerViewerOf(app.deps.database.db, req.user);
  const known = new Map<string, Promise<boolean>>();
  return {
    user: req.user,
    ip: req.ip,
    viewer,
    can(code) {
      let answer = known.get(code);
      if (!answer) {
        answer = hasPermission(app, req.user, code);
        known.set(code, answer);
      }
      return answer;
    },
  };
}

/** Reads the multipart form: its text fields and the one part named `file`, size-limited. */
async function readUpload(
  req: FastifyRequest,
): Promise<{ fields: Record<string, string>; file: UploadedFile }> {
  if (!req.isMultipart()) throw badRequest('请以 multipart/form-data 上传文件');
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file' && !file) file = { name: cleanFileName(part.filename), bytes };
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value ?? '');
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, MATERIAL_MESSAGES.tooLarge);
    if (code === 'FST_FILES_LIMIT') throw fieldError('file', '每次只能上传一个文件', '文件');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('上传内容的字段过多');
    // Anything else the parser raises (a truncated or malformed form) is bad input, never a 5xx.
    const status = (err as { statusCode?: number }).statusCode;
    if (status === undefined || status < 500) throw badRequest('上传内容格式不正确');
    throw err;
  }
  if (!file) throw badRequest(MATERIAL_MESSAGES.missing);
  return { fields, file };
}

/**
 * Image materials (影像资料) of applications and customers. Reads need application:list / customer:list and
 * a record the caller may see (404 otherwise); changes need application:edit / customer:edit and a record
 * that is editable by the caller (see service.ts). Files are typed by their content, at most 10 MB.
 */
export const materialRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const storage = materialStorageFor(app.deps.config);
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_MATERIAL_BYTES, files: 1, fields: 8, parts: 10, fieldSize: 1024 },
  });

  app.get(
    '/materials',
    {
      schema: {
        tags: ['materials'],
        summary: '影像资料列表（某业务记录的全部资料，按上传先后；editable 表示调用者当前能否上传、删除）',
        querystring: materialListQuery,
        response: { 200: materialList, ...adminErrors },
      },
    },
    async (req) => listMaterials(db(), await actorOf(app, req), req.query),
  );

  app.post(
    '/materials',
    {
      schema: {
        tags: ['materials'],
        summary:
          '上传影像资料（multipart/form-data：businessType、businessId、docType（document_type 字典）与文件 file；' +
          '按文件内容识别 JPG/PNG/WEBP/PDF，不超过 10MB，超过答 413；图片不超过 4000 万像素；' +
          '含脚本、启动程序或自动动作的 PDF 答 400）',
        consumes: ['multipart/form-data'],
        response: { 200: materialRow, ...errors },
      },
    },
    async (req) => {
      const { fields, file } = await readUpload(req);
      if (hasNul(fields)) throw new RequestValidationError('请求内容：不能包含空字符');
      const parsed = z.safeParse(materialUploadFields, fields, { reportInput: true });
      if (!parsed.success) throw validationFailure(materialUploadFields, parsed.error.issues, 'body');
      return uploadMaterial(db(), storage, await actorOf(app, req), parsed.data, file);
    },
  );

  async function serve(req: FastifyRequest, reply: FastifyReply, id: number, kind: 'file' | 'thumbnail') {
    const found = await openMaterial(db(), storage, await actorOf(app, req), id);
    if (kind === 'thumbnail' && !isImageMime(found.mime)) {
      found.stream.destroy();
      throw notFound('该影像资料没有缩略图');
    }
    // Shown in the browser only what cannot run: a picture, or a PDF that passes the upload's check (files
    // stored before the check existed are checked here); anything else is a download.
    let body: Readable | Buffer = found.stream;
    let inline = RASTER.includes(found.mime);
    if (found.mime === 'application/pdf') {
      body = await buffer(found.stream);
      inline = checkPdf(body).ok;
    }
    return reply
      .type(found.mime)
      .header('content-length', String(found.sizeBytes))
      .header(
        'content-disposition',
        inline ? 'inline' : `attachment; filename="material-${id}.${MATERIAL_EXTENSIONS[found.mime]}"`,
      )
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-cache')
      .header('etag', `"${found.sha256}"`)
      .send(body);
  }

  app.get(
    '/materials/:id/file',
    {
      schema: {
        tags: ['materials'],
        summary:
          '影像资料文件（按存储的类型返回；图片与不含脚本的 PDF 为 inline，其余作为附件下载；调用者无权查看时答 404）',
        params: idParams,
        produces: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'],
        response: { 200: binary, ...adminErrors },
      },
    },
    async (req, reply) => serve(req, reply, req.params.id, 'file'),
  );

  app.get(
    '/materials/:id/thumbnail',
    {
      schema: {
        tags: ['materials'],
        summary: '影像资料缩略图（目前即图片本身；PDF 没有缩略图，答 404）',
        params: idParams,
        produces: ['image/jpeg', 'image/png', 'image/webp'],
        response: { 200: binary, ...adminErrors },
      },
    },
    async (req, reply) => serve(req, reply, req.params.id, 'thumbnail'),
  );

  app.delete(
    '/materials/:id',
    {
      schema: {
        tags: ['materials'],
        summary: '删除影像资料（仅在业务记录可修改时；保留文件与记录以备查，写入操作日志）',
        params: idParams,
        response: { 200: okBody, ...adminErrors },
      },
    },
    async (req) => {
      await deleteMaterial(db(), await actorOf(app, req), req.params.id);
      return { ok: true as const };
    },
  );
};

import fastifyMultipart from '@fastify/multipart';
import { authUser, changePasswordForm, profileForm } from '@piibs/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, HttpError, notFound } from '../../lib/errors.ts';
import { errorBody } from '../../lib/schemas.ts';
import { loadAuthUser } from '../auth/repository.ts';
import { AVATAR_MAX_BYTES, changePassword, readAvatar, saveAvatar, updateProfile } from './service.ts';

const errors = { 400: errorBody, 401: errorBody, 403: errorBody };

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;
  await app.register(fastifyMultipart, {
    limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });

  app.put(
    '/users/center',
    {
      schema: {
        tags: ['users'],
        summary: '个人中心：修改昵称、手机号、邮箱、性别（手机号原样回传掩码值表示不变）',
        body: profileForm,
        response: { 200: authUser, ...errors },
      },
    },
    async (req) => {
      await updateProfile(db, { user: req.user, ip: req.ip }, req.body);
      return loadAuthUser(db, req.user.id);
    },
  );

  app.post(
    '/users/updatePass',
    {
      config: { auth: 'session', rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags: ['users'],
        summary: '修改密码：吊销本人其他会话，当前会话（同一令牌）升级为完整会话',
        body: changePasswordForm,
        response: {
          200: z.object({ psPower: z.number().int(), revokedSessions: z.number().int() }),
          ...errors,
          429: errorBody,
        },
      },
    },
    async (req) => {
      const { psPower, revoked } = await changePassword(db, { user: req.user, ip: req.ip }, req.body);
      return { psPower, revokedSessions: revoked };
    },
  );

  app.post(
    '/users/updateAvatar',
    {
      schema: {
        tags: ['users'],
        summary:
          '上传头像（multipart/form-data，字段 avatar；PNG/JPEG/WebP，不超过 2MB（超过答 413）与 4000 万像素）',
        consumes: ['multipart/form-data'],
        response: { 200: z.object({ avatar: z.string() }), ...errors, 413: errorBody },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw badRequest('请以 multipart/form-data 上传头像');
      let data: Buffer;
      try {
        const part = await req.file();
        if (!part) throw badRequest('请选择头像文件');
        data = await part.toBuffer();
      } catch (err) {
        if (err instanceof HttpError) throw err;
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new HttpError(413, '头像文件不能超过 2MB');
        // A truncated or malformed form is bad input, never a 5xx (as in materials/routes.ts).
        const status = (err as { statusCode?: number }).statusCode;
        if (status === undefined || status < 500) throw badRequest('上传内容格式不正确');
        throw err;
      }
      if (data.length === 0) throw badRequest('头像文件不能为空');
      const avatar = await saveAvatar(db, app.deps.config.dataDir, { user: req.user, ip: req.ip }, data);
      return { avatar };
    },
  );

  app.get(
    '/avatar/:file',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['users'],
        summary: '头像图片（只接受服务端生成的文件名）',
        security: [],
        params: z.object({ file: z.string().max(64).meta({ title: '文件名' }) }),
        response: { 200: z.string().meta({ format: 'binary' }), 404: errorBody },
      },
    },
    async (req, reply) => {
      const found = await readAvatar(app.deps.config.dataDir, req.params.file);
      if (!found) throw notFound('头像不存在');
      return (
        reply
          .type(found.contentType)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('content-disposition', 'inline')
          // A Buffer bypasses the serializer; the string schema only documents the body for OpenAPI.
          .send(found.data as unknown as string)
      );
    },
  );
};

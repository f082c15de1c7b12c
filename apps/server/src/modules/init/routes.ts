import { initCheckResult, initForm } from '@piibs/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBody } from '../../lib/schemas.ts';
import { initialise, isInitialized } from './service.ts';

export const initRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/init/check',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['init'],
        summary: '系统是否已初始化（首个管理员是否已创建）',
        security: [],
        response: { 200: initCheckResult },
      },
    },
    async () => ({ initialized: await isInitialized(app.deps.database.db) }),
  );

  app.post(
    '/init',
    {
      config: { auth: 'public', rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags: ['init'],
        summary: '首次运行初始化：机构名称、首个管理员账号与密码；已初始化时 409',
        security: [],
        body: initForm,
        response: { 200: initCheckResult, 400: errorBody, 409: errorBody },
      },
    },
    async (req) => {
      await initialise(app.deps.database.db, req.body, { ip: req.ip });
      return { initialized: true };
    },
  );
};

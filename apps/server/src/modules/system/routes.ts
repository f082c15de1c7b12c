import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.literal('postgres'),
  embedded: z.boolean(),
  version: z.string(),
});

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['system'],
        summary: '健康检查：数据库可用时返回 200',
        security: [],
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_req, reply) => {
      const { database, embedded, config } = app.deps;
      const body = { database: 'postgres' as const, embedded, version: config.version };
      try {
        await database.pool.query('SELECT 1');
        return { status: 'ok' as const, ...body };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, ...body });
      }
    },
  );

  // Liveness without touching the database: the baseline that benchmarks compare other routes against.
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['system'],
        summary: '存活检查（不访问数据库）',
        security: [],
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );
};

import { DEFAULT_SETTINGS } from '@piibs/shared/constants';
import { type SiteSettings, siteSettingsSchema } from '@piibs/shared/site';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { systemSettings } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import { adminErrors } from '../../lib/schemas.ts';
import { requirePermission } from '../../plugins/auth.ts';

const SITE_KEY = 'site';
const DEFAULT_SITE: SiteSettings = {
  footerTxt: DEFAULT_SETTINGS.footerTxt,
  caseNumber: DEFAULT_SETTINGS.caseNumber,
  policeNumber: '',
};

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.literal('postgres'),
  embedded: z.boolean(),
  version: z.string(),
  /** With DATABASE_REPLICA_URL: whether the replica answers the stale-tolerant reads (ok) or not (behind, down). */
  replica: z.enum(['ok', 'behind', 'down']).optional(),
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
      const replica = app.reads.status.state;
      const body = {
        database: 'postgres' as const,
        embedded,
        version: config.version,
        ...(replica === 'none' ? {} : { replica }),
      };
      try {
        await database.pool.query('SELECT 1');
        return { status: 'ok' as const, ...body };
      } catch {
        return reply.status(503).send({ status: 'unavailable' as const, ...body });
      }
    },
  );

  // Liveness without touching the database (the baseline that benchmarks compare other routes against): 200 while
  // the process can serve or is restarting its embedded PostgreSQL (bounded: db/embedded.ts gives up after
  // 60 s); 503 once that restart failed, as the process exits. An external database's outage is /api/health's
  // (readiness) to report: restarting this process would not mend it.
  app.get(
    '/health/live',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['system'],
        summary:
          '存活检查（不访问数据库）：ok；内置数据库意外停止、正在重启时为 recovering；重启失败时答 503（进程随即以非零状态退出）',
        security: [],
        response: {
          200: z.object({ status: z.enum(['ok', 'recovering']) }),
          503: z.object({ status: z.literal('unavailable') }),
        },
      },
    },
    async (_req, reply) => {
      const state = app.deps.embeddedServer?.state ?? 'running';
      if (state === 'failed') return reply.status(503).send({ status: 'unavailable' as const });
      return { status: state === 'recovering' ? ('recovering' as const) : ('ok' as const) };
    },
  );

  const readSite = async (): Promise<SiteSettings> => {
    const [row] = await app.deps.database.db
      .select({ value: systemSettings.value })
      .from(systemSettings)
      .where(eq(systemSettings.key, SITE_KEY));
    return { ...DEFAULT_SITE, ...(row?.value as Partial<SiteSettings> | undefined) };
  };

  // Public: the footer is shown on every page of the shell, and its filing numbers are public by law.
  app.get(
    '/settings/site',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['system'],
        summary: '页脚与备案信息',
        security: [],
        response: { 200: siteSettingsSchema },
      },
    },
    readSite,
  );

  app.post(
    '/settings/site',
    {
      preHandler: requirePermission(app, 'setting:edit'),
      schema: {
        tags: ['system'],
        summary: '修改页脚与备案信息',
        body: siteSettingsSchema,
        response: { 200: siteSettingsSchema, ...adminErrors },
      },
    },
    async (req) => {
      const before = await readSite();
      await app.deps.database.db.transaction(async (tx) => {
        await tx
          .insert(systemSettings)
          .values({ key: SITE_KEY, value: req.body })
          .onConflictDoUpdate({
            target: systemSettings.key,
            set: { value: req.body, updatedAt: sql`now()` },
          });
        await auditAction(tx, req, {
          action: 'update',
          entity: 'site_settings',
          detail: { before, after: req.body },
        });
      });
      return readSite();
    },
  );
};

import os from 'node:os';
import { monitorResult } from '@piibs/shared/admin';
import type { NotifyRefusal } from '@piibs/shared/payment';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminErrors } from '../../lib/schemas.ts';
import { requirePermission } from '../../plugins/auth.ts';

/** Server monitor (system/Monitor): permission monitor:list. */
export const monitorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/monitor',
    {
      preHandler: requirePermission(app, 'monitor:list'),
      schema: {
        tags: ['monitor'],
        summary:
          '服务监控：进程、内存、系统负载、数据库版本/大小/连接数、本实例最慢的请求、本实例拒绝的支付通知数',
        response: { 200: monitorResult, ...adminErrors },
      },
    },
    async () => {
      const { pool } = app.deps.database;
      const { rows } = await pool.query<{ version: string; size: string; connections: number }>(
        `select current_setting('server_version') as version,
                pg_database_size(current_database()) as size,
                (select count(*)::int from pg_stat_activity where datname = current_database()) as connections`,
      );
      const db = rows[0]!;
      const mem = process.memoryUsage();
      return {
        server: {
          uptimeSeconds: Math.round(process.uptime()),
          startedAt: app.timings.startedAt.toISOString(),
          nodeVersion: process.version,
          platform: `${os.type()} ${os.release()} ${os.arch()}`,
          pid: process.pid,
        },
        memory: { rss: mem.rss, heapUsed: mem.heapUsed, heapTotal: mem.heapTotal, external: mem.external },
        os: {
          loadavg: os.loadavg().map((n) => Math.round(n * 100) / 100),
          cpus: os.availableParallelism(),
          totalMem: os.totalmem(),
          freeMem: os.freemem(),
        },
        database: {
          version: `PostgreSQL ${db.version}`,
          sizeBytes: Number(db.size),
          connections: db.connections,
          embedded: app.deps.embedded,
        },
        slowest: app.timings.slowest(20),
        routes: app.timings.summary().slice(0, 50),
        refusedNotifications: app.counters.list('refusedNotification').map(({ labels, count }) => ({
          provider: labels.provider ?? '',
          reason: labels.reason as NotifyRefusal,
          count,
        })),
        docsUrl: '/api/docs',
      };
    },
  );
};

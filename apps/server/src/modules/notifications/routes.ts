import fastifyWebsocket from '@fastify/websocket';
import {
  markReadForm,
  NOTIFICATION_WS_PATH,
  notificationPage,
  notificationQuery,
  unreadCount,
} from '@piibs/shared/notification';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminErrors, errorBody } from '../../lib/schemas.ts';
import { NotificationHub } from './hub.ts';
import { listNotifications, markRead } from './service.ts';

const hubs = new WeakMap<object, NotificationHub>();

/** The app's notification hub (one per app instance; keyed by its deps like the business context). */
export function notificationHub(app: Pick<FastifyInstance, 'deps' | 'log'>): NotificationHub {
  let hub = hubs.get(app.deps);
  if (!hub) {
    hub = new NotificationHub({
      db: app.deps.database.db,
      connectionString: String(app.deps.database.pool.options.connectionString),
      jwtSecret: app.deps.config.jwtSecret,
      log: app.log,
    });
    hubs.set(app.deps, hub);
  }
  return hub;
}

/**
 * In-app notifications (站内消息): the caller's own list and unread count, marking read, and the WebSocket that
 * pushes them live (protocol: @piibs/shared/notification, docs/api.md). Any signed-in user; only their own.
 */
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = () => app.deps.database.db;
  const hub = notificationHub(app);
  // Registered here, not on the root: its route wrapper then applies to this plugin's routes only.
  await app.register(fastifyWebsocket, { options: { maxPayload: 16 * 1024 } });
  app.addHook('onListen', async () => {
    await hub.start();
  });
  app.addHook('onClose', async () => {
    await hub.stop();
  });

  app.get(
    '/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary:
          '我的消息：按 id 倒序，before 翻页（next 为下一页的 before），unread 筛选未读/已读，并答未读数',
        querystring: notificationQuery,
        response: { 200: notificationPage, ...adminErrors },
      },
    },
    async (req) => listNotifications(db(), req.user.id, req.query),
  );

  app.put(
    '/notifications/read',
    {
      schema: {
        tags: ['notifications'],
        summary: '标记已读：{ ids } 或 { all: true }（幂等；含他人或不存在的通知答 404），答未读数',
        body: markReadForm,
        response: { 200: unreadCount, ...adminErrors },
      },
    },
    async (req) => markRead(db(), req.user.id, req.body),
  );

  // The browser cannot set headers on a WebSocket and a token must not go in a URL (it would be logged): the
  // upgrade is public and the first message signs in. A plain GET is told to upgrade.
  app.route({
    method: 'GET',
    url: NOTIFICATION_WS_PATH.slice('/api'.length),
    config: { auth: 'public' },
    schema: { hide: true, response: { 426: errorBody } },
    handler: async (_req, reply) =>
      reply.status(426).send({ status: 426, message: '请使用 WebSocket 连接消息推送通道' }),
    wsHandler: (socket, req) => hub.accept(socket, req.ip),
  });
};

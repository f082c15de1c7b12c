import { existsSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyFormbody from '@fastify/formbody';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { AppDeps } from './app-types.ts';
import type { Config } from './config.ts';
import { ReadRouter } from './db/replica.ts';
import { jobsPlugin } from './jobs/boss.ts';
import { HttpError } from './lib/errors.ts';
import { logOptions } from './lib/logging.ts';
import { registerMetrics } from './lib/metrics.ts';
import { validatorCompiler } from './lib/validation.ts';
import { insuredPersonRoutes } from './modules/applications/insured-routes.ts';
import { applicationRoutes } from './modules/applications/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { customerRoutes } from './modules/customers/routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { deptRoutes } from './modules/depts/routes.ts';
import { dictRoutes } from './modules/dicts/routes.ts';
import { initRoutes } from './modules/init/routes.ts';
import { jobRoutes } from './modules/jobs/routes.ts';
import { logRoutes } from './modules/logs/routes.ts';
import { materialRoutes } from './modules/materials/routes.ts';
import { menuRoutes } from './modules/menus/routes.ts';
import { monitorRoutes } from './modules/monitor/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { paymentModule } from './modules/payments/routes.ts';
import { policyRoutes } from './modules/policies/routes.ts';
import { productRoutes } from './modules/products/routes.ts';
import { projectOrderRoutes } from './modules/project-orders/routes.ts';
import { riskControlRoutes } from './modules/risk-control/routes.ts';
import { roleRoutes } from './modules/roles/routes.ts';
import { salesRoutes } from './modules/sales/routes.ts';
import { systemRoutes } from './modules/system/routes.ts';
import { taskRoutes } from './modules/tasks/routes.ts';
import { userAdminRoutes } from './modules/users/admin-routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { zhenjiangRoutes } from './modules/zhenjiang/routes.ts';
import { registerAuth } from './plugins/auth.ts';

export type App = FastifyInstance;

/**
 * Fastify's `trustProxy` for TRUST_PROXY. A hop count is given as a function: Fastify itself now trusts no hop
 * for a bare number (it cannot tell a proxy from a direct client); with `1` the address the one proxy appended
 * is the client's, which holds as long as clients reach PIIBS only through that proxy (see docs/scaling.md).
 */
function proxyTrust(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/**
 * `opts.logger`: false for none; an object adds to the app's own settings (tests give a `stream` to read the log).
 */
export async function buildApp(deps: AppDeps, opts: FastifyServerOptions = {}): Promise<App> {
  const { logger, ...rest } = opts;
  const { tls } = deps.config;
  const app = Fastify({
    // HTTPS with HTTP/2 (lib/tls.ts); HTTP/1.1 stays on for clients without it and for WebSocket upgrades. The
    // routes see the same request and reply either way, so the app keeps its HTTP/1.1 types.
    ...((tls ? { http2: true, https: { allowHTTP1: true, cert: tls.cert, key: tls.key } } : {}) as object),
    logger:
      logger === false
        ? false
        : {
            level: process.env.LOG_LEVEL ?? 'info',
            ...logOptions,
            ...(typeof logger === 'object' ? logger : {}),
          },
    trustProxy: proxyTrust(deps.config.trustProxy),
    bodyLimit: 2 * 1024 * 1024,
    // The router's own refusals (a path parameter over 100 characters, a malformed %-escape) in the one envelope.
    frameworkErrors: (err, _req, reply) => {
      const status =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : err.code === 'FST_ERR_BAD_URL' ? 400 : 500;
      const message = status === 500 ? '服务器内部错误，请稍后重试' : '请求地址不正确';
      (reply as unknown as FastifyReply).code(status).send({ status, message });
    },
    clientErrorHandler,
    ...rest,
  }).withTypeProvider<ZodTypeProvider>();
  app.decorate('deps', deps);
  const reads = new ReadRouter(deps.database, deps.config.replicaUrl);
  app.decorate('reads', reads);
  app.addHook('onReady', () => reads.start());
  app.addHook('onClose', () => reads.close());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The one error policy: `{ status, message }` with a Chinese message (and the refused fields, `errors`, when
  // known); 5xx details never leak.
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (err instanceof HttpError) {
      const { status, message, errors } = err;
      return reply.status(status).send(errors ? { status, message, errors } : { status, message });
    }
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err }, 'request failed');
      return reply.status(500).send({ status: 500, message: '服务器内部错误，请稍后重试' });
    }
    const known: Record<string, string> = {
      FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的请求内容类型',
      FST_ERR_CTP_BODY_TOO_LARGE: '请求内容过大',
      FST_ERR_CTP_EMPTY_JSON_BODY: '请求内容不能为空',
      FST_ERR_CTP_INVALID_JSON_BODY: '请求内容不是有效的 JSON',
      FST_ERR_RATE_LIMIT: '请求过于频繁，请稍后再试',
    };
    const message = known[err.code ?? ''] ?? (status === 429 ? known.FST_ERR_RATE_LIMIT! : '请求不正确');
    return reply.status(status).send({ status, message });
  });

  // Security headers on every answer. helmet's middleware is built once here (@fastify/helmet built it again
  // for every request: a few per cent of a list page's time).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd's CSS-in-JS injects <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (req, reply, done) =>
    securityHeaders(req.raw, reply.raw, (err) => done(err as Error | undefined)),
  );
  await app.register(fastifyFormbody);
  // Answers over 1 KB go gzipped to a client that accepts it: a list page's 14 KB of JSON is 2.3 KB on a phone's
  // link. Level 1 and on the event loop (up to 256 KB): 0.2–0.3 ms of CPU for a list page under load, where brotli
  // through the plugin's streams took 0.6–0.9. The built assets go as their .br / .gz copies (registerSpa), left as
  // they are.
  await app.register(fastifyCompress, {
    encodings: ['gzip'],
    zlibOptions: { level: 1 },
    syncThreshold: 256 * 1024,
  });
  // Off by default; routes opt in with `config: { rateLimit: { max, timeWindow } }` (per IP).
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) =>
      new HttpError(429, `操作过于频繁，请 ${Math.max(1, Math.ceil(ctx.ttl / 1000))} 秒后再试`),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'PIIBS API', description: '财产保险互联网出单系统 API', version: deps.config.version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // Every /api route needs a live session unless its config says `auth: 'public'` (see plugins/auth.ts).
  registerAuth(app);
  registerMetrics(app);
  await app.register(systemRoutes, { prefix: '/api' });
  await app.register(initRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(userRoutes, { prefix: '/api' });
  await app.register(menuRoutes, { prefix: '/api' });
  // System administration (spec's 系统管理 pages).
  await app.register(userAdminRoutes, { prefix: '/api' });
  await app.register(roleRoutes, { prefix: '/api' });
  await app.register(deptRoutes, { prefix: '/api' });
  await app.register(jobRoutes, { prefix: '/api' });
  await app.register(dictRoutes, { prefix: '/api' });
  await app.register(logRoutes, { prefix: '/api' });
  await app.register(monitorRoutes, { prefix: '/api' });
  // Business: products and rate tables, customers and their review, the ZhenJiang channel.
  await app.register(productRoutes, { prefix: '/api' });
  await app.register(customerRoutes, { prefix: '/api' });
  await app.register(applicationRoutes, { prefix: '/api' });
  await app.register(insuredPersonRoutes, { prefix: '/api' });
  await app.register(materialRoutes, { prefix: '/api' });
  await app.register(taskRoutes, { prefix: '/api' });
  await app.register(zhenjiangRoutes, { prefix: '/api' });
  // Payments (/api/payments, the sandbox cashier at /sandbox-pay), policies, and the pg-boss jobs behind them.
  await app.register(paymentModule);
  await app.register(policyRoutes, { prefix: '/api' });
  await app.register(riskControlRoutes, { prefix: '/api' });
  await app.register(dashboardRoutes, { prefix: '/api' });
  await app.register(salesRoutes, { prefix: '/api' });
  await app.register(projectOrderRoutes, { prefix: '/api' });
  // In-app notifications: REST and the live WebSocket (its LISTEN connection stops when the app closes).
  await app.register(notificationRoutes, { prefix: '/api' });
  await app.register(jobsPlugin);

  registerSpa(app, deps.config.webDist);
  return app;
}

/**
 * Node's own refusals, before a request reaches Fastify (headers or the request line over 16 KB: 431; a request
 * that took too long to arrive: 408; anything the HTTP parser cannot read: 400), in the one envelope. The
 * connection is closed after the answer, as Node and Fastify do.
 */
function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, '请求头或请求地址过长']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, '请求超时，请重试']
        : [400, '请求格式不正确'];
  const body = JSON.stringify({ status, message });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The methods the API's routes use, for the 405 of a known path asked with another method. */
const API_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** Serves the built SPA: hashed assets for a year, index.html for every other non-API path (history mode). */
function registerSpa(app: App, webDist: string) {
  const indexFile = path.join(webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of the text assets (apps/web/vite.config.ts): sent as they are.
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  for (const url of ['/', '/piibs', '/piibs/'])
    app.get(url, { schema: { hide: true } }, (_req, reply) => reply.redirect('/piibs/dashboard'));

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (url === '/api' || url.startsWith('/api/')) {
      // A path the API has, asked with a method it does not take: 405 and the methods it does take.
      const allowed = API_METHODS.filter((method) => app.findRoute({ method, url }));
      if (allowed.length)
        return reply
          .status(405)
          .header('allow', allowed.join(', '))
          .send({ status: 405, message: `接口不支持 ${req.method} 请求（可用：${allowed.join('、')}）` });
      return reply.status(404).send({ status: 404, message: `接口不存在：${req.method} ${url}` });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return reply.status(404).send({ status: 404, message: '资源不存在' });
    if (url.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(url) || !hasWeb) {
      return reply
        .status(404)
        .send({ status: 404, message: hasWeb ? '资源不存在' : '前端尚未构建：请运行 npm start' });
    }
    // Read per request so a rebuild is picked up without a restart; it is a small file.
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(readFileSync(indexFile));
  });
}

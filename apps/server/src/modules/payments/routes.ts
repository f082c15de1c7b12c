import {
  type NotifyRefusal,
  notifyAck,
  PAYMENT_PROVIDERS,
  paymentResult,
  payStartResult,
} from '@piibs/shared/payment';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../lib/errors.ts';
import { adminErrors, errorBody } from '../../lib/schemas.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { customerViewerOf } from '../customers/access.ts';
import { businessContext } from './context.ts';
import { handleNotification } from './notify.ts';
import { SandboxProvider } from './sandbox.ts';
import { registerSandboxCashier } from './sandbox-cashier.ts';
import { paymentResult as resultOf, startPayment } from './service.ts';

/** Payments for the signed-in: open the charge, read the result. */
const paymentApiRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = businessContext(app);
  const db = () => app.deps.database.db;
  const canList = requirePermission(app, 'application:list');
  const canEdit = requirePermission(app, 'application:edit');

  app.post(
    '/payments/orders/:applicationId/pay',
    {
      preHandler: canEdit,
      schema: {
        tags: ['payments'],
        summary:
          '去支付：为待支付投保单的支付单创建（或取回）支付渠道的收银台链接（仅投保单创建人/其代理人；已过期答 409）',
        params: z.object({ applicationId: z.coerce.number().int().positive().meta({ title: '投保单ID' }) }),
        response: { 200: payStartResult, ...adminErrors },
      },
    },
    async (req) =>
      startPayment(ctx, await customerViewerOf(db(), req.user), req.params.applicationId, req.ip),
  );

  app.get(
    '/payments/:payId',
    {
      preHandler: canList,
      schema: {
        tags: ['payments'],
        summary:
          '支付结果（以服务器记录为准；待支付时先向支付渠道主动查询并入账；payId 为支付单号或ID；含保单号）',
        params: z.object({ payId: z.string().min(1).max(64).meta({ title: '支付单号' }) }),
        response: { 200: paymentResult, ...adminErrors },
      },
    },
    async (req) => resultOf(ctx, await customerViewerOf(db(), req.user), req.params.payId),
  );
};

/** The provider a notification's URL names, as counted and rate-limited: '' for a name the server has none by. */
const providerKey = (name: string | undefined) =>
  name && (PAYMENT_PROVIDERS as readonly string[]).includes(name) ? name : '';

/** The providers' notifications: public, the raw body kept for the signature and the log. */
const notifyRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = businessContext(app);
  const refused = (provider: string | undefined, reason: NotifyRefusal) =>
    app.counters.add('refusedNotification', { provider: providerKey(provider), reason });
  const providerOf = (req: FastifyRequest) => (req.params as { provider?: string }).provider;
  app.removeAllContentTypeParsers();
  // Any content type (gateways post JSON, text or forms): the raw text is what is verified and recorded.
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 65_536 }, (_req, body, done) =>
    done(null, body),
  );

  app.post(
    '/payments/notify/:provider',
    {
      config: {
        auth: 'public',
        // Per sender and provider (names the server has no provider by share one bucket per sender).
        rateLimit: {
          max: ctx.config.business.notifyRatePerMinute,
          timeWindow: 60_000,
          keyGenerator: (req) => `${req.ip}|${providerKey(providerOf(req))}`,
          onExceeded: (req) => refused(providerOf(req), 'RATE_LIMITED'),
        },
      },
      schema: {
        tags: ['payments'],
        summary:
          '支付结果通知（支付渠道调用，公开；验签、核对订单号与金额；同一通知重放答同样结果且只入账一次）',
        description:
          'sandbox：JSON 正文 { merchantId, orderNo, tradeNo, chargeNo, amountFen, status: "SUCCESS", paidAt, nonce, signType: "HMAC-SHA256", sign }，' +
          'sign = HMAC-SHA256(商户密钥, 除 sign 外各字段按名称排序后以 name=value 用 & 连接)。' +
          '验签失败、金额不符、订单不存在答 400，且不改变任何数据；不支持的支付渠道答 404；' +
          '验签通过的通知都记录在 payment_notification；验签失败或无法解析的只保留每个渠道最近 100 条样本（正文截取前 2048 个字符），' +
          '不支持渠道的不记录；同一来源 IP 对同一渠道每分钟最多 PIIBS_NOTIFY_RATE 次（默认 300），超过答 429。',
        security: [],
        // Any name: one the server does not have is counted and refused (handleNotification).
        params: z.object({ provider: z.string().meta({ title: '支付渠道', description: '目前为 sandbox' }) }),
        // Optional: an empty notification is recorded (and refused) too.
        body: z.string().max(65_536).nullish().meta({ description: '通知正文（原样验签）' }),
        response: { 200: notifyAck, 400: errorBody, 404: errorBody, 429: errorBody },
      },
    },
    async (req) => {
      const answer = await handleNotification(ctx, req.params.provider, req.headers, req.body ?? '', req.ip);
      if (answer.status !== 200) {
        if (answer.refused) refused(req.params.provider, answer.refused);
        throw new HttpError(answer.status, answer.message);
      }
      return answer.body;
    },
  );
};

/**
 * The payment module: /api/payments/* and, with the sandbox provider, the sandbox gateway's cashier at
 * /sandbox-pay/* (outside /api: public HTML).
 */
export async function paymentModule(app: FastifyInstance): Promise<void> {
  await app.register(paymentApiRoutes, { prefix: '/api' });
  await app.register(notifyRoutes, { prefix: '/api' });
  const ctx = businessContext(app);
  const sandbox = ctx.providers.sandbox;
  if (ctx.config.business.paymentProvider === 'sandbox' && sandbox instanceof SandboxProvider)
    await app.register(async (cashier) => registerSandboxCashier(cashier, sandbox), {
      prefix: '/sandbox-pay',
    });
}

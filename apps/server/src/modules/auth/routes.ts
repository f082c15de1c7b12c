import {
  authUser,
  caChallengeResult,
  caLoginForm,
  captchaResult,
  JUMP_URLS,
  loginForm,
  loginRecord,
  loginResult,
  logoutResult,
  sessionInfo,
  tokenResult,
  userRoleResult,
} from '@piibs/shared';
import { blurryParam, onlineRow, pageOf, SORT_FIELDS } from '@piibs/shared/admin';
import { and, asc, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { departments, loginAttempts, sessions, users } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import { blurry, likePattern } from '../../lib/filters.ts';
import { pageQuery, paginate } from '../../lib/paging.ts';
import { errorBody } from '../../lib/schemas.ts';
import { browserOf } from '../../lib/user-agent.ts';
import { requirePermission } from '../../plugins/auth.ts';
import { issueChallenge } from './ca.ts';
import { createCaptcha } from './captcha.ts';
import { asChannel, loadAuthUser, visibleRoles } from './repository.ts';
import { type ClientInfo, caLogin, exchangeHandoff, issueHandoff, passwordLogin } from './service.ts';
import { revokeSession, revokeSessions, revokeUserSessions } from './sessions.ts';

/** Captchas and challenges write a row each: 60 a minute per IP. */
const ISSUE_RATE = { max: 60, timeWindow: 60_000 };

export function clientOf(req: FastifyRequest): ClientInfo {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, userAgent: typeof ua === 'string' ? ua : null };
}

const iso = (d: Date) => d.toISOString();

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 429: errorBody };

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = app.deps.database.db;
  /** Sign-in calls a minute per IP (PIIBS_SIGNIN_RATE, default 20; in memory, per instance — the
   * database-backed failure budget per IP covers the rest). */
  const SIGN_IN_RATE = { max: app.deps.config.signInRatePerMinute, timeWindow: 60_000 };

  app.get(
    '/auth/code',
    {
      config: { auth: 'public', rateLimit: ISSUE_RATE },
      schema: {
        tags: ['auth'],
        summary: '图形验证码：SVG 图片（data URL）与 uuid；答案 2 分钟内有效，只能校验一次，不区分大小写',
        security: [],
        response: { 200: captchaResult },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return createCaptcha(db);
    },
  );

  app.post(
    '/auth/login',
    {
      config: { auth: 'public', rateLimit: SIGN_IN_RATE },
      schema: {
        tags: ['auth'],
        summary: '账号密码登录（application/x-www-form-urlencoded，也接受 JSON）',
        description:
          'psPower 以服务端重新计算的密码强度为准；为 0（或账号被要求改密）时令牌只能调用 info、logout 与 /api/users/updatePass。' +
          '连续 5 次密码错误锁定账号 15 分钟。用户名不存在、账号锁定中与密码错误答同样的 401 用户名或密码错误（耗时相同），' +
          '原因只记入登录日志。同一 IP 15 分钟内失败 50 次后，该 IP 的登录必须通过验证码且每次至少 2 秒后才答复。',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: loginForm,
        response: { 200: loginResult, ...errors },
      },
    },
    async (req) => passwordLogin(app.deps, req.body, clientOf(req)),
  );

  app.get(
    '/auth/ca/challenge',
    {
      config: { auth: 'public', rateLimit: ISSUE_RATE },
      schema: {
        tags: ['auth'],
        summary: '证书登录挑战码：随机 32 字节（base64url），2 分钟内有效，只能使用一次',
        security: [],
        response: { 200: caChallengeResult },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      const { challenge, expiresAt } = await issueChallenge(db);
      return { challenge, expiresAt: iso(expiresAt) };
    },
  );

  app.post(
    '/auth/loginCA',
    {
      config: { auth: 'public', rateLimit: SIGN_IN_RATE },
      schema: {
        tags: ['auth'],
        summary: '证书登录：用证书私钥对挑战码签名（RSASSA-PKCS1-v1_5 + SHA-256，UTF-8 原文）',
        description:
          '证书链须连到 DATA_DIR/ca/trusted/*.pem 中的根证书；主题中的统一社会信用代码（organizationIdentifier 2.5.4.97，' +
          '或 serialNumber 2.5.4.5，或 CN）映射到已启用的企业用户。',
        security: [],
        body: caLoginForm,
        response: { 200: tokenResult, ...errors },
      },
    },
    async (req) => caLogin(app.deps, req.body, clientOf(req)),
  );

  app.get(
    '/auth/info',
    {
      config: { auth: 'session' },
      schema: { tags: ['auth'], summary: '当前登录用户', response: { 200: authUser, 401: errorBody } },
    },
    async (req) => loadAuthUser(db, req.user.id),
  );

  app.get(
    '/auth/getUserRole',
    {
      schema: {
        tags: ['auth'],
        summary: '当前用户的主角色、渠道与 iSeeSwitch',
        response: { 200: userRoleResult, 401: errorBody, 403: errorBody },
      },
    },
    async (req) => {
      const [row] = await db
        .select({ iSeeSwitch: users.iSeeSwitch })
        .from(users)
        .where(eq(users.id, req.user.id));
      return {
        role: visibleRoles(req.user.roles)[0]!,
        channel: asChannel(req.user.channel),
        iSeeSwitch: row?.iSeeSwitch ?? false,
      };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary: '退出登录：吊销当前令牌，返回跳转地址（证书登录回 /piibs/CAlogin）',
        response: { 200: logoutResult, 401: errorBody },
      },
    },
    async (req) => {
      await revokeSession(db, req.user.sessionId, 'logout');
      await auditAction(db, req, {
        action: 'logout',
        entity: 'session',
        entityId: req.user.sessionId,
      });
      return { jumpUrl: req.user.method === 'ca' ? JUMP_URLS.ca : JUMP_URLS.password };
    },
  );

  // ---- hand-off ----

  app.post(
    '/auth/handoff',
    {
      schema: {
        tags: ['auth'],
        summary: '（管理员/内部员工）为企业用户签发一次性交接令牌，2 分钟内有效',
        description:
          '前端以 /piibs/insured/start?token=<token> 打开，页面用 /api/auth/handoff/exchange 换取正式令牌。',
        body: z
          .object({
            userId: z.number().int().positive().optional().meta({ title: '目标用户ID' }),
            username: z.string().trim().min(1).max(64).optional().meta({ title: '目标用户名' }),
          })
          .meta({ description: 'userId 或 username 其一' }),
        response: {
          200: z.object({ token: z.string(), expiresAt: z.string(), url: z.string() }),
          ...errors,
          404: errorBody,
        },
      },
    },
    async (req) => {
      const issued = await issueHandoff(app.deps, req.user, req.body, clientOf(req));
      return {
        token: issued.token,
        expiresAt: iso(issued.expiresAt),
        url: `/piibs/insured/start?token=${encodeURIComponent(issued.token)}`,
      };
    },
  );

  app.post(
    '/auth/handoff/exchange',
    {
      config: { auth: 'public', rateLimit: SIGN_IN_RATE },
      schema: {
        tags: ['auth'],
        summary: '用一次性交接令牌换取正式登录令牌',
        security: [],
        body: z.object({ token: z.string().min(1).max(200).meta({ title: '交接令牌' }) }),
        response: { 200: tokenResult, ...errors },
      },
    },
    async (req) => exchangeHandoff(app.deps, req.body.token, clientOf(req)),
  );

  // ---- own sessions and sign-ins ----

  app.get(
    '/auth/sessions',
    {
      schema: {
        tags: ['auth'],
        summary: '本人的有效会话（current 标出当前会话）',
        response: { 200: z.array(sessionInfo), 401: errorBody, 403: errorBody },
      },
    },
    async (req) => {
      const rows = await db
        .select()
        .from(sessions)
        .where(
          and(
            eq(sessions.userId, req.user.id),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, sql`now()`),
          ),
        )
        .orderBy(desc(sessions.createdAt));
      return rows.map((s) => ({
        id: s.id,
        method: s.method,
        ip: s.ip,
        userAgent: s.userAgent,
        createdAt: iso(s.createdAt),
        lastSeenAt: iso(s.lastSeenAt),
        expiresAt: iso(s.expiresAt),
        current: s.id === req.user.sessionId,
      }));
    },
  );

  app.post(
    '/auth/sessions/revokeOthers',
    {
      schema: {
        tags: ['auth'],
        summary: '吊销本人除当前会话外的全部会话',
        response: { 200: z.object({ revoked: z.number().int() }), 401: errorBody, 403: errorBody },
      },
    },
    async (req) => {
      const revoked = await revokeUserSessions(db, req.user.id, 'revoke_others', req.user.sessionId);
      await auditAction(db, req, {
        action: 'session_revoke',
        entity: 'user',
        entityId: req.user.id,
        detail: { scope: 'others', revoked },
      });
      return { revoked };
    },
  );

  app.get(
    '/auth/logins',
    {
      schema: {
        tags: ['auth'],
        summary: '本人最近 20 次登录记录（含失败）',
        response: { 200: z.array(loginRecord), 401: errorBody, 403: errorBody },
      },
    },
    async (req) => {
      const rows = await db
        .select()
        .from(loginAttempts)
        .where(eq(loginAttempts.userId, req.user.id))
        .orderBy(desc(loginAttempts.createdAt), desc(loginAttempts.id))
        .limit(20);
      return rows.map((r) => ({
        time: iso(r.createdAt),
        ip: r.ip,
        userAgent: r.userAgent,
        method: r.method,
        success: r.success,
        reason: r.reason,
      }));
    },
  );

  // ---- administrators: online sessions and force-logout (system/Online) ----

  const onlineSort = {
    createdAt: sessions.createdAt,
    lastSeenAt: sessions.lastSeenAt,
    username: users.username,
  };

  const onlineQuery = pageQuery(SORT_FIELDS.online).extend({
    blurry: blurryParam.meta({ title: '关键词', description: '用户名、昵称或 IP 包含' }),
    username: z.string().trim().max(64).optional().meta({ title: '用户名' }),
  });

  app.get(
    '/auth/online',
    {
      preHandler: requirePermission(app, 'online:list'),
      schema: {
        tags: ['auth'],
        summary: '在线会话（分页）：用户、IP、浏览器、登录时间、最近活动',
        querystring: onlineQuery,
        response: { 200: pageOf(onlineRow), 400: errorBody, 401: errorBody, 403: errorBody },
      },
    },
    async (req) => {
      const { username } = req.query;
      const where = and(
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        username ? sql`${users.username} ilike ${likePattern(username)}` : undefined,
        blurry(req.query.blurry, users.username, users.nickName, sessions.ip),
      );
      return paginate(req.query, {
        columns: onlineSort,
        defaultOrder: [desc(sessions.lastSeenAt), asc(sessions.id)],
        fetch: async ({ limit, offset, orderBy }) => {
          const rows = await db
            .select({
              s: sessions,
              username: users.username,
              nickName: users.nickName,
              dept: departments.name,
            })
            .from(sessions)
            .innerJoin(users, eq(users.id, sessions.userId))
            .leftJoin(departments, eq(departments.id, users.deptId))
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .offset(offset);
          return rows.map(({ s, username, nickName, dept }) => ({
            id: s.id,
            userId: s.userId,
            username,
            nickName,
            dept,
            method: s.method,
            ip: s.ip,
            userAgent: s.userAgent,
            browser: browserOf(s.userAgent),
            createdAt: iso(s.createdAt),
            lastSeenAt: iso(s.lastSeenAt),
            expiresAt: iso(s.expiresAt),
            current: s.id === req.user.sessionId,
          }));
        },
        count: async () =>
          (
            await db
              .select({ n: count() })
              .from(sessions)
              .innerJoin(users, eq(users.id, sessions.userId))
              .where(where)
          )[0]?.n ?? 0,
      });
    },
  );

  app.post(
    '/auth/online/revoke',
    {
      preHandler: requirePermission(app, 'online:kick'),
      schema: {
        tags: ['auth'],
        summary: '强制下线：吊销指定会话',
        body: z.object({ ids: z.array(z.uuid()).min(1).max(200).meta({ title: '会话ID' }) }),
        response: { 200: z.object({ revoked: z.number().int() }), ...errors },
      },
    },
    async (req) => {
      const rows = await revokeSessions(db, req.body.ids, 'force_logout');
      await auditAction(db, req, {
        action: 'session_revoke',
        entity: 'session',
        detail: {
          scope: 'force_logout',
          sessions: rows.map((r) => r.id),
          users: [...new Set(rows.map((r) => r.userId))],
        },
      });
      return { revoked: rows.length };
    },
  );
};

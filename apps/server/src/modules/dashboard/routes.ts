import { shanghaiToday } from '@piibs/shared/application-status';
import { ROLE_CODES } from '@piibs/shared/auth';
import {
  DASHBOARD_MAX_DAYS,
  type DashboardAnswer,
  dashboardAnswer,
  dashboardQuery,
  resolveRange,
} from '@piibs/shared/dashboard';
import { TASK_KIND_PERMISSIONS, type TaskKind } from '@piibs/shared/review';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fieldError } from '../../lib/errors.ts';
import { errorBody } from '../../lib/schemas.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { hasPermission } from '../../plugins/auth.ts';
import type { RequestUser } from '../auth/sessions.ts';
import { customerViewerOf } from '../customers/access.ts';
import {
  businessFigures,
  managementFigures,
  type Range,
  REVIEW_KINDS,
  reviewFigures,
  serviceFigures,
  serviceOrgOf,
  systemFigures,
} from './service.ts';

/** How long an answer is reused for the same user, roles and range. */
export const DASHBOARD_CACHE_MS = 30_000;

/** Roles that hold applications of their own (the business section). */
const HOLDER_ROLES: readonly string[] = [ROLE_CODES.agent, ROLE_CODES.enterprise, ROLE_CODES.contractor];
/** Roles on the customers' side of the business: never management, whatever they are granted. */
const OUTSIDE_ROLES: readonly string[] = [...HOLDER_ROLES, ROLE_CODES.service];

async function answerFor(
  app: FastifyInstance,
  user: RequestUser,
  range: Range & { days: number },
  today: string,
): Promise<DashboardAnswer> {
  const db = app.deps.database.db;
  const can = (code: string) => hasPermission(app, user, code);
  const isAdmin = user.roles.includes(ROLE_CODES.admin);
  const [viewer, kinds, listsApplications, monitors, org] = await Promise.all([
    customerViewerOf(db, user),
    (async () => {
      const out: TaskKind[] = [];
      for (const kind of REVIEW_KINDS) if (await can(TASK_KIND_PERMISSIONS[kind])) out.push(kind);
      return out;
    })(),
    can('application:list'),
    can('monitor:list'),
    serviceOrgOf(db, user.id),
  ]);
  const holder = user.roles.some((r) => HOLDER_ROLES.includes(r));
  const staff = isAdmin || user.roles.some((r) => !OUTSIDE_ROLES.includes(r));
  // The figures from the replica when it keeps up (they tolerate seconds of staleness, and are cached 30 s
  // anyway), else from the primary; who the user is and what they may see is decided above, on the primary.
  const { reads } = app;
  const [review, business, management, service, system] = await Promise.all([
    kinds.length ? reads.read((fig) => reviewFigures(fig, viewer, kinds, range)) : undefined,
    holder ? reads.read((fig) => businessFigures(fig, viewer, range, today)) : undefined,
    staff && listsApplications && viewer.staffScope
      ? // Staff figures cover their data scope, not the applications they hold as an agent or an enterprise.
        reads.read((fig) => managementFigures(fig, { ...viewer, isAgent: false, isEnterprise: false }, range))
      : undefined,
    // Members of a service organisation: its orders only, as their "my service orders" list.
    org ? reads.read((fig) => serviceFigures(fig, org, range, today)) : undefined,
    isAdmin || monitors
      ? systemFigures(
          app.deps.database,
          viewer.staffScope ?? { all: false, deptIds: [], selfId: user.id },
          range,
        )
      : undefined,
  ]);
  const answer: DashboardAnswer = {
    range: { from: range.from, to: range.to, days: range.days, granularity: range.granularity },
    generatedAt: new Date().toISOString(),
  };
  if (review) answer.review = review;
  if (business) answer.business = business;
  if (management) answer.management = management;
  if (service) answer.service = service;
  if (system) answer.system = system;
  return answer;
}

/**
 * The dashboard (首页): GET /api/dashboard answers any signed-in user with the sections their roles and
 * permissions allow (none is a valid answer, never a 403), computed in their data scope and cached for
 * DASHBOARD_CACHE_MS per user, roles and range.
 */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = new TtlCache<DashboardAnswer>(DASHBOARD_CACHE_MS, 500);

  app.get(
    '/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        summary:
          '首页统计：按角色返回审核（review）、本人业务（business）、经营（management）、本服务机构（service）、系统（system）各部分；日期范围为北京时间，缺省为近 30 天',
        querystring: dashboardQuery,
        response: { 200: dashboardAnswer, 400: errorBody, 401: errorBody },
      },
    },
    async (req) => {
      const today = shanghaiToday();
      const range = resolveRange(req.query, today);
      if (range.days > DASHBOARD_MAX_DAYS)
        throw fieldError('from', `日期范围不能超过 ${DASHBOARD_MAX_DAYS} 天`, '开始日期');
      // Today is part of the key: the expiring windows count from it.
      const key = [req.user.id, [...req.user.roles].sort().join(','), range.from, range.to, today].join('|');
      return cache.get(key, () => answerFor(app, req.user, range, today));
    },
  );
};

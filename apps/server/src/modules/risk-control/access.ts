// Who sees and does what in risk control. A record the caller may not see answers 404, never 403.
//   insurer staff  (admin, or any role but enterprise / agent / service / contractor): the policies their data
//                  scope sees (as the policy list), every organisation and person; they plan, dispatch, cancel;
//   organisation   (a user linked to a service_org by service_org_member): only its own organisation, persons
//                  and orders, and the plans of the policies it serves (its own items); it accepts, rejects,
//                  performs, submits, rectifies and answers complaints;
//   enterprise     (role '17' with a uscc): the plans and orders of its own policies; it confirms, sends back,
//                  rates and complains.
// A 'service' account that is not linked to an organisation sees nothing. The permission codes of the routes
// (service_org:*, service_person:*, prevention:*) come on top: without them 403.
import { ROLE_CODES } from '@piibs/shared';
import { type AnyColumn, and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import {
  policies,
  preventionFunds,
  preventionPlanItems,
  serviceOrders,
  serviceOrgMembers,
} from '../../db/schema.ts';
import type { Actor } from '../../lib/audit.ts';
import { dataScopeOf } from '../../lib/data-scope.ts';
import { forbidden } from '../../lib/errors.ts';
import type { RequestUser } from '../auth/sessions.ts';
import { type CustomerViewer, usccOf } from '../customers/access.ts';
import { policiesVisibleTo } from '../policies/service.ts';

/** The caller of a risk-control call: who, from where, and on which side(s) of the business. */
export interface PreventionViewer extends Actor {
  user: RequestUser;
  /** The service organisation the caller acts for, or null. */
  orgId: number | null;
  /** The caller as insurer staff (their data scope), or null. */
  insurer: CustomerViewer | null;
  /** The caller as the policyholder enterprise, or null. */
  enterprise: CustomerViewer | null;
}

const NOT_INSURER: readonly string[] = [
  ROLE_CODES.enterprise,
  ROLE_CODES.agent,
  ROLE_CODES.service,
  ROLE_CODES.contractor,
];

export const preventionViewerOf = (db: Db, req: FastifyRequest): Promise<PreventionViewer> =>
  preventionViewerFor(db, req.user, req.ip);

/** The viewer of a signed-in user (also used by the demo seeding, which acts as the demo accounts). */
export async function preventionViewerFor(db: Db, user: RequestUser, ip: string): Promise<PreventionViewer> {
  const isAdmin = user.roles.includes(ROLE_CODES.admin);
  const staffRoles = user.roles.filter((r) => !NOT_INSURER.includes(r));
  const [orgId, uscc] = await Promise.all([
    serviceOrgOf(db, user),
    user.roles.includes(ROLE_CODES.enterprise) ? usccOf(db, user) : null,
  ]);
  const insurer: CustomerViewer | null =
    isAdmin || staffRoles.length
      ? {
          user,
          uscc: null,
          isEnterprise: false,
          isAgent: false,
          staffScope: isAdmin ? { all: true } : await dataScopeOf(db, { ...user, roles: staffRoles }),
        }
      : null;
  const enterprise: CustomerViewer | null = uscc
    ? { user, uscc, isEnterprise: true, isAgent: false, staffScope: null }
    : null;
  return { user, ip, orgId, insurer, enterprise };
}

/** The service organisation the user works for: as read with the session, else from the membership. */
async function serviceOrgOf(db: Db, user: RequestUser): Promise<number | null> {
  if (user.serviceOrgId !== undefined) return user.serviceOrgId;
  const [member] = await db
    .select({ orgId: serviceOrgMembers.orgId })
    .from(serviceOrgMembers)
    .where(eq(serviceOrgMembers.userId, user.id));
  return member?.orgId ?? null;
}

/** A subquery of the ids of the policies a customer viewer sees, or null for "all". */
function policyIdsSeenBy(db: Db | Tx, v: CustomerViewer) {
  const c = policiesVisibleTo(db as Db, v);
  if (!c) return null;
  return db.select({ id: policies.id }).from(policies).where(c);
}

/** The condition: the policy in `column` is seen by the caller as insurer staff (sql`false` if not staff). */
export function insurerSeesPolicy(db: Db | Tx, v: PreventionViewer, column: AnyColumn): SQL {
  if (!v.insurer) return sql`false`;
  const ids = policyIdsSeenBy(db, v.insurer);
  return ids ? inArray(column, ids) : sql`true`;
}

/** The condition: the policy in `column` is the caller's own enterprise's. */
export function enterpriseSeesPolicy(db: Db | Tx, v: PreventionViewer, column: AnyColumn): SQL {
  if (!v.enterprise) return sql`false`;
  const ids = policyIdsSeenBy(db, v.enterprise);
  return ids ? inArray(column, ids) : sql`true`;
}

/** The policies whose prevention record the caller may see: as staff, as the enterprise, or as a serving org. */
export function plansVisibleTo(db: Db | Tx, v: PreventionViewer): SQL {
  const parts: SQL[] = [insurerSeesPolicy(db, v, policies.id), enterpriseSeesPolicy(db, v, policies.id)];
  if (v.orgId != null)
    parts.push(
      inArray(
        policies.id,
        db.select({ id: serviceOrders.policyId }).from(serviceOrders).where(eq(serviceOrders.orgId, v.orgId)),
      ),
      inArray(
        policies.id,
        db
          .select({ id: preventionFunds.policyId })
          .from(preventionPlanItems)
          .innerJoin(preventionFunds, eq(preventionFunds.id, preventionPlanItems.fundId))
          .where(and(eq(preventionPlanItems.orgId, v.orgId), isNull(preventionPlanItems.deletedAt))),
      ),
    );
  return or(...parts)!;
}

/** The service orders the caller may see: of policies seen as staff or enterprise, or its organisation's. */
export function ordersVisibleTo(db: Db | Tx, v: PreventionViewer): SQL {
  const parts: SQL[] = [
    insurerSeesPolicy(db, v, serviceOrders.policyId),
    enterpriseSeesPolicy(db, v, serviceOrders.policyId),
  ];
  if (v.orgId != null) parts.push(eq(serviceOrders.orgId, v.orgId));
  return or(...parts)!;
}

/** True when the caller sees the policy as staff / as its enterprise. */
export async function sidesOnPolicy(
  db: Db | Tx,
  v: PreventionViewer,
  policyId: number,
): Promise<{ insurer: boolean; enterprise: boolean }> {
  if (!v.insurer && !v.enterprise) return { insurer: false, enterprise: false };
  const [row] = await db
    .select({
      insurer: sql<boolean>`${insurerSeesPolicy(db, v, policies.id)}`,
      enterprise: sql<boolean>`${enterpriseSeesPolicy(db, v, policies.id)}`,
    })
    .from(policies)
    .where(eq(policies.id, policyId));
  return { insurer: Boolean(row?.insurer), enterprise: Boolean(row?.enterprise) };
}

export const ONLY_INSURER = '只有保险公司人员可以执行此操作';
export const ONLY_ORG = '只有承接该服务的服务机构可以执行此操作';
export const ONLY_ENTERPRISE = '只有投保企业可以执行此操作';

/** 403 unless the caller is insurer staff. */
export function requireInsurer(v: PreventionViewer): void {
  if (!v.insurer) throw forbidden(ONLY_INSURER);
}

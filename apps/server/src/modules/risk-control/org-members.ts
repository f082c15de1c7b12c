// The accounts acting for a service organisation (风控服务机构): who they are, the candidates to add, and setting
// them (insurer staff). Audited.

import { ROLE_CODES } from '@piibs/shared';
import type { OrgMemberRow } from '@piibs/shared/risk-control';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, serviceOrgMembers, serviceOrgs, userRoles, users } from '../../db/schema.ts';
import { auditChange } from '../../lib/audit.ts';
import { conflict, fieldError } from '../../lib/errors.ts';
import { blurry } from '../../lib/filters.ts';
import { type PreventionViewer, requireInsurer } from './access.ts';
import { visibleOrg } from './orgs.ts';

export async function orgMembers(db: Db, v: PreventionViewer, id: number): Promise<OrgMemberRow[]> {
  await visibleOrg(db, v, id);
  return db
    .select({ userId: users.id, username: users.username, nickName: users.nickName, enabled: users.enabled })
    .from(serviceOrgMembers)
    .innerJoin(users, eq(users.id, serviceOrgMembers.userId))
    .where(eq(serviceOrgMembers.orgId, id))
    .orderBy(users.id);
}

/** How many candidates one search answers (type more of the name to narrow it). */
export const MEMBER_CANDIDATE_LIMIT = 50;

/**
 * GET /api/service-orgs/:id/member-candidates (staff): the accounts that may be linked to the organisation —
 * holding the 'service' role and linked to no other organisation (its own members included, so a picker can
 * show them) — whose username or nickname contains `keyword`. Names and the enabled flag only.
 */
export async function orgMemberCandidates(
  db: Db,
  v: PreventionViewer,
  id: number,
  keyword?: string,
): Promise<OrgMemberRow[]> {
  await visibleOrg(db, v, id);
  requireInsurer(v);
  return db
    .selectDistinct({
      userId: users.id,
      username: users.username,
      nickName: users.nickName,
      enabled: users.enabled,
    })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .leftJoin(serviceOrgMembers, eq(serviceOrgMembers.userId, users.id))
    .where(
      and(
        eq(roles.code, ROLE_CODES.service),
        or(isNull(serviceOrgMembers.orgId), eq(serviceOrgMembers.orgId, id)),
        blurry(keyword?.trim(), users.username, users.nickName),
      ),
    )
    .orderBy(users.username, users.id)
    .limit(MEMBER_CANDIDATE_LIMIT);
}

/** POST /api/service-orgs/:id/members (staff): replaces the accounts; each must hold the 'service' role. */
export async function setOrgMembers(
  db: Db,
  v: PreventionViewer,
  id: number,
  userIds: number[],
): Promise<OrgMemberRow[]> {
  requireInsurer(v);
  const wanted = [...new Set(userIds)];
  await db.transaction(async (tx) => {
    await visibleOrg(tx, v, id, true);
    const before = (
      await tx
        .select({ userId: serviceOrgMembers.userId })
        .from(serviceOrgMembers)
        .where(eq(serviceOrgMembers.orgId, id))
    ).map((r) => r.userId);
    if (wanted.length) {
      const found = await tx
        .select({ id: users.id, username: users.username })
        .from(users)
        .innerJoin(userRoles, eq(userRoles.userId, users.id))
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(and(inArray(users.id, wanted), eq(roles.code, ROLE_CODES.service)));
      const ok = new Set(found.map((f) => f.id));
      const bad = wanted.find((u) => !ok.has(u));
      if (bad !== undefined)
        throw fieldError('userIds', `用户 ${bad} 不存在或不是风控服务机构账号`, '机构账号');
      const [elsewhere] = await tx
        .select({ username: users.username, orgName: serviceOrgs.name })
        .from(serviceOrgMembers)
        .innerJoin(users, eq(users.id, serviceOrgMembers.userId))
        .innerJoin(serviceOrgs, eq(serviceOrgs.id, serviceOrgMembers.orgId))
        .where(and(inArray(serviceOrgMembers.userId, wanted), sql`${serviceOrgMembers.orgId} <> ${id}`))
        .orderBy(users.username)
        .limit(1);
      if (elsewhere)
        throw conflict(
          `机构账号：账号 ${elsewhere.username} 已属于其他服务机构「${elsewhere.orgName}」，请先从该机构移除`,
        );
    }
    await tx.delete(serviceOrgMembers).where(eq(serviceOrgMembers.orgId, id));
    if (wanted.length)
      await tx.insert(serviceOrgMembers).values(wanted.map((userId) => ({ userId, orgId: id })));
    await auditChange(tx, v, {
      action: 'members',
      entity: 'service_org',
      entityId: id,
      before: { userIds: before },
      after: { userIds: wanted },
    });
  });
  return orgMembers(db, v, id);
}

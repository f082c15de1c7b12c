import { ROLE_SYSTEM_DEFAULT, ROLE_SYSTEM_DEFAULT_NAME } from '@piibs/shared';
import { type AuthUser, CHANNELS, type Channel, maskPhone } from '@piibs/shared/auth';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { departments, menus, roleMenus, roles, userRoles, users } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { roleCodesOf } from './sessions.ts';

export function asChannel(value: string): Channel {
  return (CHANNELS as readonly string[]).includes(value) ? (value as Channel) : 'staff';
}

/** Role codes as the API shows them: ROLE_SYSTEM_DEFAULT for a user without roles. */
export function visibleRoles(codes: string[]): string[] {
  return codes.length ? codes : [ROLE_SYSTEM_DEFAULT];
}

/** The names of a user's roles, in the order of roleCodesOf. */
const roleNamesOf = (userIdColumn: typeof users.id) =>
  sql<
    string[]
  >`coalesce((select array_agg(r.name order by r.level, r.id) from ${userRoles} ur join ${roles} r on r.id = ur.role_id where ur.user_id = ${userIdColumn}), '{}')`;

/** The user as sign-in and /api/auth/info show it (phone masked, roles never empty). */
export async function loadAuthUser(db: Db, userId: number): Promise<AuthUser> {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      nickName: users.nickName,
      email: users.email,
      phone: users.phone,
      gender: users.gender,
      avatar: users.avatar,
      channel: users.channel,
      uscc: users.uscc,
      deptId: departments.id,
      deptName: departments.name,
      roles: roleCodesOf(users.id),
      roleNames: roleNamesOf(users.id),
    })
    .from(users)
    .leftJoin(departments, eq(departments.id, users.deptId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('用户不存在');
  const permissions = await permissionCodesOf(db, row.roles);
  return {
    id: row.id,
    username: row.username,
    nickName: row.nickName,
    email: row.email,
    phone: maskPhone(row.phone),
    gender: row.gender,
    avatar: row.avatar,
    channel: asChannel(row.channel),
    uscc: row.uscc,
    dept: row.deptId != null && row.deptName != null ? { id: row.deptId, name: row.deptName } : null,
    roles: visibleRoles(row.roles),
    roleNames: row.roleNames.length ? row.roleNames : [ROLE_SYSTEM_DEFAULT_NAME],
    permissions,
  };
}

/** The permission codes the roles are granted through menus and buttons; the admin role holds every code. */
async function permissionCodesOf(db: Db, roleCodes: string[]): Promise<string[]> {
  if (roleCodes.length === 0) return [];
  const admin = roleCodes.includes('admin');
  const rows = await db
    .selectDistinct({ code: menus.permission })
    .from(menus)
    .leftJoin(roleMenus, eq(roleMenus.menuId, menus.id))
    .leftJoin(roles, eq(roles.id, roleMenus.roleId))
    .where(
      admin ? isNotNull(menus.permission) : and(isNotNull(menus.permission), inArray(roles.code, roleCodes)),
    );
  return rows.map((r) => r.code!).sort();
}

/** The account a username signs in as (case-insensitive), with what the sign-in checks need. */
export async function findLoginUser(db: Db, username: string) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      passwordHash: users.passwordHash,
      enabled: users.enabled,
      mustChangePassword: users.mustChangePassword,
      passwordOneTime: users.passwordOneTime,
      lockedMsLeft: sql<number | null>`(extract(epoch from (${users.lockedUntil} - now())) * 1000)::float8`,
    })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  if (!row) return undefined;
  const left = row.lockedMsLeft == null ? 0 : Number(row.lockedMsLeft);
  return { ...row, lockedMsLeft: left > 0 ? left : 0 };
}
